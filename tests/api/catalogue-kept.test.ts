import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GiftCard, GiftCardCatalogue, Rate } from '#contract/catalogue'
import type { UserIndexData } from '#contract/profile'
import { startApi, type RunningApi } from '../../api/server'
import { useSellingApi } from '../support/selling'
import { admin, walletUser } from '../support/wallet'

/**
 * The api keeps its reading of the catalogue (decision 069) while the catalogue's version, read
 * beside each call's other data, is the one it was read at and the clock has not reached a rate's
 * next change. A rate written by anyone — this api, another instance, a row written straight into
 * the database — and a rate coming into force or dropping out of "a day ago" shows at the next call.
 */
const api = useSellingApi()
let second: RunningApi

beforeAll(async () => {
  second = await startApi({
    env: {} as NodeJS.ProcessEnv,
    databaseUrl: api.deps.config.databaseUrl,
    port: 0,
    host: '127.0.0.1',
    logger: pino({ level: 'silent' }),
    now: api.clock.now,
    housekeeping: false,
    payoutWorker: false,
    hashCost: 'test',
    migrate: false,
  })
})
afterAll(async () => {
  await second?.close()
})

const HOUR = 3_600_000
const DAY = 24 * HOUR
const catalogueStatements = (from: number) => api.queries.slice(from).filter((q) => /gift_card_/.test(q))

async function index(token: string) {
  const from = api.queryCount()
  const res = await api.get<UserIndexData>('/v1/user/index', { token })
  expect(res.body.code).toBe(200)
  return { data: res.body.data, catalogue: catalogueStatements(from) }
}

const bestOf = (cards: GiftCard[], brandId: string) => cards.find((c) => c.brandId === brandId)?.bestRate
/** A rate written straight into the database, as a script or a test does: not through the api. */
const writeRate = (brandId: string, country: string, cardType: string, rate: number, setAt: number) =>
  api.db
    .insertInto('gift_card_rates')
    .values({ brand_id: brandId, country, card_type: cardType, rate_micro: rate * 1_000_000, set_at: setAt, set_by: 'test' })
    .execute()

async function board(base: string) {
  const res = await fetch(`${base}/v1/giftcard/catalogue?_t=${Date.now()}`, { headers: { clientType: 'h5' } })
  const body = (await res.json()) as { code: number; data: GiftCardCatalogue }
  expect(body.code).toBe(200)
  return body.data.rates
}

describe("the catalogue's reading, kept", () => {
  it('a second index reads no catalogue table; a rate written straight into the database shows at the next call', async () => {
    const p = await walletUser(api)
    const first = await index(p.token)
    expect(first.catalogue.length).toBeGreaterThan(0)
    const again = await index(p.token)
    expect(again.catalogue, again.catalogue.join('\n')).toEqual([])
    expect(again.data.giftCardList).toEqual(first.data.giftCardList)

    await writeRate('apple', 'US', 'physical', 4321, api.clock.now())
    const after = await index(p.token)
    expect(bestOf(after.data.giftCardList, 'apple')).toMatchObject({ rate: '4321.00', country: 'US', cardType: 'physical' })
    expect(after.catalogue.length).toBeGreaterThan(0)
  })

  it("a rate set through one api instance shows at once on another's next call", async () => {
    const seen = async () => (await board(second.url)).find((r) => r.brandId === 'steam' && r.country === 'US' && r.cardType === 'ecode')!
    const before = await seen()
    expect((await seen()).rate).toBe(before.rate)
    const rate = (Number(before.rate) * 1.05).toFixed(2)
    const set = await admin(api).post('/admin/giftcard/rate', { brandId: 'steam', country: 'US', cardType: 'ecode', rate })
    expect(set.body.code).toBe(200)
    expect((await seen()).rate).toBe(rate)
  })

  it('follows the clock: a rate set ahead comes into force at its moment, and each rate of a day ago changes a day after the next one was set', async () => {
    const xbox = (r: { brandId: string; country: string; cardType: string }) =>
      r.brandId === 'xbox' && r.country === 'US' && r.cardType === 'ecode'
    // The board as read afresh on every call (the filtered board, /v1/giftcard/rates, keeps nothing).
    const fresh = async () => (await api.get<Rate[]>('/v1/giftcard/rates')).body.data
    const now = api.clock.now()
    const at = now + HOUR
    await writeRate('xbox', 'US', 'ecode', 2222, at)
    const history = await api.db.selectFrom('gift_card_rates').select('set_at').execute()
    // Every moment the board changes between now and a day after the new rate, and the millisecond before.
    const moments = [
      ...new Set(
        history
          .flatMap(({ set_at }) => [Number(set_at), Number(set_at) + DAY])
          .filter((t) => t > now && t <= at + DAY)
          .flatMap((t) => [t - 1, t]),
      ),
    ].sort((a, b) => a - b)
    expect(moments.length).toBeGreaterThan(4)
    for (const t of moments) {
      api.clock.set(t)
      expect(await board(api.url), `at ${t - now} ms`).toEqual(await fresh())
    }
    api.clock.set(at)
    expect((await board(api.url)).find(xbox)).toMatchObject({ rate: '2222.00', setAt: at })
    api.clock.set(at + DAY)
    expect((await board(api.url)).find(xbox)?.rate24hAgo).toBe('2222.00')
  })
})
