import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { peopleDeskApi } from '#contract/ops/people'
import { seedUser } from '../support/api'
import { sold, useSellingApi } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'
import { walletUser, withdraw } from '../support/wallet'

/** GET /admin/people: the people desk's search, on the suite's database (SQLite or PostgreSQL). */
const api = useSellingApi()
const tag = `s${Date.now().toString(36)}`

async function find(q: string, role: 'admin' | 'reviewer' = 'admin') {
  const staff = await seedStaff(api, { role })
  return api.get(`/admin/people?${new URLSearchParams({ q })}`, { headers: bearer(staff.token) })
}
async function found(q: string) {
  const res = await find(q)
  expect(res.body.code, res.text).toBe(Code.OK)
  return peopleDeskApi.findPeople.data.parse(res.body.data)
}

describe('GET /admin/people', () => {
  it('finds a person by part of their e-mail or name, in any case, and by their id', async () => {
    const ada = await seedUser(api, { email: `ada.${tag}@example.com`, userName: `Adaeze Okafor ${tag}` })
    expect((await found(`ADA.${tag}`)).map((h) => [h.userId, h.foundBy])).toEqual([[ada.user.id, 'email']])
    expect((await found(`okafor ${tag}`)).map((h) => [h.userId, h.foundBy])).toEqual([[ada.user.id, 'name']])
    expect((await found(ada.user.id)).map((h) => [h.userId, h.foundBy])).toEqual([[ada.user.id, 'id']])
  })

  it('finds the seller of an order by part of its number, and the owner of a withdrawal by part of its id', async () => {
    const seller = await seedUser(api, { email: `seller.${tag}@example.com` })
    const order = await sold(api, seller.token)
    const hits = await found(order.orderNo.slice(-6).toLowerCase())
    expect(hits).toEqual([expect.objectContaining({ userId: seller.user.id, foundBy: 'order', orderNo: order.orderNo })])

    const payer = await walletUser(api, { balance: 5_000_000 })
    const w = (await withdraw(api, payer, 1_000_000)).body.data
    expect((await found(w.id.slice(0, 13).toUpperCase())).map((h) => [h.userId, h.foundBy])).toEqual([[payer.userId, 'withdrawal']])
  })

  it('reads % and _ as themselves, not as wildcards', async () => {
    const under = await seedUser(api, { email: `under_score.${tag}@example.com`, userName: `100% ${tag}` })
    await seedUser(api, { email: `underxscore.${tag}@example.com`, userName: `100 ${tag}` })
    expect((await found(`under_score.${tag}`)).map((h) => h.userId)).toEqual([under.user.id])
    expect((await found(`100% ${tag}`)).map((h) => h.userId)).toEqual([under.user.id])
    // A lone wildcard finds nobody rather than everybody.
    expect(await found('%%')).toEqual([])
    expect(await found('__')).toEqual([])
    expect(await found('\\%')).toEqual([])
  })

  it('each person once, at most 20; too short a query is a 400 naming q; a reviewer is refused', async () => {
    for (let i = 0; i < 22; i++) await seedUser(api, { email: `many${i}.${tag}@example.com`, userName: `Many ${tag}` })
    const hits = await found(`many`)
    expect(hits).toHaveLength(20)
    expect(new Set(hits.map((h) => h.userId)).size).toBe(20)
    const short = await find('a')
    expect(short.status).toBe(400)
    expect(short.text).toContain('q')
    expect((await find(`many`, 'reviewer')).status).toBe(403)
  })
})
