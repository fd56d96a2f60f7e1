import type { KyselyPlugin } from 'kysely'
import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import type { UserIndexData } from '#contract/profile'
import { openOrders } from '../../api/services/orders'
import { sold, useSellingApi } from '../support/selling'
import { walletUser } from '../support/wallet'

const api = useSellingApi()

/**
 * Every signed-in page asks /v1/user/index (the root loader), so its round trips to the database
 * are the api's share of every page: one query per kind of data, never one per row; the wallet's
 * counts, the unread count, the tasks' progress and the catalogue's version are one statement. The
 * catalogue's reading (brands, variants, rates) is kept while that version holds (decision 069).
 */
const INDEX_QUERIES = 8
const INDEX_QUERIES_KEPT = 5

async function indexCost(token: string) {
  const before = api.queryCount()
  const res = await api.get<UserIndexData>('/v1/user/index', { token })
  expect(res.body.code).toBe(Code.OK)
  return { queries: api.queries.slice(before), data: res.body.data }
}

describe('/v1/user/index', () => {
  it(`costs at most ${INDEX_QUERIES} queries, ${INDEX_QUERIES_KEPT} with the catalogue kept, and as many with three open orders as with one`, async () => {
    const one = await walletUser(api, { balance: 50_000 })
    await sold(api, one.token)
    const three = await walletUser(api, { balance: 50_000 })
    for (let i = 0; i < 3; i++) await sold(api, three.token)
    // A rate written: the next index reads the catalogue again, the one after keeps it.
    await api.db.updateTable('gift_card_brands').set({ eta_minutes: 20 }).where('id', '=', 'apple').execute()
    const read = await indexCost(one.token)
    const a = await indexCost(one.token)
    const b = await indexCost(three.token)
    expect(read.queries.length, read.queries.join('\n')).toBeLessThanOrEqual(INDEX_QUERIES)
    expect([a.data.openOrders.latest.length, b.data.openOrders.latest.length]).toEqual([1, 3])
    expect(b.queries.length, b.queries.join('\n')).toBeLessThanOrEqual(INDEX_QUERIES_KEPT)
    expect(b.queries.length).toBe(a.queries.length)
    expect(a.data.giftCardList).toEqual(read.data.giftCardList)
    expect(b.data.wallet).toMatchObject({ balance: 50_000, hasPin: true, bankCardCount: 1, resolvesNames: false })
  })

  it('reads each table once: no kind of data is asked twice', async () => {
    const p = await walletUser(api)
    await sold(api, p.token)
    const { queries } = await indexCost(p.token)
    const firstTable = (q: string) => /from "(\w+)"/.exec(q)?.[1]
    const tables = queries.map(firstTable)
    expect(
      tables.filter((t, i) => tables.indexOf(t) !== i),
      queries.join('\n'),
    ).toEqual([])
  })

  it('finds the person by a subquery on the session, not a join (SQLite plans the join several times dearer)', async () => {
    const p = await walletUser(api)
    const { queries } = await indexCost(p.token)
    const session = queries.find((q) => q.includes('"sessions"'))!
    expect(session).toMatch(/^select \* from "users" where "id" = \(select "sessions"\."user_id" from "sessions" where /)
    expect(session).not.toMatch(/join/)
  })

  it('builds and compiles the open orders once per database handle', async () => {
    const p = await walletUser(api)
    await sold(api, p.token)
    let compiled = 0
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        compiled++
        return args.node
      },
      transformResult: async (args) => args.result,
    }
    const db = api.db.withPlugin(counting)
    const user = await db.selectFrom('users').selectAll().where('id', '=', p.userId).executeTakeFirstOrThrow()
    compiled = 0
    for (let i = 0; i < 3; i++) expect((await openOrders({ ...api.deps, db }, user, 3)).count).toBe(1)
    // The orders once, the brands once (a fixed query); the cards of the listed orders, an `in`
    // list whose text changes with its length, on every call.
    expect(compiled).toBe(1 + 1 + 3)
  })
})
