import { describe, expect, it } from 'vitest'
import { Refusals } from '#contract/refusals'
import { releasePinMutex, takePinMutex } from '../../api/models/pins'
import { createTestClock, seedUser, type TestClock } from '../support/api'
import { newEmail } from '../support/kit'
import { jpeg, ops, photo, sold, upload, useSellingApi } from '../support/selling'
import { testStaffToken } from '../support/staff'
import { PIN, requestId, walletUser, withdraw } from '../support/wallet'

/**
 * Round three's races and borrowed ids, on SQLite and PostgreSQL (TEST_DB): the daily upload
 * limit under parallel uploads, whose photo an operator's rejection may show, a withdrawal racing
 * the removal of its bank account, and avatar addresses that point at another origin.
 */
const DAILY = 6
// The real clock: the withdrawal race compares when things were written.
const clock: TestClock = { ...createTestClock(), now: () => Date.now() }
const api = useSellingApi({ clock, selling: { uploadsPerDay: DAILY } })

const count = async (userId: string) =>
  Number(
    (
      await api.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  )

describe('the daily upload limit', () => {
  it('holds under 30 parallel uploads: exactly the limit is stored, the rest refused, no file left behind', async () => {
    const { user, token } = await seedUser(api, { email: newEmail('uploads') })
    const bytes = await jpeg(64, 48)
    const results = await Promise.all(Array.from({ length: 30 }, () => upload(api, { token }, bytes)))
    const codes = results.map((r) => r.body.code)
    expect(codes.filter((c) => c === 200)).toHaveLength(DAILY)
    expect(codes.filter((c) => c === Refusals.UPLOAD_LIMIT.code)).toHaveLength(30 - DAILY)
    expect(await count(user.id)).toBe(DAILY)
    // Every refused upload's re-encoded file was taken back out of the storage.
    const { readdirSync } = await import('node:fs')
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : [e.name]))
    const stored = new Set(files(api.uploadDir))
    const rows = await api.db.selectFrom('uploads').select('id').where('user_id', '=', user.id).execute()
    for (const row of rows) expect(stored.has(`${row.id}.jpg`)).toBe(true)
    const refusedIds = results.filter((r) => r.body.code !== 200).length
    expect(refusedIds).toBe(30 - DAILY)
  })

  it('avatars and card photos share the limit under a parallel mix', async () => {
    const { user, token } = await seedUser(api, { email: newEmail('mix') })
    const bytes = await jpeg(64, 48)
    const avatar = () => {
      const form = new FormData()
      form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'me.jpg')
      return fetch(`${api.url}/v1/avatar/upload`, { method: 'POST', headers: { clientType: 'h5', token }, body: form }).then(async (r) => ({
        body: await r.json(),
      }))
    }
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? avatar() : upload(api, { token }, bytes))))
    expect(results.filter((r) => r.body.code === 200)).toHaveLength(DAILY)
    expect(await count(user.id)).toBe(DAILY)
  })
})

describe("a rejection's proof photo", () => {
  const reviewing = async () => {
    const seller = await seedUser(api, { email: newEmail('seller') })
    const order = await sold(api, seller.token)
    expect((await ops(api).claim(order.id)).body.code).toBe(200)
    return { seller, order }
  }

  it("is never a person's card photo or avatar: person B's photo cannot be shown to person A", async () => {
    const a = await reviewing()
    const b = await seedUser(api, { email: newEmail('b') })
    const bPhoto = await photo(api, b.token)
    const res = await ops(api).reject(a.order.id, 'FAKE_CARD', { proofImageId: bPhoto })
    expect(res.body).toMatchObject({ code: Refusals.PROOF_NOT_OPERATORS.code, msg: Refusals.PROOF_NOT_OPERATORS.msg })
    // A's own photo is not an operator's proof either.
    const aPhoto = await photo(api, a.seller.token)
    expect((await ops(api).reject(a.order.id, 'FAKE_CARD', { proofImageId: aPhoto })).body.code).toBe(Refusals.PROOF_NOT_OPERATORS.code)
    const row = await api.db
      .selectFrom('orders')
      .select(['status', 'proof_image_id'])
      .where('id', '=', a.order.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'reviewing', proof_image_id: null })
    // A's photo list cannot reach B's photo through the order.
    const read = await fetch(`${api.url}/v1/file/get?id=${bPhoto}&_t=1`, { headers: { clientType: 'h5', token: a.seller.token } })
    expect((await read.json()).code).toBe(Refusals.IMAGE_NOT_FOUND.code)
  })

  it("an operator's proof photo proves one order: reused, or raced onto two orders at once, only one keeps it", async () => {
    const first = await reviewing()
    const second = await reviewing()
    const proof = (await upload(api, { admin: await testStaffToken(api) }, await jpeg(200, 150))).body.data.fileId
    const both = await Promise.all([
      ops(api).reject(first.order.id, 'FAKE_CARD', { proofImageId: proof }),
      ops(api).reject(second.order.id, 'FAKE_CARD', { proofImageId: proof }),
    ])
    expect(both.map((r) => r.body.code).sort()).toEqual([200, Refusals.PROOF_NOT_OPERATORS.code])
    const holders = await api.db.selectFrom('orders').select('id').where('proof_image_id', '=', proof).execute()
    expect(holders).toHaveLength(1)
    // Its own order may be answered again (an idempotent repeat keeps it).
    const winner = both[0].body.code === 200 ? first : second
    expect((await ops(api).reject(winner.order.id, 'FAKE_CARD', { proofImageId: proof })).body.code).toBe(200)
  })
})

describe('a withdrawal racing the removal of its bank account', () => {
  it('the removal waits for the PIN check: a withdrawal that looked before the removal is refused after it', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    // Hold the person's PIN mutex, as a removal in progress does.
    expect(await takePinMutex(api.db, u.userId, clock.now(), 5_000)).toBe(true)
    const pending = withdraw(api, u, 200_000)
    await new Promise((r) => setTimeout(r, 300))
    await api.db.updateTable('bank_cards').set({ deleted_at: clock.now(), is_default: 0 }).where('id', '=', u.card!.id).execute()
    await releasePinMutex(api.db, u.userId)
    const res = await pending
    expect(res.body.code).toBe(Refusals.BANK_CARD_NOT_FOUND.code)
    expect(await api.db.selectFrom('withdrawals').select('id').where('user_id', '=', u.userId).execute()).toEqual([])
  })

  it('12 races of withdraw + remove: never a withdrawal written after its bank account was removed', async () => {
    for (let i = 0; i < 12; i++) {
      const u = await walletUser(api, { balance: 1_000_000 })
      const [w, d] = await Promise.all([
        withdraw(api, u, 200_000, { requestId: requestId() }),
        api.post('/v1/bankCard/delete', { id: u.card!.id, pin: PIN }, { token: u.token }),
      ])
      expect([200, Refusals.BANK_CARD_NOT_FOUND.code]).toContain(w.body.code)
      expect(d.body.code).toBe(200)
      const card = await api.db.selectFrom('bank_cards').select('deleted_at').where('id', '=', u.card!.id).executeTakeFirstOrThrow()
      const made = await api.db.selectFrom('withdrawals').select('created_at').where('user_id', '=', u.userId).execute()
      for (const m of made) expect(Number(m.created_at)).toBeLessThanOrEqual(Number(card.deleted_at))
      expect(made).toHaveLength(w.body.code === 200 ? 1 : 0)
    }
  })
})

describe('avatar addresses', () => {
  it('refuses protocol-relative and backslashed addresses; stored ones are not shown', async () => {
    const { user, token } = await seedUser(api, { email: newEmail('avatar.url') })
    for (const headImg of [
      '//evil.example/a.png',
      '/\\evil.example/a.png',
      '/\\/evil.example',
      'https:///evil.example',
      'https://a.example/x y.png',
    ]) {
      const res = await api.post('/v1/user/setInfo', { headImg }, { token })
      expect(res.status, headImg).toBe(400)
      expect(res.body.msg, headImg).toBe('headImg: Avatar must be an uploaded image')
    }
    for (const headImg of ['/avatar/00000000-0000-4000-8000-000000000000', 'https://lh3.googleusercontent.com/a/x=s96-c']) {
      expect((await api.post('/v1/user/setInfo', { headImg }, { token })).body.code, headImg).toBe(200)
    }
    // A value written before the rule, straight in the table, is answered as no avatar.
    await api.db.updateTable('users').set({ head_img: '//evil.example/a.png' }).where('id', '=', user.id).execute()
    const index = await api.get<{ userInfo: { headImg: string | null } }>('/v1/user/index', { token })
    expect(index.body.data.userInfo.headImg).toBeNull()
  })
})
