import { createHmac, randomBytes, randomInt } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import committedBanks from '../../api/lib/banks-ng.json'

/**
 * A local Paystack for tests: the Transfers API in its wire format (paths, fields, envelopes
 * `{status, message, data}`, status codes) and webhooks signed the way Paystack signs them
 * (HMAC-SHA512 of the raw body with the secret key, hex, in `x-paystack-signature`). Told what to
 * do next, it answers slowly, times out, fails with a 5xx, accepts then fails, succeeds then
 * reverses, sends a webhook twice, out of order or before the transfer call answers, and
 * resolves an account to a given name or refuses it. Like Paystack, it refuses a transfer
 * reference it has already seen, so `transferCalls` shows every attempt and `transfers` what exists.
 * As strict as Paystack's documentation (decision 038): creating a recipient for an account the
 * bank does not know fails; a transfer takes its amount and fee from a balance that can run out
 * (`insufficient_balance`); the list pages by `per_page` and filters by `status` (default
 * `pending`); `otp` waits for `finalize_transfer`; verify may answer "not found" for a while after
 * a transfer is made (`verifyLagMs`); a call may be rate limited (429 with Retry-After) or refused
 * with an error `code`; a transfer may be reversed without a prior success, or abandoned.
 */

export const FAKE_PAYSTACK_SECRET = 'sk_test_fake0123456789abcdef0123456789abcdef'

export type FakeTransfer = {
  id: number
  reference: string
  transfer_code: string
  amount: number
  currency: string
  reason: string
  status: string
  recipient: { recipient_code: string; name: string; account_number: string; bank_code: string }
  session: { provider: string | null; id: string | null }
  createdAt: string
  updatedAt: string
}

/** What one call does instead of answering at once. */
export type Trouble =
  | { kind: 'slow'; ms: number }
  /** Holds the call until the client gives up; `after`: the transfer is made first (the answer is lost). */
  | { kind: 'timeout'; after?: boolean }
  | { kind: '5xx'; status?: number }
  /** Rate limited: 429 with Retry-After (seconds). */
  | { kind: '429'; retryAfter?: number }
  /** A 4xx refusal in Paystack's error shape (`type`, `code`); nothing is made. */
  | { kind: 'refuse'; status?: number; code?: string; message?: string }

type Route = 'resolve' | 'recipient' | 'transfer' | 'verify' | 'list' | 'balance' | 'finalize'

/** Paystack's NGN transfer fees (kobo) by amount. */
export const feeOf = (amount: number) => (amount <= 500_000 ? 1_000 : amount <= 5_000_000 ? 2_500 : 5_000)

export type FakePaystack = {
  url: string
  secret: string
  /** Where webhooks go (the api's, or the web's public one). */
  webhookUrl: string | undefined
  /** Existing transfers by reference. */
  transfers: Map<string, FakeTransfer>
  /** Every POST /transfer: its reference and whether it made a transfer. */
  transferCalls: { reference: string; made: boolean }[]
  /** Every call: its route and, for transfers and verifies, the reference; for lists, the query. */
  calls: { route: Route; at: number; reference?: string; query?: string }[]
  /** The business's NGN balance (kobo): each transfer takes its amount and fee; failed and reversed ones give them back. */
  balance: number
  /** Verify answers "Transfer not found" for this long after a transfer is made (read-after-write lag). */
  verifyLagMs: number
  /** The OTP finalize_transfer takes. */
  otp: string
  /** Rows of another shape the list adds to its first page of `pending` (a row a client cannot read). */
  listJunk: unknown[]
  /** How POST /transfer answers: `pending` (default), `otp`, or `success` straight away. */
  answerWith: 'pending' | 'otp' | 'success'
  /** Sends transfer.success before answering POST /transfer (the webhook overtakes the answer). */
  webhookBeforeAnswer: boolean
  /** The next calls of a route get these troubles, one each, in order. */
  trouble(route: Route, ...troubles: Trouble[]): void
  /** The same, for the calls about one transfer reference only (they come first). */
  troubleFor(reference: string, route: Route, ...troubles: Trouble[]): void
  /** Account holder names by `${bankCode}:${accountNumber}`; `null` refuses the account. Default: ADAEZE OBI. */
  accounts: Map<string, string | null>
  /** Moves a transfer and (unless `webhooks: 0`) sends its webhook `webhooks` times (default 1; `abandoned`: none, Paystack only lists it). */
  settle(reference: string, status: 'success' | 'failed' | 'reversed' | 'abandoned', opts?: { webhooks?: number }): Promise<number[]>
  /** Signs and posts an event to webhookUrl; answers the HTTP status. `signature` overrides the real one. */
  sendWebhook(event: string, data: unknown, opts?: { signature?: string | null; raw?: string }): Promise<number>
  webhookBody(event: string, reference: string, status?: string): { event: string; data: Record<string, unknown> }
  close(): Promise<void>
  // Banks (decision 039).
  /** What `GET /bank` lists (default: the committed NGN list, as Paystack's objects). */
  banks: FakeBank[]
  /** The query of every `GET /bank`. */
  bankListCalls: URLSearchParams[]
  /** Bank codes whose bank does not answer name enquiry (Paystack's processor error). */
  unreachableBanks: Set<string>
}

/** A bank as Paystack's `GET /bank` answers it (MiscellaneousListBanksResponseArray). */
export type FakeBank = {
  id: number
  name: string
  slug: string
  code: string
  longcode: string
  gateway: string | null
  pay_with_bank: boolean
  supports_transfer: boolean
  available_for_direct_debit: boolean
  active: boolean
  is_deleted: boolean | null
  country: string
  currency: string
  type: string
  createdAt: string
  updatedAt: string
}

export function fakeBank(name: string, code: string, extra: Partial<FakeBank> = {}): FakeBank {
  return {
    id: Number.parseInt(code, 36) % 100_000,
    name,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    code,
    longcode: '',
    gateway: null,
    pay_with_bank: false,
    supports_transfer: true,
    available_for_direct_debit: false,
    active: true,
    is_deleted: false,
    country: 'Nigeria',
    currency: 'NGN',
    type: 'nuban',
    createdAt: '2016-07-14T10:04:29.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...extra,
  }
}

/**
 * `GET /bank` and name enquiry's stricter answers, in one block. `GET /bank` filters by `country`
 * and `currency` (a value outside Paystack's enums is a 400), pages by `perPage` (default 50, at
 * most 100) and `page`, or with `use_cursor=true` by the `next` cursor in `meta`. Name enquiry
 * needs both parameters (400), knows only listed bank codes (422 invalid_bank_code), and a bank
 * in `unreachableBanks` answers Paystack's processor error. Answers true when it answered.
 */
function bankRoutes(fake: FakePaystack, url: URL, res: ServerResponse): boolean {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
    res.end(JSON.stringify(body))
    return true
  }
  const q = url.searchParams
  if (url.pathname === '/bank') {
    fake.bankListCalls.push(new URLSearchParams(q))
    const country = q.get('country')
    const currency = q.get('currency')
    const perPageRaw = q.get('perPage')
    if (
      (country !== null && !['ghana', 'kenya', 'nigeria', 'south africa'].includes(country)) ||
      (currency !== null && !['GHS', 'KES', 'NGN', 'ZAR'].includes(currency)) ||
      (perPageRaw !== null && !/^\d+$/.test(perPageRaw))
    )
      return send(400, { status: false, message: 'Invalid query', type: 'validation_error', code: 'invalid_params' })
    const countryOf: Record<string, string> = { ghana: 'Ghana', kenya: 'Kenya', nigeria: 'Nigeria', 'south africa': 'South Africa' }
    const all = fake.banks.filter((b) => (!country || b.country === countryOf[country]) && (!currency || b.currency === currency))
    const perPage = Math.min(100, Math.max(1, Number(perPageRaw ?? 50)))
    if (q.get('use_cursor') === 'true') {
      const start = q.get('next') ? Number(Buffer.from(q.get('next')!, 'base64url').toString()) : 0
      if (!Number.isInteger(start) || start < 0) return send(400, { status: false, message: 'Invalid cursor', type: 'validation_error' })
      const data = all.slice(start, start + perPage)
      const next = start + perPage < all.length ? Buffer.from(String(start + perPage)).toString('base64url') : null
      const previous = start > 0 ? Buffer.from(String(Math.max(0, start - perPage))).toString('base64url') : null
      return send(200, { status: true, message: 'Banks retrieved', data, meta: { next, previous, perPage } })
    }
    const page = Math.max(1, Number(q.get('page') ?? 1) || 1)
    return send(200, { status: true, message: 'Banks retrieved', data: all.slice((page - 1) * perPage, page * perPage) })
  }
  if (url.pathname === '/bank/resolve') {
    const acct = q.get('account_number')
    const bank = q.get('bank_code')
    if (!acct || !bank) return send(400, { status: false, message: 'Account number and bank code are required', type: 'validation_error' })
    if (!fake.banks.some((b) => b.code === bank && b.currency === 'NGN'))
      return send(422, { status: false, message: `Unknown bank code: ${bank}`, type: 'validation_error', code: 'invalid_bank_code' })
    if (fake.unreachableBanks.has(bank))
      return send(400, {
        status: false,
        message: 'Could not resolve account name. Bank is not available',
        type: 'api_error',
        code: 'processor_error',
      })
  }
  return false
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(body))
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (s += c))
    req.on('end', () => resolve(s))
  })

const code = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex').slice(0, 15)}`
const nipSession = () => Array.from({ length: 30 }, () => randomInt(0, 10)).join('')

export async function startFakePaystack(options: { secret?: string } = {}): Promise<FakePaystack> {
  const secret = options.secret ?? FAKE_PAYSTACK_SECRET
  const troubles = new Map<string, Trouble[]>()
  const hanging = new Set<ServerResponse>()
  let nextId = 1000
  const recipients = new Map<string, { bank_code: string; account_number: string; name: string }>()
  const fake = {} as FakePaystack

  const publicTransfer = (t: FakeTransfer) => ({
    amount: t.amount,
    createdAt: t.createdAt,
    currency: t.currency,
    domain: 'test',
    failures: null,
    fee_charged: feeOf(t.amount),
    id: t.id,
    integration: 100073,
    reason: t.reason,
    reference: t.reference,
    source: 'balance',
    source_details: null,
    status: t.status,
    titan_code: null,
    transfer_code: t.transfer_code,
    transferred_at: t.status === 'success' ? t.updatedAt : null,
    updatedAt: t.updatedAt,
    recipient: {
      active: true,
      currency: t.currency,
      domain: 'test',
      name: t.recipient.name,
      recipient_code: t.recipient.recipient_code,
      type: 'nuban',
      details: {
        authorization_code: null,
        account_number: t.recipient.account_number,
        account_name: t.recipient.name,
        bank_code: t.recipient.bank_code,
      },
    },
    session: t.session,
  })

  const webhookBody = (event: string, reference: string, status = event.split('.')[1]) => {
    const t = fake.transfers.get(reference)
    const base = t
      ? publicTransfer(t)
      : { reference, amount: 0, currency: 'NGN', transfer_code: code('TRF'), session: { provider: null, id: null } }
    const { createdAt, updatedAt, ...rest } = base as Record<string, unknown>
    return {
      event,
      data: {
        ...rest,
        status,
        integration: { id: 100073, is_live: false, business_name: 'Cardlane' },
        created_at: createdAt ?? new Date().toISOString(),
        updated_at: updatedAt ?? new Date().toISOString(),
      },
    }
  }

  async function sendWebhook(event: string, data: unknown, opts: { signature?: string | null; raw?: string } = {}) {
    if (!fake.webhookUrl) throw new Error('fake paystack: no webhookUrl')
    const body = opts.raw ?? JSON.stringify(data === undefined ? { event } : { event, data })
    const signature = opts.signature === undefined ? createHmac('sha512', secret).update(body).digest('hex') : opts.signature
    const res = await fetch(fake.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature !== null && { 'x-paystack-signature': signature }) },
      body,
    })
    await res.text()
    return res.status
  }

  /** Applies the next trouble of a route; true when the call must not be answered normally. */
  async function troubled(route: Route, res: ServerResponse, beforeHang?: () => void, reference?: string): Promise<boolean> {
    const own = reference === undefined ? undefined : troubles.get(`${route}:${reference}`)
    const t = own?.length ? own.shift() : troubles.get(route)?.shift()
    if (!t) return false
    if (t.kind === 'slow') {
      await new Promise((r) => setTimeout(r, t.ms))
      return false
    }
    if (t.kind === '5xx') {
      json(res, t.status ?? 500, { status: false, message: 'An error occurred' })
      return true
    }
    if (t.kind === '429') {
      res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(t.retryAfter ?? 30) })
      res.end(JSON.stringify({ status: false, message: 'Too many requests' }))
      return true
    }
    if (t.kind === 'refuse') {
      json(res, t.status ?? 400, {
        status: false,
        message: t.message ?? 'The request could not be completed',
        type: 'validation_error',
        ...(t.code && { code: t.code }),
      })
      return true
    }
    if (t.after) beforeHang?.()
    hanging.add(res)
    return true
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake')
    const body = req.method === 'POST' ? await readBody(req) : ''
    if (req.headers.authorization !== `Bearer ${secret}`) return json(res, 401, { status: false, message: 'Invalid key' })
    if (req.method === 'GET' && (url.pathname !== '/bank/resolve' || !troubles.get('resolve')?.length) && bankRoutes(fake, url, res)) return
    const path = url.pathname
    const route: Route | undefined =
      path === '/bank/resolve'
        ? 'resolve'
        : path === '/transferrecipient'
          ? 'recipient'
          : path === '/transfer' && req.method === 'POST'
            ? 'transfer'
            : path.startsWith('/transfer/verify/')
              ? 'verify'
              : path === '/transfer'
                ? 'list'
                : path === '/balance'
                  ? 'balance'
                  : path === '/transfer/finalize_transfer' && req.method === 'POST'
                    ? 'finalize'
                    : undefined
    if (!route) return json(res, 404, { status: false, message: 'Not found' })
    const reference =
      route === 'verify'
        ? decodeURIComponent(path.slice('/transfer/verify/'.length))
        : route === 'transfer'
          ? String(JSON.parse(body).reference)
          : undefined
    fake.calls.push({ route, at: Date.now(), reference, ...(route === 'list' && { query: url.search }) })

    if (route === 'balance') {
      if (await troubled(route, res)) return
      return json(res, 200, {
        status: true,
        message: 'Balances retrieved',
        data: [{ currency: 'NGN', balance: fake.balance }],
      })
    }

    if (route === 'finalize') {
      if (await troubled(route, res)) return
      const b = JSON.parse(body)
      const t = [...fake.transfers.values()].find((x) => x.transfer_code === b.transfer_code)
      if (!t) return json(res, 404, { status: false, message: 'Transfer not found' })
      if (t.status !== 'otp')
        return json(res, 400, {
          status: false,
          message: 'Transfer is not currently awaiting OTP',
          type: 'validation_error',
          code: 'transfer_not_awaiting_otp',
        })
      if (String(b.otp) !== fake.otp)
        return json(res, 400, { status: false, message: 'Invalid OTP', type: 'validation_error', code: 'invalid_otp' })
      t.status = 'pending'
      t.updatedAt = new Date().toISOString()
      return json(res, 200, { status: true, message: 'Transfer has been queued', data: publicTransfer(t) })
    }

    if (route === 'resolve') {
      if (await troubled(route, res)) return
      const acct = url.searchParams.get('account_number') ?? ''
      const bank = url.searchParams.get('bank_code') ?? ''
      const name = fake.accounts.has(`${bank}:${acct}`) ? fake.accounts.get(`${bank}:${acct}`) : 'ADAEZE OBI'
      if (!/^\d{10}$/.test(acct) || name === null) {
        return json(res, 422, {
          status: false,
          message: 'Could not resolve account name. Check parameters or try again.',
          type: 'validation_error',
          code: 'invalid_bank_code',
        })
      }
      return json(res, 200, {
        status: true,
        message: 'Account number resolved',
        data: { account_number: acct, account_name: name, bank_id: 9 },
      })
    }

    if (route === 'recipient') {
      if (await troubled(route, res)) return
      const b = JSON.parse(body)
      // Paystack checks a nuban recipient's account with the bank before creating it.
      if (!/^\d{10}$/.test(String(b.account_number)) || fake.accounts.get(`${b.bank_code}:${b.account_number}`) === null)
        return json(res, 400, {
          status: false,
          message: 'Cannot resolve account',
          type: 'validation_error',
          code: 'invalid_account_number',
        })
      const now = new Date().toISOString()
      // Paystack answers the same recipient for an account it knows.
      const recipientCode = `RCP_${b.bank_code}${b.account_number}`
      recipients.set(recipientCode, { bank_code: String(b.bank_code), account_number: String(b.account_number), name: String(b.name) })
      return json(res, 201, {
        status: true,
        message: 'Transfer recipient created successfully',
        data: {
          active: true,
          createdAt: now,
          currency: b.currency,
          domain: 'test',
          id: nextId++,
          integration: 100073,
          name: b.name,
          recipient_code: recipientCode,
          type: b.type,
          updatedAt: now,
          is_deleted: false,
          details: {
            authorization_code: null,
            account_number: b.account_number,
            account_name: b.name,
            bank_code: b.bank_code,
            bank_name: 'Bank',
          },
        },
      })
    }

    if (route === 'transfer') {
      const b = JSON.parse(body)
      const make = () => {
        const to = recipients.get(String(b.recipient))
        if (fake.transfers.has(b.reference) || !to) return undefined
        const now = new Date().toISOString()
        const t: FakeTransfer = {
          id: nextId++,
          reference: b.reference,
          transfer_code: code('TRF'),
          amount: b.amount,
          currency: b.currency ?? 'NGN',
          reason: b.reason ?? '',
          status: fake.answerWith,
          recipient: { recipient_code: b.recipient, name: 'ADAEZE OBI', account_number: to.account_number, bank_code: to.bank_code },
          session: fake.answerWith === 'success' ? { provider: 'nip', id: nipSession() } : { provider: null, id: null },
          createdAt: now,
          updatedAt: now,
        }
        fake.transfers.set(b.reference, t)
        fake.balance -= t.amount + feeOf(t.amount)
        return t
      }
      const first = troubles.get(`${route}:${b.reference}`)?.[0] ?? troubles.get(route)?.[0]
      const lostAnswer = first?.kind === 'timeout' && first.after === true
      if (await troubled(route, res, () => fake.transferCalls.push({ reference: b.reference, made: !!make() }), b.reference)) {
        if (!lostAnswer) fake.transferCalls.push({ reference: b.reference, made: false })
        return
      }
      if (typeof b.reference !== 'string' || !/^[a-z0-9_-]{16,50}$/.test(b.reference)) {
        return json(res, 400, { status: false, message: 'Invalid reference', type: 'validation_error' })
      }
      // Paystack pays only a recipient it made.
      if (!recipients.has(String(b.recipient))) {
        fake.transferCalls.push({ reference: b.reference, made: false })
        return json(res, 400, {
          status: false,
          message: 'Recipient specified is invalid',
          type: 'validation_error',
          code: 'invalid_recipient',
        })
      }
      if (!fake.transfers.has(b.reference) && Number(b.amount) + feeOf(Number(b.amount)) > fake.balance) {
        fake.transferCalls.push({ reference: b.reference, made: false })
        return json(res, 400, {
          status: false,
          message: 'Your balance is not enough to fulfil this request',
          type: 'validation_error',
          code: 'insufficient_balance',
        })
      }
      const t = make()
      fake.transferCalls.push({ reference: b.reference, made: !!t })
      if (!t)
        return json(res, 400, {
          status: false,
          message: 'Duplicate Transfer Reference',
          type: 'validation_error',
          code: 'duplicate_reference',
        })
      if (fake.webhookBeforeAnswer) {
        t.status = 'success'
        t.session = { provider: 'nip', id: nipSession() }
        await sendWebhook('transfer.success', webhookBody('transfer.success', t.reference).data)
        t.status = 'pending'
      }
      const { recipient: _r, session: _s, ...answer } = publicTransfer(t)
      return json(res, 200, {
        status: true,
        message: t.status === 'otp' ? 'Transfer requires OTP to continue' : 'Transfer has been queued',
        data: { ...answer, recipient: nextId, transfersessionid: [], transfertrials: [] },
      })
    }

    if (route === 'verify') {
      if (await troubled(route, res, undefined, reference)) return
      const t = fake.transfers.get(decodeURIComponent(path.slice('/transfer/verify/'.length)))
      if (!t || Date.now() - Date.parse(t.createdAt) < fake.verifyLagMs)
        return json(res, 404, { status: false, message: 'Transfer not found' })
      return json(res, 200, { status: true, message: 'Transfer retrieved', data: publicTransfer(t) })
    }

    // list
    if (await troubled(route, res)) return
    const from = Date.parse(url.searchParams.get('from') ?? '1970-01-01')
    const to = Date.parse(url.searchParams.get('to') ?? '2999-01-01')
    // The documented names only: `per_page` (default 50), and `status` whose default is `pending`.
    const perPage = Number(url.searchParams.get('per_page') ?? 50)
    const page = Number(url.searchParams.get('page') ?? 1)
    const status = url.searchParams.get('status') ?? 'pending'
    const all: unknown[] = [...fake.transfers.values()]
      .filter((t) => Date.parse(t.createdAt) >= from && Date.parse(t.createdAt) <= to && t.status === status)
      .map(publicTransfer)
    if (status === 'pending') all.unshift(...fake.listJunk)
    return json(res, 200, {
      status: true,
      message: 'Transfers retrieved',
      data: all.slice((page - 1) * perPage, page * perPage),
      meta: { total: all.length, skipped: (page - 1) * perPage, perPage, page, pageCount: Math.max(1, Math.ceil(all.length / perPage)) },
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))

  Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    secret,
    webhookUrl: undefined,
    transfers: new Map(),
    transferCalls: [],
    calls: [],
    answerWith: 'pending',
    webhookBeforeAnswer: false,
    accounts: new Map(),
    banks: committedBanks.map((b) => fakeBank(b.name, b.code, { slug: b.slug })),
    bankListCalls: [],
    unreachableBanks: new Set(),
    balance: 1e13,
    verifyLagMs: 0,
    otp: '123456',
    listJunk: [],
    trouble(route: Route, ...list: Trouble[]) {
      troubles.set(route, [...(troubles.get(route) ?? []), ...list])
    },
    troubleFor(reference: string, route: Route, ...list: Trouble[]) {
      troubles.set(`${route}:${reference}`, [...(troubles.get(`${route}:${reference}`) ?? []), ...list])
    },
    async settle(reference: string, status: 'success' | 'failed' | 'reversed' | 'abandoned', opts: { webhooks?: number } = {}) {
      const t = fake.transfers.get(reference)
      if (!t) throw new Error(`fake paystack: no transfer ${reference}`)
      // The money comes back to the balance once, when the transfer ends without reaching the bank.
      const ended = (x: string) => x === 'failed' || x === 'reversed' || x === 'abandoned'
      if (ended(status) && !ended(t.status)) fake.balance += t.amount + feeOf(t.amount)
      t.status = status
      if (status === 'abandoned') return []
      t.updatedAt = new Date().toISOString()
      if (status !== 'failed' && !t.session.id) t.session = { provider: 'nip', id: nipSession() }
      const out: number[] = []
      for (let i = 0; i < (opts.webhooks ?? 1); i++)
        out.push(await sendWebhook(`transfer.${status}`, webhookBody(`transfer.${status}`, reference).data))
      return out
    },
    sendWebhook,
    webhookBody,
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  } satisfies Partial<FakePaystack>)
  return fake
}
