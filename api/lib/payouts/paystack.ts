import { createHmac, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import type { BankingProvider, ProviderBank } from './banking'
import {
  ProviderRefused,
  ProviderUnavailable,
  type PayoutEvent,
  type PayoutProvider,
  type RefusalKind,
  type Transfer,
  type TransferOrder,
  type TransferState,
  type UnreadableRow,
} from './provider'

/**
 * Paystack's Transfers API in its wire format (decision 019: a small client over fetch, no SDK):
 * `GET /bank/resolve`, `POST /transferrecipient`, `POST /transfer` with our reference,
 * `GET /transfer/verify/:reference`, `GET /transfer`, and webhooks signed with HMAC-SHA512 of the
 * raw body under the secret key (`x-paystack-signature`), `GET /balance` and
 * `POST /transfer/finalize_transfer`. HTTP statuses and the error's `code` decide; Paystack's
 * `message` is read only when an error carries no code of its own (decision 038).
 */

/** Paystack's transfer states, folded into ours; an unknown one waits for the next look. */
const STATES: Record<string, TransferState> = {
  success: 'success',
  failed: 'failed',
  reversed: 'reversed',
  abandoned: 'failed',
  rejected: 'failed',
  blocked: 'failed',
}

const transferData = z
  .object({
    reference: z.string(),
    status: z.string(),
    amount: z.number(),
    currency: z.string().default('NGN'),
    transfer_code: z.string().nullish(),
    session: z.object({ id: z.string().nullish() }).passthrough().nullish(),
    updatedAt: z.string().nullish(),
    updated_at: z.string().nullish(),
    fee_charged: z.number().nullish(),
  })
  .passthrough()

/** Every state the list filters by (its default is `pending` only). */
const LIST_STATUSES = ['pending', 'success', 'failed', 'otp', 'abandoned', 'reversed', 'blocked', 'rejected', 'received'] as const

/** Paystack's error body: `type` and `code` are the machine-readable fields. */
const errorBody = z.object({ message: z.string().nullish(), type: z.string().nullish(), code: z.string().nullish() }).passthrough()

/** Codes that say the account or recipient cannot be paid: the person must change something. */
const INVALID_ACCOUNT_CODES = new Set([
  'invalid_bank_code',
  'bank_code_required',
  'invalid_account_number',
  'account_number_required',
  'invalid_account',
  'invalid_recipient',
  'recipient_not_found',
  'account_blocked',
  'blocked_account',
])
/** Words Paystack puts in `code` that name a family, not a cause. */
const GENERIC_CODES = new Set(['validation_error', 'processor_error', 'api_error', 'unknown'])

function refusalKind(body: z.infer<typeof errorBody> | undefined): RefusalKind {
  const code = body?.code?.toLowerCase()
  if (code === 'duplicate_reference') return 'duplicate'
  if (code === 'insufficient_balance') return 'insufficient_balance'
  if (code && INVALID_ACCOUNT_CODES.has(code)) return 'invalid_account'
  if (code && !GENERIC_CODES.has(code)) return 'unknown'
  // No code of its own: the message, as a last resort, and only for the two harmless readings.
  const message = body?.message ?? ''
  if (/duplicate.*reference/i.test(message)) return 'duplicate'
  if (/insufficient (balance|funds)|balance is not enough/i.test(message)) return 'insufficient_balance'
  return 'unknown'
}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
function retryAfterOf(header: string | null, now = Date.now()): number | null {
  if (!header) return null
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

/** Failures where the request never left this machine: no transfer can come of it. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

const envelope = <T extends z.ZodTypeAny>(data: T) => z.object({ status: z.literal(true), data }).passthrough()

function toTransfer(d: z.infer<typeof transferData>): Transfer {
  const updated = d.updatedAt ?? d.updated_at
  return {
    reference: d.reference,
    state: STATES[d.status] ?? 'pending',
    providerStatus: d.status,
    amount: d.amount,
    currency: d.currency,
    transferCode: d.transfer_code ?? null,
    sessionId: d.session?.id || null,
    updatedAt: updated && !Number.isNaN(Date.parse(updated)) ? Date.parse(updated) : null,
    fee: d.fee_charged ?? null,
  }
}

export type PaystackOptions = { secretKey: string; baseUrl: string; timeoutMs: number }

/** One request to Paystack's API with the secret key, JSON both ways, never a redirect, bounded in time. */
const send = ({ secretKey, baseUrl, timeoutMs }: PaystackOptions, method: 'GET' | 'POST', path: string, body?: unknown) =>
  fetch(baseUrl + path, {
    method,
    headers: {
      authorization: `Bearer ${secretKey}`,
      accept: 'application/json',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'error',
    signal: AbortSignal.timeout(timeoutMs),
  })

export function paystackProvider({ secretKey, baseUrl, timeoutMs }: PaystackOptions): PayoutProvider {
  /**
   * One call: the parsed body of a 2xx; ProviderRefused for a 4xx (its meaning read from `code`);
   * ProviderUnavailable for 429, 5xx, a timeout or an answer we cannot read (try again later).
   */
  async function call<T extends z.ZodTypeAny>(method: 'GET' | 'POST', path: string, schema: T, body?: unknown): Promise<z.infer<T>> {
    const what = `paystack ${method} ${path.split('?')[0]}`
    let res: Response
    let text: string
    try {
      res = await send({ secretKey, baseUrl, timeoutMs }, method, path, body)
      text = await res.text()
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError'
      const cause = (err as { cause?: { code?: unknown } }).cause?.code
      const notSent = !timedOut && typeof cause === 'string' && NOT_SENT.has(cause)
      throw new ProviderUnavailable(`${what}: ${timedOut ? 'timed out' : notSent ? 'not reached' : 'unreachable'}`, {
        transferMayExist: !notSent,
      })
    }
    const retryAfterMs = retryAfterOf(res.headers.get('retry-after'))
    // Rate limited: Paystack did not act on the request.
    if (res.status === 429) throw new ProviderUnavailable(`${what}: 429`, { retryAfterMs, transferMayExist: false })
    if (res.status >= 400 && res.status < 500) {
      let parsed: z.infer<typeof errorBody> | undefined
      try {
        const e = errorBody.safeParse(JSON.parse(text))
        parsed = e.success ? e.data : undefined
      } catch {
        parsed = undefined
      }
      const kind = refusalKind(parsed)
      throw new ProviderRefused(`${what}: ${res.status}${parsed?.code ? ` ${parsed.code}` : ''}`, res.status, {
        kind,
        // Paystack made nothing of a refusal it explains; one it does not explain may hide anything.
        transferMayExist: kind === 'duplicate' || kind === 'unknown',
      })
    }
    if (!res.ok) throw new ProviderUnavailable(`${what}: ${res.status}`, { retryAfterMs })
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new ProviderUnavailable(`${what}: an answer that is not JSON`)
    }
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new ProviderUnavailable(`${what}: an answer of another shape`)
    return parsed.data
  }

  const provider: PayoutProvider = {
    name: 'paystack',

    async resolveAccount(bankCode, accountNumber) {
      const q = new URLSearchParams({ account_number: accountNumber, bank_code: bankCode })
      try {
        const r = await call('GET', `/bank/resolve?${q}`, envelope(z.object({ account_name: z.string().min(1) }).passthrough()))
        return { accountName: r.data.account_name }
      } catch (err) {
        // 400/404/422: the bank does not know this account (Paystack answers 422 for most).
        if (err instanceof ProviderRefused && err.status !== 401 && err.status !== 403 && err.status !== 429) return null
        if (err instanceof ProviderRefused) throw new ProviderUnavailable(err.message)
        throw err
      }
    },

    async sendTransfer(order: TransferOrder) {
      let recipientCode: string
      if (order.recipientCode) recipientCode = order.recipientCode
      else
        try {
          const recipient = await call(
            'POST',
            '/transferrecipient',
            envelope(z.object({ recipient_code: z.string().min(1) }).passthrough()),
            {
              type: 'nuban',
              name: order.accountName,
              account_number: order.accountNumber,
              bank_code: order.bankCode,
              currency: order.currency,
            },
          )
          recipientCode = recipient.data.recipient_code
        } catch (err) {
          // Nothing was sent: the transfer call comes after the recipient.
          if (err instanceof ProviderRefused)
            throw new ProviderRefused(err.message, err.status, {
              kind: err.kind === 'invalid_account' ? 'invalid_account' : 'unknown',
              transferMayExist: false,
            })
          if (err instanceof ProviderUnavailable)
            throw new ProviderUnavailable(err.message, { retryAfterMs: err.retryAfterMs, transferMayExist: false })
          throw err
        }
      const sent = await call('POST', '/transfer', envelope(transferData.partial({ reference: true })), {
        source: 'balance',
        amount: order.amount,
        currency: order.currency,
        recipient: recipientCode,
        reason: order.reason,
        reference: order.reference,
      })
      return toTransfer({ ...sent.data, reference: sent.data.reference ?? order.reference })
    },

    async verifyTransfer(reference) {
      try {
        const r = await call('GET', `/transfer/verify/${encodeURIComponent(reference)}`, envelope(transferData))
        return toTransfer(r.data)
      } catch (err) {
        // Only the documented "Transfer not found" says absent; any other refusal is unknown.
        if (err instanceof ProviderRefused && err.status === 404) return null
        if (err instanceof ProviderRefused) throw new ProviderUnavailable(err.message)
        throw err
      }
    },

    async finalizeTransfer(transferCode, otp) {
      const r = await call('POST', '/transfer/finalize_transfer', envelope(transferData), { transfer_code: transferCode, otp })
      return toTransfer(r.data)
    },

    async balance(currency) {
      const r = await call('GET', '/balance', envelope(z.array(z.object({ currency: z.string(), balance: z.number() }).passthrough())))
      const mine = r.data.find((b) => b.currency === currency)
      if (!mine) throw new ProviderUnavailable(`paystack GET /balance: no ${currency} balance`)
      return mine.balance
    },

    readWebhook(rawBody, signature) {
      if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return null
      const expected = createHmac('sha512', secretKey).update(rawBody).digest()
      if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return null
      let json: unknown
      try {
        json = JSON.parse(rawBody.toString('utf8'))
      } catch {
        return { event: 'unreadable', transfer: null }
      }
      const parsed = z.object({ event: z.string().max(100), data: z.unknown() }).safeParse(json)
      if (!parsed.success) return { event: 'unreadable', transfer: null }
      const data = transferData.safeParse(parsed.data.data)
      const event: PayoutEvent = { event: parsed.data.event, transfer: data.success ? toTransfer(data.data) : null }
      return event
    },

    async listTransfers(from, to) {
      const transfers: Transfer[] = []
      const unreadable: UnreadableRow[] = []
      const page = z.object({
        status: z.literal(true),
        data: z.array(z.unknown()),
        meta: z.object({ pageCount: z.number() }).passthrough(),
      })
      for (const status of LIST_STATUSES) {
        for (let n = 1; n <= 1000; n++) {
          const q = new URLSearchParams({
            from: new Date(from).toISOString(),
            to: new Date(to).toISOString(),
            per_page: '100',
            page: String(n),
            status,
          })
          const r = await call('GET', `/transfer?${q}`, page)
          for (const row of r.data) {
            const t = transferData.safeParse(row)
            if (t.success) transfers.push(toTransfer(t.data))
            else {
              const ref = (row as { reference?: unknown } | null)?.reference
              unreadable.push({
                page: n,
                status,
                reference: typeof ref === 'string' ? ref.slice(0, 100) : null,
                problem: t.error.issues.map((i) => i.path.join('.') || 'row').join(', '),
              })
            }
          }
          if (n >= r.meta.pageCount) break
        }
      }
      return { transfers, unreadable }
    },
  }
  return provider
}

// Banks (decision 039): the bank list, name enquiry and transfer recipients, read with the error
// fields Paystack documents (`type`, `code`: validation_error, processor_error, api_error).

type PaystackAnswer = { status: number; body: unknown }

const paystackError = z.object({ status: z.literal(false), type: z.string().optional(), code: z.string().optional() }).passthrough()

const paystackBank = z
  .object({
    name: z.string().min(1),
    slug: z.string(),
    code: z.string().min(1),
    type: z.string(),
    active: z.boolean(),
    is_deleted: z.boolean().nullish(),
    currency: z.string(),
  })
  .passthrough()

export function paystackBanking({ secretKey, baseUrl, timeoutMs }: PaystackOptions): BankingProvider {
  /** Any HTTP answer with its JSON body (undefined when not JSON); ProviderUnavailable when none came. */
  async function ask(method: 'GET' | 'POST', path: string, body?: unknown): Promise<PaystackAnswer> {
    const where = `paystack ${method} ${path.split('?')[0]}`
    try {
      const res = await send({ secretKey, baseUrl, timeoutMs }, method, path, body)
      const text = await res.text()
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
      return { status: res.status, body: json }
    } catch (err) {
      throw new ProviderUnavailable(`${where}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable'}`)
    }
  }

  return {
    async listBanks(currency) {
      const out: ProviderBank[] = []
      const page = z.object({
        status: z.literal(true),
        data: z.array(z.unknown()),
        meta: z.object({ next: z.string().nullish() }).passthrough().nullish(),
      })
      let next: string | undefined
      for (let n = 0; n < 50; n++) {
        const q = new URLSearchParams({ currency, use_cursor: 'true', perPage: '100', ...(next && { next }) })
        if (currency === 'NGN') q.set('country', 'nigeria')
        const r = await ask('GET', `/bank?${q}`)
        const parsed = page.safeParse(r.body)
        if (r.status !== 200 || !parsed.success) throw new ProviderUnavailable(`paystack GET /bank: ${r.status}`)
        // A row we cannot read is left out, never fatal to the list.
        for (const row of parsed.data.data) {
          const b = paystackBank.safeParse(row)
          if (b.success && b.data.currency === currency)
            out.push({
              code: b.data.code,
              name: b.data.name.trim(),
              slug: b.data.slug,
              type: b.data.type,
              active: b.data.active && !b.data.is_deleted,
            })
        }
        next = parsed.data.meta?.next ?? undefined
        if (!next) return out
      }
      throw new ProviderUnavailable('paystack GET /bank: too many pages')
    },

    async nameEnquiry(bankCode, accountNumber) {
      let r: PaystackAnswer
      try {
        r = await ask('GET', `/bank/resolve?${new URLSearchParams({ account_number: accountNumber, bank_code: bankCode })}`)
      } catch {
        return { kind: 'bank-unreachable' }
      }
      if (r.status === 401 || r.status === 403) throw new ProviderUnavailable(`paystack GET /bank/resolve: ${r.status}`)
      if (r.status === 200) {
        const ok = envelope(z.object({ account_name: z.string().trim().min(1) }).passthrough()).safeParse(r.body)
        return ok.success ? { kind: 'named', accountName: ok.data.data.account_name } : { kind: 'bank-unreachable' }
      }
      const err = paystackError.safeParse(r.body)
      if ([400, 404, 422].includes(r.status) && err.success) {
        const tags = [err.data.type, err.data.code]
        // The processor (NIBSS, the bank) did not answer: nothing is known of the account.
        if (tags.includes('processor_error') || tags.includes('api_error')) return { kind: 'bank-unreachable' }
        return { kind: 'no-such-account' }
      }
      // 429, 5xx and answers we cannot read.
      return { kind: 'bank-unreachable' }
    },

    async createRecipient(order) {
      const r = await ask('POST', '/transferrecipient', {
        type: 'nuban',
        name: order.accountName,
        account_number: order.accountNumber,
        bank_code: order.bankCode,
        currency: order.currency,
      })
      const ok = envelope(z.object({ recipient_code: z.string().min(1) }).passthrough()).safeParse(r.body)
      if (r.status >= 200 && r.status < 300 && ok.success) return ok.data.data.recipient_code
      if (r.status >= 400 && r.status < 500 && r.status !== 429 && paystackError.safeParse(r.body).success)
        throw new ProviderRefused(`paystack POST /transferrecipient: ${r.status}`, r.status)
      throw new ProviderUnavailable(`paystack POST /transferrecipient: ${r.status}`)
    },
  }
}
