import { createHmac, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import {
  ProviderRefused,
  ProviderUnavailable,
  type PayoutEvent,
  type PayoutProvider,
  type Transfer,
  type TransferOrder,
  type TransferState,
} from './provider'

/**
 * Paystack's Transfers API in its wire format (decision 019: a small client over fetch, no SDK):
 * `GET /bank/resolve`, `POST /transferrecipient`, `POST /transfer` with our reference,
 * `GET /transfer/verify/:reference`, `GET /transfer`, and webhooks signed with HMAC-SHA512 of the
 * raw body under the secret key (`x-paystack-signature`). Only HTTP statuses and `status` fields
 * decide anything; Paystack's `message` texts change and are never compared.
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
  })
  .passthrough()

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
  }
}

export type PaystackOptions = { secretKey: string; baseUrl: string; timeoutMs: number }

export function paystackProvider({ secretKey, baseUrl, timeoutMs }: PaystackOptions): PayoutProvider {
  /** One call: the parsed body of a 2xx; ProviderRefused for a 4xx; ProviderUnavailable otherwise. */
  async function call<T extends z.ZodTypeAny>(method: 'GET' | 'POST', path: string, schema: T, body?: unknown): Promise<z.infer<T>> {
    let res: Response
    let text: string
    try {
      res = await fetch(baseUrl + path, {
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
      text = await res.text()
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError'
      throw new ProviderUnavailable(`paystack ${method} ${path.split('?')[0]}: ${timedOut ? 'timed out' : 'unreachable'}`)
    }
    if (res.status >= 400 && res.status < 500)
      throw new ProviderRefused(`paystack ${method} ${path.split('?')[0]}: ${res.status}`, res.status)
    if (!res.ok) throw new ProviderUnavailable(`paystack ${method} ${path.split('?')[0]}: ${res.status}`)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new ProviderUnavailable(`paystack ${method} ${path.split('?')[0]}: an answer that is not JSON`)
    }
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new ProviderUnavailable(`paystack ${method} ${path.split('?')[0]}: an answer of another shape`)
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
      const recipient = await call('POST', '/transferrecipient', envelope(z.object({ recipient_code: z.string().min(1) }).passthrough()), {
        type: 'nuban',
        name: order.accountName,
        account_number: order.accountNumber,
        bank_code: order.bankCode,
        currency: order.currency,
      })
      const sent = await call('POST', '/transfer', envelope(transferData.partial({ reference: true })), {
        source: 'balance',
        amount: order.amount,
        currency: order.currency,
        recipient: recipient.data.recipient_code,
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
        if (err instanceof ProviderRefused && (err.status === 404 || err.status === 400)) return null
        if (err instanceof ProviderRefused) throw new ProviderUnavailable(err.message)
        throw err
      }
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
      const out: Transfer[] = []
      const page = z.object({
        status: z.literal(true),
        data: z.array(transferData),
        meta: z.object({ pageCount: z.number() }).passthrough(),
      })
      for (let n = 1; n <= 1000; n++) {
        const q = new URLSearchParams({
          from: new Date(from).toISOString(),
          to: new Date(to).toISOString(),
          perPage: '100',
          page: String(n),
        })
        const r = await call('GET', `/transfer?${q}`, page)
        out.push(...r.data.map(toTransfer))
        if (n >= r.meta.pageCount) break
      }
      return out
    },
  }
  return provider
}
