import { describe, expect, it } from 'vitest'
import { Code } from '#contract/envelope'
import { supportDeskApi } from '#contract/ops/support'
import { Refusals } from '#contract/refusals'
import { supportConversationsApi } from '#contract/support-conversations'
import { SUPPORT_BODY_MAX, SUPPORT_MESSAGES_PER_MINUTE } from '#contract/support-limits'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { sold, useSellingApi } from '../support/selling'
import { bearer, seedStaff } from '../support/staff'

/** Support conversations (decision 049): a seller writes, any staff role answers and closes; the reply is a notification. */
const api = useSellingApi()

async function seller() {
  return (await seedUser(api, { email: newEmail('asks') })).token
}

async function start(token: string, body: Record<string, unknown>) {
  const res = await api.post('/v1/support/conversation/start', body, { token })
  expect(res.body.code, res.text).toBe(Code.OK)
  return supportConversationsApi.start.data.parse(res.body.data)
}

const notificationsOf = (userToken: string) =>
  api.get<{ list: { kind: string; refId: string | null; title: string }[] }>('/v1/user/pageMessage?pageSize=50', { token: userToken })

describe('a seller', () => {
  it('starts a conversation, about an order with its number as the subject, lists it and replies', async () => {
    const token = await seller()
    const order = await sold(api, token)
    const about = await start(token, { orderId: order.id, body: '  Why was my card rejected?  ' })
    expect(about).toMatchObject({ subject: `Order ${order.orderNo}`, orderId: order.id, orderNo: order.orderNo, status: 'open' })
    expect(about.messages).toEqual([expect.objectContaining({ author: 'seller', body: 'Why was my card rejected?' })])
    api.clock.advance(1000)
    const plain = await start(token, { subject: 'My withdrawal', body: 'Where is it?' })
    expect(plain).toMatchObject({ subject: 'My withdrawal', orderId: null })

    const list = supportConversationsApi.list.data.parse((await api.get('/v1/support/conversations', { token })).body.data)
    expect(list.list.map((c) => c.id)).toEqual([plain.id, about.id])

    const replied = await api.post('/v1/support/conversation/reply', { id: about.id, body: 'It was a real card' }, { token })
    expect(replied.body.code, replied.text).toBe(Code.OK)
    expect(supportConversationsApi.reply.data.parse(replied.body.data).messages.map((m) => m.body)).toEqual([
      'Why was my card rejected?',
      'It was a real card',
    ])
  })

  it('sees another person’s conversation as not found, and cannot start one about their order', async () => {
    const mine = await seller()
    const theirs = await seller()
    const c = await start(theirs, { body: 'Mine alone' })
    expect((await api.get(`/v1/support/conversation?id=${c.id}`, { token: mine })).body).toMatchObject(
      Refusals.SUPPORT_CONVERSATION_NOT_FOUND,
    )
    expect((await api.post('/v1/support/conversation/reply', { id: c.id, body: 'hi' }, { token: mine })).body).toMatchObject(
      Refusals.SUPPORT_CONVERSATION_NOT_FOUND,
    )
    const order = await sold(api, theirs)
    expect((await api.post('/v1/support/conversation/start', { orderId: order.id, body: 'x' }, { token: mine })).body).toMatchObject(
      Refusals.ORDER_NOT_FOUND,
    )
    const list = supportConversationsApi.list.data.parse((await api.get('/v1/support/conversations', { token: mine })).body.data)
    expect(list.list).toEqual([])
  })

  it('is refused an empty or too long message, a bad id, and never answered 500', async () => {
    const token = await seller()
    for (const body of [
      { body: '' },
      { body: '   ' },
      { body: 'x'.repeat(SUPPORT_BODY_MAX + 1) },
      {},
      { body: 5 },
      { body: 'x', extra: 1 },
    ]) {
      const res = await api.post('/v1/support/conversation/start', body, { token })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).not.toBe(Code.OK)
    }
    expect((await api.get('/v1/support/conversation?id=..%2Fetc', { token })).status).toBe(400)
    expect((await api.get('/v1/support/conversation?id=unknown-id', { token })).body).toMatchObject(Refusals.SUPPORT_CONVERSATION_NOT_FOUND)
    const list = supportConversationsApi.list.data.parse((await api.get('/v1/support/conversations', { token })).body.data)
    expect(list.list).toEqual([])
  })

  it(`sends at most ${SUPPORT_MESSAGES_PER_MINUTE} messages a minute, then again after the minute`, async () => {
    const token = await seller()
    const c = await start(token, { body: 'one' })
    for (let i = 2; i <= SUPPORT_MESSAGES_PER_MINUTE; i++) {
      expect((await api.post('/v1/support/conversation/reply', { id: c.id, body: `m${i}` }, { token })).body.code).toBe(Code.OK)
    }
    const refused = await api.post('/v1/support/conversation/reply', { id: c.id, body: 'one too many' }, { token })
    expect(refused.body.code).toBe(Refusals.SUPPORT_TOO_MANY_MESSAGES.code)
    expect(refused.body.msg).toContain(String(SUPPORT_MESSAGES_PER_MINUTE))
    const thread = supportConversationsApi.thread.data.parse((await api.get(`/v1/support/conversation?id=${c.id}`, { token })).body.data)
    expect(thread.messages).toHaveLength(SUPPORT_MESSAGES_PER_MINUTE)
    api.clock.advance(61_000)
    expect((await api.post('/v1/support/conversation/reply', { id: c.id, body: 'later' }, { token })).body.code).toBe(Code.OK)
  })
})

describe('the Support desk', () => {
  it('lists open conversations first, the longest waiting first; any staff role replies and closes, audited', async () => {
    const token = await seller()
    const older = await start(token, { body: 'first' })
    api.clock.advance(1000)
    const newer = await start(token, { body: 'second' })
    const payouts = bearer((await seedStaff(api, { role: 'payouts' })).token)
    const reviewer = await seedStaff(api, { role: 'reviewer' })

    const ids = async () => supportDeskApi.list.data.parse((await api.get('/admin/support/conversations', { headers: payouts })).body.data)
    const before = (await ids()).list.filter((c) => c.id === older.id || c.id === newer.id)
    expect(before.map((c) => c.id)).toEqual([older.id, newer.id])

    const reply = await api.post(
      '/admin/support/reply',
      { id: older.id, body: 'We are looking at it' },
      { headers: bearer(reviewer.token) },
    )
    expect(reply.body.code, reply.text).toBe(Code.OK)
    const thread = supportDeskApi.reply.data.parse(reply.body.data)
    expect(thread).toMatchObject({ status: 'answered', userEmail: expect.stringContaining('@') })
    expect(thread.messages.at(-1)).toMatchObject({ author: 'staff', body: 'We are looking at it', staffEmail: reviewer.email })
    // Answered moves after the open one still waiting.
    const after = (await ids()).list.filter((c) => c.id === older.id || c.id === newer.id)
    expect(after.map((c) => [c.id, c.status])).toEqual([
      [newer.id, 'open'],
      [older.id, 'answered'],
    ])

    // The seller sees it, with a notification of kind support naming the conversation, written once.
    const seen = supportConversationsApi.thread.data.parse((await api.get(`/v1/support/conversation?id=${older.id}`, { token })).body.data)
    expect(seen.messages.map((m) => m.author)).toEqual(['seller', 'staff'])
    expect(JSON.stringify(seen)).not.toContain(reviewer.email)
    const notes = (await notificationsOf(token)).body.data!.list.filter((n) => n.kind === 'support')
    expect(notes).toEqual([expect.objectContaining({ refId: older.id })])

    const audited = await api.db.selectFrom('audit_log').selectAll().where('target_id', '=', older.id).execute()
    expect(audited.map((a) => a.action)).toEqual(['support.reply'])

    const closed = await api.post('/admin/support/close', { id: older.id }, { headers: payouts })
    expect(supportDeskApi.close.data.parse(closed.body.data).status).toBe('closed')
    expect((await api.post('/admin/support/reply', { id: older.id, body: 'more' }, { headers: payouts })).body).toMatchObject(
      Refusals.SUPPORT_CONVERSATION_CLOSED,
    )
    expect((await api.post('/v1/support/conversation/reply', { id: older.id, body: 'more' }, { token })).body).toMatchObject(
      Refusals.SUPPORT_CONVERSATION_CLOSED,
    )
    const actions = (
      await api.db.selectFrom('audit_log').select('action').where('target_id', '=', older.id).orderBy('created_at').execute()
    ).map((a) => a.action)
    expect(actions).toEqual(['support.reply', 'support.close'])
    // Still one notification: closing tells nobody, a refused reply tells nobody.
    expect((await notificationsOf(token)).body.data!.list.filter((n) => n.kind === 'support')).toHaveLength(1)
  })

  it('answers an unknown conversation as not found, and bad bodies with 400', async () => {
    const staff = bearer((await seedStaff(api, { role: 'admin' })).token)
    expect((await api.get('/admin/support/conversation?id=nope', { headers: staff })).body).toMatchObject(
      Refusals.SUPPORT_CONVERSATION_NOT_FOUND,
    )
    expect((await api.post('/admin/support/reply', { id: 'nope', body: 'x' }, { headers: staff })).body).toMatchObject(
      Refusals.SUPPORT_CONVERSATION_NOT_FOUND,
    )
    expect((await api.post('/admin/support/reply', { id: 'nope', body: '' }, { headers: staff })).status).toBe(400)
    expect((await api.post('/admin/support/close', { id: 'nope' }, { headers: staff })).body).toMatchObject(
      Refusals.SUPPORT_CONVERSATION_NOT_FOUND,
    )
  })
})
