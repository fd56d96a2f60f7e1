import { describe, expect, it } from 'vitest'
import { formatRate, parseRate, type Rate } from '#contract/catalogue'
import { Code } from '#contract/envelope'
import { reviewDeskApi } from '#contract/ops/review'
import { Refusals } from '#contract/refusals'
import { loadConfig } from '../../api/config'
import { useTestApi } from '../support/kit'
import { bearer, seedStaff } from '../support/staff'

/** A rate typo cannot go live (decision 041): a confirmation step, then a second admin. */
const api = useTestApi({ web: false })
const env = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv

type Key = { brandId: string; country: string; cardType: 'ecode' | 'physical' }

async function rateOf(key: Key): Promise<string> {
  const q = new URLSearchParams(key)
  return (await api.get<Rate[]>(`/v1/giftcard/rates?${q}`)).body.data[0]!.rate
}

/** What the public sell page quotes for a 100 card. */
async function quote100(key: Key): Promise<number> {
  const q = new URLSearchParams({ ...key, faceValue: '10000' })
  return (await api.get<{ payout: number }>(`/v1/giftcard/quote?${q}`)).body.data.payout
}

const times = (rate: string, factor: number) => formatRate(Math.round((parseRate(rate)! * factor) / 1_000_000) * 1_000_000)

async function adminOf(options: { createdBy?: string } = {}) {
  const s = await seedStaff(api, { role: 'admin', ...options })
  const headers = bearer(s.token)
  return {
    actor: `staff:${s.email}`,
    email: s.email,
    set: (key: Key, rate: string, confirmed?: boolean) =>
      api.post('/admin/giftcard/rate', { ...key, rate, ...(confirmed !== undefined && { confirmed }) }, { headers }),
    pending: async () =>
      reviewDeskApi.pendingRateChanges.data.parse((await api.get('/admin/giftcard/rate/pending', { headers })).body.data),
    approve: (id: string) => api.post('/admin/giftcard/rate/approve', { id }, { headers }),
    decline: (id: string) => api.post('/admin/giftcard/rate/decline', { id }, { headers }),
    disable: (email: string) => api.post('/admin/staff/disable', { email }, { headers }),
  }
}

const requestOf = (res: { body: { data: unknown } }) => {
  const data = reviewDeskApi.setRate.data.parse(res.body.data)
  if (!('type' in data)) throw new Error(`expected a request, got ${JSON.stringify(data)}`)
  return data
}

describe('a rate far from the one in force', () => {
  it('typing 11780 for 1178.00: refused without the confirmation step, then waits for a second admin; the quote never moves alone', async () => {
    const key: Key = { brandId: 'apple', country: 'US', cardType: 'ecode' }
    const [maker, checker] = [await adminOf(), await adminOf()]
    const before = await rateOf(key)
    const quoted = await quote100(key)
    const typo = times(before, 10)

    const refused = await maker.set(key, typo)
    expect(refused.body.code).toBe(Refusals.RATE_CHANGE_UNCONFIRMED.code)
    expect(refused.body.msg).toBe(`The new rate is +900.00 % from the rate in force (${before}): confirm it`)
    expect(await quote100(key)).toBe(quoted)

    const asked = requestOf(await maker.set(key, typo, true))
    expect(asked).toMatchObject({ status: 'pending', before, rate: typo, changePercent: 900, maker: maker.actor, brandName: 'Apple' })
    expect(await quote100(key)).toBe(quoted)
    expect((await checker.pending()).map((r) => r.id)).toContain(asked.id)
    expect((await maker.approve(asked.id)).body).toMatchObject(Refusals.RATE_CHANGE_OWN)
    expect(await rateOf(key)).toBe(before)

    const approved = await checker.approve(asked.id)
    expect(reviewDeskApi.approveRateChange.data.parse(approved.body.data).rate).toBe(typo)
    expect(await quote100(key)).toBe(quoted * 10)
    // Approved again: the same rate, no second row in the history.
    expect((await checker.approve(asked.id)).body.code).toBe(Code.OK)
    const rows = await api.db
      .selectFrom('gift_card_rates')
      .select('rate_micro')
      .where('brand_id', '=', 'apple')
      .where('country', '=', 'US')
      .where('card_type', '=', 'ecode')
      .where('rate_micro', '=', parseRate(typo)!)
      .execute()
    expect(rows).toHaveLength(1)
    const log = await api.db.selectFrom('audit_log').selectAll().where('action', '=', 'rate.set').where('actor', '=', maker.actor).execute()
    expect(JSON.parse(log.at(-1)!.after_json!)).toMatchObject({ rate: typo, maker: maker.actor, checker: checker.actor })
  })

  it('within 20 % at once; from 20 % to 50 % after the confirmation step; a decrease too', async () => {
    const key: Key = { brandId: 'steam', country: 'US', cardType: 'ecode' }
    const admin = await adminOf()
    const start = await rateOf(key)
    const small = times(start, 1.15)
    expect(reviewDeskApi.setRate.data.parse((await admin.set(key, small)).body.data)).toMatchObject({ rate: small })
    const larger = times(small, 1.4)
    expect((await admin.set(key, larger)).body.code).toBe(Refusals.RATE_CHANGE_UNCONFIRMED.code)
    expect((await admin.set(key, larger, false)).body.code).toBe(Refusals.RATE_CHANGE_UNCONFIRMED.code)
    expect(reviewDeskApi.setRate.data.parse((await admin.set(key, larger, true)).body.data)).toMatchObject({ rate: larger })
    // A fall to a tenth (117.80 for 1178.00) is as much a typo.
    const fallen = times(larger, 0.1)
    expect((await admin.set(key, fallen)).body.code).toBe(Refusals.RATE_CHANGE_UNCONFIRMED.code)
    expect(requestOf(await admin.set(key, fallen, true)).changePercent).toBeCloseTo(-90, 0)
    expect(await rateOf(key)).toBe(larger)
  })

  it('the checker rules of adjustments: not the maker’s own account, not unconfirmed, and a request lapses with its maker', async () => {
    const key: Key = { brandId: 'xbox', country: 'US', cardType: 'physical' }
    const maker = await adminOf()
    const sock = await adminOf({ createdBy: maker.actor })
    const fresh = await seedStaff(api, { role: 'admin', confirmed: false })
    const before = await rateOf(key)
    const asked = requestOf(await maker.set(key, times(before, 3), true))
    expect((await sock.approve(asked.id)).body).toMatchObject(Refusals.CHECKER_LINKED)
    expect((await api.post('/admin/giftcard/rate/approve', { id: asked.id }, { headers: bearer(fresh.token) })).body).toMatchObject(
      Refusals.CHECKER_NOT_CONFIRMED,
    )
    const other = await adminOf()
    expect((await other.decline(asked.id)).body.data).toMatchObject({ status: 'declined', checker: other.actor })
    expect((await other.approve(asked.id)).body).toMatchObject(Refusals.RATE_CHANGE_NOT_PENDING)

    const again = requestOf(await maker.set(key, times(before, 3), true))
    expect((await other.disable(maker.email)).body.code).toBe(Code.OK)
    expect((await other.pending()).map((r) => r.id)).not.toContain(again.id)
    expect((await other.approve(again.id)).body).toMatchObject(Refusals.RATE_CHANGE_NOT_PENDING)
    expect(await rateOf(key)).toBe(before)
  })

  it('the two thresholds are settings', () => {
    expect(loadConfig(env({})).rateChecks).toEqual({ confirmPercent: 20, approvalPercent: 50 })
    expect(loadConfig(env({ RATE_CONFIRM_CHANGE: '10', RATE_APPROVAL_CHANGE: '30' })).rateChecks).toEqual({
      confirmPercent: 10,
      approvalPercent: 30,
    })
    expect(() => loadConfig(env({ RATE_CONFIRM_CHANGE: '0' }))).toThrow(/RATE_CONFIRM_CHANGE/)
    expect(() => loadConfig(env({ RATE_APPROVAL_CHANGE: 'half' }))).toThrow(/RATE_APPROVAL_CHANGE/)
  })
})
