import { describe, expect, it } from 'vitest'
import * as desk from '~/ops/routes/ops.support'
import * as deskThread from '~/ops/routes/ops.support_.$id'
import * as support from '~/routes/support'
import * as thread from '~/routes/support_.$id'
import * as start from '~/routes/support_.new'
import { seedUser } from '../support/api'
import { staffJar } from '../support/console'
import { newEmail } from '../support/kit'
import { sold, useSellingApi } from '../support/selling'
import { jsonOf, load, signedInJar, submit } from '../support/web'

/** Support conversations through the routes' loaders and actions with real Requests (forms as sent without JavaScript), the real api behind. */
const api = useSellingApi({ web: true })

async function seller() {
  const { token } = await seedUser(api, { email: newEmail('web-asks') })
  return { token, jar: await signedInJar(token) }
}

describe('a seller without a chat provider', () => {
  it('starts a conversation about an order (subject prefilled), lands on it, replies; Help & Support lists it', async () => {
    const { token, jar } = await seller()
    const order = await sold(api, token)
    const form = await jsonOf(await load(start.loader, `/support/new?order=${order.id}`, jar))
    expect(form.about).toEqual({ id: order.id, orderNo: order.orderNo })

    const sent = await submit(start.action, '/support/new', { orderId: order.id, subject: `Order ${order.orderNo}`, body: 'Why?' }, jar)
    expect(sent.status).toBe(302)
    const to = sent.headers.get('location')!
    expect(to).toMatch(/^\/support\/[\w-]+$/)
    const id = to.split('/').pop()!

    const seen = await jsonOf(await load(thread.loader, to, jar, { id }))
    expect(seen.thread).toMatchObject({ subject: `Order ${order.orderNo}`, status: 'open' })
    const replied = await submit(thread.action, to, { body: 'More detail' }, jar, { id })
    expect(replied.status).toBe(302)
    const listed = await jsonOf(await load(support.loader, '/support', jar))
    expect(listed.conversations.map((c: { id: string }) => c.id)).toEqual([id])
  })

  it('is refused an empty message with 400 and a sentence; another person’s conversation is not found', async () => {
    const a = await seller()
    const b = await seller()
    const empty = await submit(start.action, '/support/new', { body: '   ' }, a.jar)
    expect(empty.status).toBe(400)
    expect((await jsonOf(empty)).error).toBe('Write your message')
    const sent = await submit(start.action, '/support/new', { body: 'mine' }, a.jar)
    const id = sent.headers.get('location')!.split('/').pop()!
    const other = await load(thread.loader, `/support/${id}`, b.jar, { id }).catch((e: unknown) => e as Response)
    expect((other as Response).status).toBe(404)
    const reply = await submit(thread.action, `/support/${id}`, { body: 'x' }, b.jar, { id }).catch((e: unknown) => e as Response)
    expect((reply as Response).status).toBe(404)
  })
})

describe('the Support desk', () => {
  it('lists and answers as any staff role; the seller then sees the answer', async () => {
    const { jar } = await seller()
    const sent = await submit(start.action, '/support/new', { body: 'Help me' }, jar)
    const id = sent.headers.get('location')!.split('/').pop()!
    const { jar: staff } = await staffJar(api, 'payouts')
    const list = await jsonOf(await load(desk.loader, '/ops/support', staff))
    expect(list.list.some((c: { id: string }) => c.id === id)).toBe(true)
    const answered = await submit(deskThread.action, `/ops/support/${id}`, { intent: 'reply', body: 'On it' }, staff, { id })
    expect(answered.status).toBe(302)
    const empty = await submit(deskThread.action, `/ops/support/${id}`, { intent: 'reply', body: '' }, staff, { id })
    expect(empty.status).toBe(400)
    const seen = await jsonOf(await load(thread.loader, `/support/${id}`, jar, { id }))
    expect(seen.thread.messages.map((m: { author: string }) => m.author)).toEqual(['seller', 'staff'])
    const closed = await submit(deskThread.action, `/ops/support/${id}`, { intent: 'close' }, staff, { id })
    expect(closed.status).toBe(302)
    // The desk reads a closed conversation (it once answered with the error page).
    const after = await jsonOf(await load(deskThread.loader, `/ops/support/${id}`, staff, { id }))
    expect(after.thread.status).toBe('closed')
    const late = await submit(thread.action, `/support/${id}`, { body: 'x' }, jar, { id })
    expect(late.status).toBe(400)
  })
})
