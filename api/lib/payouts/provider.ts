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
}

export type TransferOrder = {
  reference: string
  /** Minor units that arrive in the bank. */
  amount: number
  currency: string
  bankCode: string
  accountNumber: string
  accountName: string
  reason: string
}

export type PayoutEvent = { event: string; transfer: Transfer | null }

/** The provider could not be asked (down, 5xx, a timeout, an answer we cannot read): try again later. */
export class ProviderUnavailable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProviderUnavailable'
  }
}

/** The provider said no to this request (a 4xx): asking the same again gets the same answer. */
export class ProviderRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
    this.name = 'ProviderRefused'
  }
}

export interface PayoutProvider {
  readonly name: 'manual' | 'paystack'
  /** The holder's name as the bank has it; null when the bank does not know the account. */
  resolveAccount(bankCode: string, accountNumber: string): Promise<{ accountName: string } | null>
  /** Sends once per reference: the provider refuses a reference it has seen. */
  sendTransfer(order: TransferOrder): Promise<Transfer>
  /** null when the provider has no transfer with this reference. */
  verifyTransfer(reference: string): Promise<Transfer | null>
  /** The event of an authentic webhook; null when its signature is missing or wrong. */
  readWebhook(rawBody: Buffer, signature: string | undefined): PayoutEvent | null
  /** Every transfer created between from and to (epoch ms, both included). */
  listTransfers(from: number, to: number): Promise<Transfer[]>
}

/** Operators pay by hand: nothing may call a provider. */
export const manualProvider: PayoutProvider = {
  name: 'manual',
  resolveAccount: () => Promise.reject(new Error('manual payouts: no provider to resolve accounts')),
  sendTransfer: () => Promise.reject(new Error('manual payouts: no provider to send transfers')),
  verifyTransfer: () => Promise.reject(new Error('manual payouts: no provider to ask')),
  readWebhook: () => null,
  listTransfers: () => Promise.reject(new Error('manual payouts: no provider to list')),
}
