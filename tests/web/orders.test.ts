import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { WalletInfo } from '#contract/wallet'
import * as file from '~/routes/file.$id'
import * as upload from '~/routes/file.upload'
import * as history from '~/routes/history'
import * as detail from '~/routes/order.$id'
import * as success from '~/routes/order.submit-success'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { jpeg, newCode, ops, sold, upload as uploadPhoto, useSellingApi } from '../support/selling'
import { testStaffToken } from '../support/staff'
import { call, type CookieJar, jsonOf, load, makeRequest, ORIGIN, signedInJar, submit } from '../support/web'

/** The orders' screens and the photo routes, through their loaders and actions, against the real api. */
const api = useSellingApi({ web: true })

async function seller() {
  const email = newEmail('orders')
  const { user, token } = await seedUser(api, { email })
  return { user, token, email, jar: await signedInJar(token, { login_id: user.id, login_email: email }) }
}

const wallet = async (token: string) => (await api.get<WalletInfo>('/v1/wallet/info', { token })).body.data

describe('/order/submit-success', () => {
  it('shows the order number, the locked payout, the review time and the place in the queue', async () => {
    const { token, jar } = await seller()
    const order = await sold(api, token)
    const data = await jsonOf(await load(success.loader, `/order/submit-success?id=${order.id}`, jar))
    expect(data.order).toMatchObject({ id: order.id, orderNo: order.orderNo, quotedPayout: order.quotedPayout, status: 'pending' })
    expect(data.order.queue).toMatchObject({ position: expect.any(Number), etaMinutes: 15 })
    expect(data.order.queue.expectedBy).toBe(order.createdAt + 15 * 60_000)
    expect(data.timeZone).toBe('Africa/Lagos')
  })

  it('someone else’s order, an unknown one and none at all: “Order not found” (404)', async () => {
    const owner = await seller()
    const order = await sold(api, owner.token)
    const { jar } = await seller()
    for (const query of [`?id=${order.id}`, '?id=00000000-0000-0000-0000-000000000000', '', '?id=%00%3Cscript%3E']) {
      const res = await load(success.loader, `/order/submit-success${query}`, jar)
      expect(res.status, query).toBe(404)
      expect(await jsonOf(res)).toEqual({ message: 'Order not found' })
    }
  })
})

describe('/history', () => {
  it('pages the person’s orders newest first and filters them by status with plain links', async () => {
    const { token, jar } = await seller()
    const made = []
    for (let i = 0; i < 12; i++) {
      made.push(await sold(api, token, { cards: [{ faceValue: 1_000 + i * 100, cardCodes: [newCode()] }] }))
      api.clock.advance(1_000)
    }
    await ops(api).claim(made[0].id)
    const first = await jsonOf(await load(history.loader, '/history', jar))
    expect(first.page).toMatchObject({ total: 12, pageNum: 1, pageSize: 10 })
    expect(first.page.list.map((o: { id: string }) => o.id)).toEqual(
      made
        .slice(2)
        .reverse()
        .map((o) => o.id),
    )
    const second = await jsonOf(await load(history.loader, '/history?page=2', jar))
    expect(second.page.list.map((o: { id: string }) => o.id)).toEqual([made[1].id, made[0].id])
    const reviewing = await jsonOf(await load(history.loader, '/history?status=reviewing', jar))
    expect(reviewing).toMatchObject({ status: 'reviewing', page: { total: 1 } })
    // What a person can type into the URL reads as "all", never an error.
    const odd = await jsonOf(await load(history.loader, '/history?status=lost&page=-4', jar))
    expect(odd).toMatchObject({ status: null, page: { total: 12, pageNum: 1 } })
  })

  it('an empty history is a page, not an error', async () => {
    const { jar } = await seller()
    expect((await jsonOf(await load(history.loader, '/history', jar))).page).toMatchObject({ total: 0, list: [] })
  })
})

describe('/order/:id', () => {
  it('shows the person’s own order; another person’s and unknown ones are “Order not found”', async () => {
    const owner = await seller()
    const order = await sold(api, owner.token)
    const own = await jsonOf(await load(detail.loader, `/order/${order.id}`, owner.jar, { id: order.id }))
    expect(own.order).toMatchObject({ id: order.id, events: [{ status: 'pending', by: 'you' }] })
    const { jar } = await seller()
    for (const id of [order.id, 'no-such-order', '../wallet', 'x'.repeat(80)]) {
      const res = await load(detail.loader, `/order/${encodeURIComponent(id)}`, jar, { id })
      expect(res.status, id).toBe(404)
    }
  })

  it('cancel while pending: the order closes, its code can be sold again; not once it is in review', async () => {
    const { token, jar } = await seller()
    const code = newCode()
    const order = await sold(api, token, { cards: [{ faceValue: 10_000, cardCodes: [code] }] })
    const res = await submit(detail.action, `/order/${order.id}`, { intent: 'cancel' }, jar, { id: order.id })
    expect(res).toHaveRedirect(`/order/${order.id}`)
    await expect(res).toSendToast({ type: 'success', message: 'Order cancelled. Its codes can be sold again.' })
    expect((await jsonOf(await load(detail.loader, `/order/${order.id}`, jar, { id: order.id }))).order.status).toBe('cancelled')
    await sold(api, token, { cards: [{ faceValue: 10_000, cardCodes: [code] }] })

    const reviewing = await sold(api, token)
    await ops(api).claim(reviewing.id)
    const late = await submit(detail.action, `/order/${reviewing.id}`, { intent: 'cancel' }, jar, { id: reviewing.id })
    expect(late.status).toBe(400)
    expect((await jsonOf(late)).error).toMatch(/reviewing/i)
    expect((await ops(api).detail(reviewing.id)).body.data.status).toBe('reviewing')
  })

  it('a lower offer accepted: the wallet gets the offer, said in the toast', async () => {
    const { token, jar } = await seller()
    const order = await sold(api, token)
    await ops(api).claim(order.id)
    const offer = Math.floor(order.quotedPayout / 2)
    await ops(api).propose(order.id, 'The card had half its value left', [
      { cardId: order.cards[0].cardId, payout: offer, reasonCode: 'ALREADY_USED' },
    ])
    const shown = (await jsonOf(await load(detail.loader, `/order/${order.id}`, jar, { id: order.id }))).order
    expect(shown).toMatchObject({
      status: 'proposed',
      proposedPayout: offer,
      proposal: { payout: offer, reason: 'The card had half its value left' },
    })
    const res = await submit(detail.action, `/order/${order.id}`, { intent: 'accept' }, jar, { id: order.id })
    expect(res).toHaveRedirect(`/order/${order.id}`)
    await expect(res).toSendToast({ type: 'success' })
    expect(await wallet(token)).toMatchObject({ balance: offer })
    // Accepting again changes nothing; declining now is refused with why.
    await submit(detail.action, `/order/${order.id}`, { intent: 'accept' }, jar, { id: order.id })
    expect(await wallet(token)).toMatchObject({ balance: offer })
    expect((await submit(detail.action, `/order/${order.id}`, { intent: 'decline' }, jar, { id: order.id })).status).toBe(400)
  })

  it('a lower offer past its deadline: the screen said when; accepting then is refused with why, nothing paid', async () => {
    const { token, jar } = await seller()
    const order = await sold(api, token)
    await ops(api).claim(order.id)
    const proposedAt = api.clock.now()
    await ops(api).propose(order.id, 'Only part of it was left', [
      { cardId: order.cards[0].cardId, payout: 1_000, reasonCode: 'ALREADY_USED' },
    ])
    const shown = (await jsonOf(await load(detail.loader, `/order/${order.id}`, jar, { id: order.id }))).order
    expect(shown.proposal.answerBy).toBe(proposedAt + 48 * 3_600_000)
    api.clock.advance(48 * 3_600_000)
    const res = await submit(detail.action, `/order/${order.id}`, { intent: 'accept' }, jar, { id: order.id })
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).error).toMatch(/^This offer lapsed at .+: the order closes and the card stays yours$/)
    expect(await wallet(token)).toMatchObject({ balance: 0 })
  })

  it('a lower offer declined: nothing reaches the wallet and the order closes', async () => {
    const { token, jar } = await seller()
    const order = await sold(api, token)
    await ops(api).claim(order.id)
    await ops(api).propose(order.id, 'Only part of it was left', [
      { cardId: order.cards[0].cardId, payout: 1_000, reasonCode: 'ALREADY_USED' },
    ])
    const res = await submit(detail.action, `/order/${order.id}`, { intent: 'decline' }, jar, { id: order.id })
    await expect(res).toSendToast({ type: 'success', message: 'Offer declined. The order is closed and nothing was redeemed.' })
    expect((await ops(api).detail(order.id)).body.data.status).toBe('declined')
    expect(await wallet(token)).toMatchObject({ balance: 0 })
  })

  it('accept or decline while pending, any move on another person’s order, an unknown move: refused, nothing changes', async () => {
    const owner = await seller()
    const order = await sold(api, owner.token)
    for (const intent of ['accept', 'decline']) {
      const res = await submit(detail.action, `/order/${order.id}`, { intent }, owner.jar, { id: order.id })
      expect(res.status, intent).toBe(400)
    }
    const stranger = await seller()
    for (const intent of ['cancel', 'accept', 'decline']) {
      const res = await submit(detail.action, `/order/${order.id}`, { intent }, stranger.jar, { id: order.id })
      expect(res.status, intent).toBe(404)
    }
    expect((await jsonOf(await submit(detail.action, `/order/${order.id}`, { intent: 'refund' }, owner.jar, { id: order.id }))).error).toBe(
      'Choose what to do with the order',
    )
    expect((await ops(api).detail(order.id)).body.data.status).toBe('pending')
  })

  it('a rejection shows its reason, the operator’s note and the proof photo, which only the owner can open', async () => {
    const { token, jar } = await seller()
    const order = await sold(api, token)
    await ops(api).claim(order.id)
    // The operator's proof photo (uploaded through /admin, as `npm run ops -- order … reject --proof`).
    const proofId = (await uploadPhoto(api, { admin: await testStaffToken(api) }, await jpeg())).body.data.fileId
    await ops(api).reject(order.id, 'ALREADY_USED', { note: 'Redeemed on 3 May already.', proofImageId: proofId })
    const shown = (await jsonOf(await load(detail.loader, `/order/${order.id}`, jar, { id: order.id }))).order
    expect(shown).toMatchObject({
      status: 'rejected',
      rejection: { reasonCode: 'ALREADY_USED', reasonText: 'The card had already been used when we tried to redeem it' },
      operatorNote: 'Redeemed on 3 May already.',
      proofImageId: proofId,
    })
    const own = await load(file.loader, `/file/${proofId}`, jar, { id: proofId })
    expect(own.status).toBe(200)
    expect(own.headers.get('Content-Type')).toBe('image/jpeg')
    const stranger = await seller()
    const theirs = await load(file.loader, `/file/${proofId}`, stranger.jar, { id: proofId })
    expect(theirs.status).toBe(404)
    expect(theirs.headers.get('Content-Type')).toMatch(/^text\/plain/)
  })
})

describe('photos: /file/upload and /file/:id', () => {
  const pngBytes = () =>
    sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 12, g: 200, b: 90 } } })
      .png()
      .toBuffer()

  function uploadRequest(
    jar: CookieJar | undefined,
    bytes: Uint8Array,
    options: { field?: string; filename?: string; type?: string } = {},
  ) {
    const body = new FormData()
    body.append(options.field ?? 'file', new Blob([bytes], { type: options.type ?? 'image/png' }), options.filename ?? 'card.png')
    return new Request(new URL('/file/upload', ORIGIN), { method: 'POST', body, headers: jar ? { Cookie: jar.header() } : {} })
  }

  it('uploads a photo (streamed to the api) and serves it back to its owner only, never cached', async () => {
    const { jar } = await seller()
    const res = await call(upload.action, uploadRequest(jar, await pngBytes()))
    expect(res.status).toBe(200)
    const { fileId } = await jsonOf(res)
    expect(fileId).toMatch(/^[0-9a-f-]{36}$/)
    const own = await load(file.loader, `/file/${fileId}`, jar, { id: fileId })
    expect(own.status).toBe(200)
    expect(own.headers.get('Content-Type')).toBe('image/jpeg') // re-encoded by the api
    expect(own.headers.get('Cache-Control')).toBe('private, no-store')
    expect(own.headers.get('X-Content-Type-Options')).toBe('nosniff')
    const bytes = new Uint8Array(await own.arrayBuffer())
    expect([bytes[0], bytes[1], bytes[2]]).toEqual([0xff, 0xd8, 0xff])

    const stranger = await seller()
    const theirs = await load(file.loader, `/file/${fileId}`, stranger.jar, { id: fileId })
    expect(theirs.status).toBe(404)
    expect(await theirs.text()).toBe('A photo was not found. Upload it again')
    for (const id of ['nope', '../etc/passwd', '00000000-0000-0000-0000-000000000000']) {
      expect((await load(file.loader, `/file/${encodeURIComponent(id)}`, jar, { id })).status, id).toBe(404)
    }
    // A visitor is sent to sign in, and gets no bytes.
    expect(await load(file.loader, `/file/${fileId}`, undefined, { id: fileId })).toHaveRedirect(/^\/login/)
  })

  it('a file that is not a photo, whatever its name and type, is refused with why', async () => {
    const { jar } = await seller()
    const res = await call(
      upload.action,
      uploadRequest(jar, new TextEncoder().encode('%PDF-1.7 not a card'), { filename: 'card.jpg', type: 'image/jpeg' }),
    )
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual({ error: 'This file is not a photo. Upload a JPEG, PNG or WebP image' })
  })

  it('no file, a file under another name, a body that is not multipart, a GET: a message each, never a 500', async () => {
    const { jar } = await seller()
    expect((await call(upload.action, uploadRequest(jar, await pngBytes(), { field: 'photo' }))).status).toBe(400)
    const text = await call(upload.action, makeRequest('/file/upload', { form: { file: 'x' }, jar }))
    expect(text.status).toBe(400)
    expect((await jsonOf(text)).error).toBe('Send the photo as multipart/form-data, in a part named file')
    const get = await call(upload.loader, makeRequest('/file/upload', { jar }))
    expect(get.status).toBe(405)
    expect(await call(upload.action, uploadRequest(undefined, await pngBytes()))).toHaveRedirect('/login')
  })

  it('a photo larger than 5 MB is refused without reading the rest of it', async () => {
    const { jar } = await seller()
    const boundary = 'upload-boundary'
    let pulled = 0
    const chunk = new Uint8Array(64 * 1024).fill(1)
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(
          new TextEncoder().encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
        )
      },
      pull(c) {
        if (pulled >= 80 * 1024 * 1024) return c.close()
        pulled += chunk.length
        c.enqueue(chunk)
      },
    })
    const req = new Request(new URL('/file/upload', ORIGIN), {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { Cookie: jar.header(), 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    } as RequestInit)
    const res = await call(upload.action, req)
    expect(res.status).toBe(413)
    expect(res.headers.get('Connection')).toBe('close')
    expect(await jsonOf(res)).toEqual({ error: 'This photo is larger than 5 MB. Upload a smaller one' })
    expect(pulled).toBeLessThan(7 * 1024 * 1024)
  })
})
