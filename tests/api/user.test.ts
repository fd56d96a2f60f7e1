import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Rate } from '#contract/catalogue'
import { Code } from '#contract/envelope'
import { NICKNAME_MAX, userIndexData, userInfoSchema } from '#contract/profile'
import { seedUser, startTestApi, type TestApi } from '../support/api'
import { ops } from '../support/selling'

/** The signed-in user's own data (SPEC §7 /v1/user/index, /v1/user/setInfo). */

let api: TestApi
let token: string
let userId: string
beforeAll(async () => {
  api = await startTestApi()
  const seeded = await seedUser(api, { email: 'profile@example.com', userName: 'profile' })
  token = seeded.token
  userId = seeded.user.id
})
afterAll(async () => {
  await api?.close()
})

describe('index', () => {
  test('answers userInfo, the tasks to do, the featured gift cards, no open orders and no unread messages', async () => {
    const res = await api.get('/v1/user/index', { token })
    expect(res.status).toBe(200)
    expect(res.body.code).toBe(Code.OK)
    const data = userIndexData.parse(res.body.data)
    expect(data).toMatchObject({
      userInfo: { userId, userName: 'profile', email: 'profile@example.com', headImg: null },
      unreadCount: 0,
      openOrders: { count: 0, latest: [] },
    })
    // A new person: every task to do, none done yet (tests/api/tasks.test.ts has the rest).
    expect(data.taskInfos.map((t) => [t.id, t.status, t.progress])).toEqual([
      ['set_pin', 'in_progress', 0],
      ['add_bank_card', 'in_progress', 0],
      ['first_order', 'in_progress', 0],
      ['five_orders', 'in_progress', 0],
    ])
    expect(data.giftCardList.length).toBeGreaterThan(0)
    expect(data.giftCardList.map((card) => card.brandId)).toEqual(expect.arrayContaining(['apple', 'steam', 'amazon']))
    expect(data.giftCardList.map((card) => card.brandId)).not.toContain('vanilla') // not featured
  })

  test('giftCardList carries each featured card with its best dollar rate from the board, the same numbers', async () => {
    const index = userIndexData.parse((await api.get('/v1/user/index', { token })).body.data)
    const board = (await api.get<Rate[]>('/v1/giftcard/rates')).body.data
    for (const card of index.giftCardList) {
      expect(card.logo.initials).toMatch(/^[A-Z]{2}$/)
      expect(card.etaMinutes).toBeGreaterThan(0)
      const dollars = board.filter((r) => r.brandId === card.brandId && r.currency === 'USD')
      const top = Math.max(...dollars.map((r) => Number(r.rate)))
      expect(card.bestRate.currency).toBe('USD')
      expect(Number(card.bestRate.rate)).toBe(top)
      expect(dollars).toContainEqual(card.bestRate)
    }
    // The same list, for visitors, from the public catalogue.
    expect((await api.get('/v1/giftcard/featured')).body.data).toEqual(index.giftCardList)
    // An operator's new rate shows at once.
    expect((await ops(api).setRate('apple', 'US', 'ecode', '9234.5')).body.code).toBe(Code.OK)
    const after = userIndexData.parse((await api.get('/v1/user/index', { token })).body.data)
    const apple = after.giftCardList.find((card) => card.brandId === 'apple')!
    expect(apple.bestRate).toMatchObject({ country: 'US', cardType: 'ecode', rate: '9234.50' })
  })

  test('clientType h5 and any other header do not change the answer', async () => {
    const res = await api.get('/v1/user/index', { token, headers: { clientType: 'h5', 'x-anything': '1' } })
    expect(res.body.code).toBe(Code.OK)
  })
})

describe('setInfo', () => {
  const setInfo = (body: unknown) => api.post('/v1/user/setInfo', body, { token })

  test('changes the nickname (trimmed) and answers the new userInfo', async () => {
    const res = await setInfo({ userName: '  Gift Queen  ' })
    expect(res.body.code).toBe(Code.OK)
    expect(userInfoSchema.parse(res.body.data)).toEqual({
      userId,
      userName: 'Gift Queen',
      email: 'profile@example.com',
      headImg: null,
      googleEmail: null,
    })
    const index = await api.get<{ userInfo: { userName: string } }>('/v1/user/index', { token })
    expect(index.body.data.userInfo.userName).toBe('Gift Queen')
  })

  test('sets and clears the avatar; the nickname stays', async () => {
    const url = 'https://cdn.example.com/a.png'
    expect((await setInfo({ headImg: url })).body.data).toMatchObject({ headImg: url, userName: 'Gift Queen' })
    expect((await setInfo({ headImg: '/uploads/b.webp' })).body.data).toMatchObject({ headImg: '/uploads/b.webp' })
    expect((await setInfo({ headImg: null })).body.data).toMatchObject({ headImg: null })
  })

  test.each([
    [{}, 'body: Nothing to update: send userName or headImg'],
    [{ userName: '' }, 'userName: Nickname is required'],
    [{ userName: '   ' }, 'userName: Nickname is required'],
    [{ userName: ' a ' }, 'userName: Nickname must be at least 2 characters'],
    [{ userName: 'x'.repeat(NICKNAME_MAX + 1) }, `userName: Nickname must be at most ${NICKNAME_MAX} characters`],
    [{ userName: '<script>' }, 'userName: Nickname has characters that are not allowed'],
    [{ userName: 'a\u0000b' }, 'userName: Nickname has characters that are not allowed'],
    [{ userName: 42 }, 'userName: Nickname must be text'],
    [{ headImg: 'javascript:alert(1)' }, 'headImg: Avatar must be an uploaded image'],
    [{ headImg: 'http://plain.example.com/a.png' }, 'headImg: Avatar must be an uploaded image'],
    [{ userName: 'ok', email: 'new@example.com' }, 'email: Unknown field'],
  ])('refuses %j: %s', async (body, message) => {
    const res = await setInfo(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ code: Code.BAD_REQUEST, msg: message, data: null })
  })

  test(`a nickname of exactly ${NICKNAME_MAX} characters is fine`, async () => {
    const name = 'n'.repeat(NICKNAME_MAX)
    expect((await setInfo({ userName: name })).body.data).toMatchObject({ userName: name })
  })
})
