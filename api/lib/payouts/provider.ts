/**
 * One payout interface for every provider (decision 018): resolve an account's holder name, send
 * a transfer under our reference, read a transfer's state by that reference, read a webhook, list
 * a day's transfers. The services never see a provider's wire format, only these shapes.
 */

/** What we act on. A provider's many states fold into these four; anything unknown waits. */
export type TransferState = 'pending' | 'success' | 'failed' | 'reversed'

export type Transfer = {
  reference: string
  state: TransferState
  /** The provider's own state word, kept for operators; never compared with messages. */
  providerStatus: string
  amount: number
  currency: string
  transferCode: string | null
  /** The bank's session id (NIP), once the bank has it. */
  sessionId: string | null
  /** When the provider last changed it (epoch ms), if it says. */
  updatedAt: number | null
  /** What the provider charged us for it (minor units), once it says. */
  fee?: number | null
}

export type TransferOrder = {
  reference: string
  /** Minor units that arrive in the bank. */
  amount: number
  currency: string
  bankCode: string
  accountNumber: string
  accountName: string
  /** The account's stored transfer recipient: no recipient call this payout. */
  recipientCode?: string
  reason: string
}

export type PayoutEvent = { event: string; transfer: Transfer | null }

/**
 * The provider could not be asked (down, 5xx, 429, a timeout, an answer we cannot read): try again
 * later, after `retryAfterMs` when it said. `transferMayExist` is false only when this call is
 * known not to have made a transfer: it never reached the provider (connection refused), was
 * rate limited, or failed before the transfer call (creating the recipient).
 */
export class ProviderUnavailable extends Error {
  readonly retryAfterMs: number | null
  readonly transferMayExist: boolean
  constructor(message: string, opts: { retryAfterMs?: number | null; transferMayExist?: boolean } = {}) {
    super(message)
    this.name = 'ProviderUnavailable'
    this.retryAfterMs = opts.retryAfterMs ?? null
    this.transferMayExist = opts.transferMayExist ?? true
  }
}

/**
 * What a refusal means, read from the provider's machine-readable fields: the reference was used
 * (a transfer exists: ask for it), our float is too low (wait), the account cannot be paid (the
 * person must act), or a meaning we do not know (unknown: never a failure).
 */
export type RefusalKind = 'duplicate' | 'insufficient_balance' | 'invalid_account' | 'unknown'

/** The provider said no to this request (a 4xx other than 429). */
export class ProviderRefused extends Error {
  readonly kind: RefusalKind
  /** False when the refusal itself says no transfer was made by this call. */
  readonly transferMayExist: boolean
  constructor(
    message: string,
    readonly status: number,
    opts: { kind?: RefusalKind; transferMayExist?: boolean } = {},
  ) {
    super(message)
    this.name = 'ProviderRefused'
    this.kind = opts.kind ?? 'unknown'
    this.transferMayExist = opts.transferMayExist ?? true
  }
}

/** A row of the provider's transfer list we could not read: reported, never fatal. */
export type UnreadableRow = { page: number; status: string; reference: string | null; problem: string }

export interface PayoutProvider {
  readonly name: 'manual' | 'paystack'
  /** The holder's name as the bank has it; null when the bank does not know the account. */
  resolveAccount(bankCode: string, accountNumber: string): Promise<{ accountName: string } | null>
  /** Sends once per reference: the provider refuses a reference it has seen. */
  sendTransfer(order: TransferOrder): Promise<Transfer>
  /**
   * null only on the provider's documented "not found"; every other doubt throws
   * ProviderUnavailable (unknown). "Not found" may be read-after-write lag: the caller decides.
   */
  verifyTransfer(reference: string): Promise<Transfer | null>
  /** Completes a transfer waiting for the business's OTP. */
  finalizeTransfer(transferCode: string, otp: string): Promise<Transfer>
  /** The business's available balance in a currency (minor units). */
  balance(currency: string): Promise<number>
  /** The event of an authentic webhook; null when its signature is missing or wrong. */
  readWebhook(rawBody: Buffer, signature: string | undefined): PayoutEvent | null
  /** Every transfer created between from and to (epoch ms, both included), in every state; rows it cannot read apart. */
  listTransfers(from: number, to: number): Promise<{ transfers: Transfer[]; unreadable: UnreadableRow[] }>
}

/** Operators pay by hand: nothing may call a provider. */
export const manualProvider: PayoutProvider = {
  name: 'manual',
  resolveAccount: () => Promise.reject(new Error('manual payouts: no provider to resolve accounts')),
  sendTransfer: () => Promise.reject(new Error('manual payouts: no provider to send transfers')),
  verifyTransfer: () => Promise.reject(new Error('manual payouts: no provider to ask')),
  finalizeTransfer: () => Promise.reject(new Error('manual payouts: no provider to finalize')),
  balance: () => Promise.reject(new Error('manual payouts: no provider balance')),
  readWebhook: () => null,
  listTransfers: () => Promise.reject(new Error('manual payouts: no provider to list')),
}
