import { describe, expect, it } from 'vitest'
import * as people from '~/ops/routes/ops.people'
import { seedUser } from '../support/api'
import { staffJar } from '../support/console'
import { sold, useSellingApi } from '../support/selling'
import { walletUser, withdraw } from '../support/wallet'
import { jsonOf, load } from '../support/web'

/** /ops/people's search through the real api: one person opens their page, several are listed, none is said. */
const api = useSellingApi({ web: true })
const tag = `w${Date.now().toString(36)}`
const find = async (q: string) => load(people.loader, `/ops/people?${new URLSearchParams({ q })}`, (await staffJar(api, 'admin')).jar)

describe('/ops/people search', () => {
  it('part of an e-mail or a name that fits one person opens their page; several are listed with links', async () => {
    const ada = await seedUser(api, { email: `ada.${tag}@example.com`, userName: `Adaeze ${tag}` })
    const bola = await seedUser(api, { email: `bola.${tag}@example.com`, userName: `Bola ${tag}` })
    expect(await find(`ADA.${tag}`)).toHaveRedirect(`/ops/people/${ada.user.id}`)
    expect(await find(`bola ${tag}`)).toHaveRedirect(`/ops/people/${bola.user.id}`)
    const both = await jsonOf(await find(`.${tag}@`))
    expect(both.notFound).toBeNull()
    expect(both.hits.map((h: { userId: string }) => h.userId).sort()).toEqual([ada.user.id, bola.user.id].sort())
  })

  it('an order’s number opens its seller; part of a withdrawal’s id opens its owner', async () => {
    const seller = await seedUser(api, { email: `seller.${tag}@example.com` })
    const order = await sold(api, seller.token)
    expect(await find(order.orderNo)).toHaveRedirect(`/ops/people/${seller.user.id}`)
    const payer = await walletUser(api, { balance: 5_000_000 })
    const w = (await withdraw(api, payer, 1_000_000)).body.data
    expect(await find(w.id.slice(0, 8))).toHaveRedirect(`/ops/people/${payer.userId}`)
  })

  it('says when nobody matches, and a typed % or _ is no wildcard', async () => {
    await seedUser(api, { email: `pct.${tag}@example.com` })
    for (const q of [`nobody.${tag}`, '%%', '__']) {
      const none = await jsonOf(await find(q))
      expect(none.hits, q).toEqual([])
      expect(none.notFound, q).toBe(`Nobody matches “${q}”.`)
    }
  })
})
