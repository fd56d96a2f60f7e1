import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { userIndexData } from '#contract/profile'
import { Refusals } from '#contract/refusals'
import { AVATAR_SIDE, avatarPath, MAX_AVATAR_BYTES, uploadsApi } from '#contract/uploads'
import { seedUser, type TestApi } from '../support/api'
import { newEmail } from '../support/kit'
import { jpeg, sell, upload, useSellingApi } from '../support/selling'

/**
 * Profile photos (avatars) through the card-photo pipeline with their own limits: typed by content,
 * at most 2 MB, cropped square at the centre and made 256 × 256, stored privately, read back by
 * their owner only, and set as headImg with setInfo. An avatar is never a card photo.
 */
const api = useSellingApi()

const person = async () => (await seedUser(api, { email: newEmail('avatar') })).token
const countUploads = async () =>
  Number(
    (
      await api.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

/** POST /v1/avatar/upload with one part `file`, as the web sends it. */
async function uploadAvatar(target: TestApi, token: string | undefined, bytes: Buffer, filename = 'me.png', contentType = 'image/png') {
  const form = new FormData()
  form.append('file', new Blob([bytes], { type: contentType }), filename)
  const headers: Record<string, string> = { clientType: 'h5' }
  if (token) headers.token = token
  const res = await fetch(`${target.url}/v1/avatar/upload`, { method: 'POST', headers, body: form })
  return { status: res.status, body: await res.json() }
}

async function readAvatar(token: string, id: string) {
  const res = await fetch(`${api.url}/v1/avatar/get?id=${id}&_t=1`, { headers: { clientType: 'h5', token } })
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) }
}

/** A wide PNG: blue sides, a red middle third — a centre crop keeps only red. */
const wideRedMiddle = () =>
  sharp({ create: { width: 900, height: 300, channels: 3, background: '#0000ff' } })
    .composite([
      {
        input: { create: { width: 300, height: 300, channels: 3, background: '#ff0000' } },
        left: 300,
        top: 0,
      },
    ])
    .png()
    .toBuffer()

describe('uploading an avatar', () => {
  it('turns a PNG into a 256 × 256 JPEG cropped at the centre, read back by its owner', async () => {
    const token = await person()
    const res = await uploadAvatar(api, token, await wideRedMiddle())
    expect(res.body.code).toBe(200)
    const data = uploadsApi.avatar.data.parse(res.body.data)
    expect(data).toMatchObject({ width: AVATAR_SIDE, height: AVATAR_SIDE, contentType: 'image/jpeg' })

    const back = await readAvatar(token, data.fileId)
    expect(back.status).toBe(200)
    expect(back.type).toBe('image/jpeg')
    const { data: pixels, info } = await sharp(back.bytes).raw().toBuffer({ resolveWithObject: true })
    expect(info).toMatchObject({ width: 256, height: 256 })
    // Every corner is from the red middle: the blue sides were cropped away.
    for (const [x, y] of [
      [2, 2],
      [253, 2],
      [2, 253],
      [253, 253],
    ]) {
      const at = (y * info.width + x) * info.channels
      expect(pixels[at], `red at ${x},${y}`).toBeGreaterThan(200)
      expect(pixels[at + 2], `blue at ${x},${y}`).toBeLessThan(60)
    }
    const row = await api.db.selectFrom('uploads').selectAll().where('id', '=', data.fileId).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ purpose: 'avatar', width: 256, height: 256 })
    expect(row.storage_key).toMatch(/^avatars\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.jpg$/)
  })

  it('makes a small picture the same 256 × 256, and takes WebP by its content', async () => {
    const token = await person()
    const res = await uploadAvatar(api, token, await jpeg(40, 30, { format: 'webp' }), 'tiny.jpg', 'image/jpeg')
    expect(res.body.data).toMatchObject({ width: 256, height: 256 })
  })

  it('refuses a text file renamed .png; nothing is stored', async () => {
    const token = await person()
    const before = await countUploads()
    const res = await uploadAvatar(api, token, Buffer.from('just some notes, not a picture\n'.repeat(20)), 'me.png', 'image/png')
    expect(res.body).toEqual({ code: Refusals.NOT_AN_IMAGE.code, msg: Refusals.NOT_AN_IMAGE.msg, data: null })
    expect(await countUploads()).toBe(before)
  })

  it('refuses more than 2 MB with the avatar’s own message, even a real image; nothing is stored', async () => {
    const token = await person()
    const before = await countUploads()
    const big = Buffer.concat([await jpeg(100, 100), Buffer.alloc(MAX_AVATAR_BYTES)])
    const res = await uploadAvatar(api, token, big, 'me.jpg', 'image/jpeg')
    expect(res.body).toEqual({
      code: Refusals.AVATAR_TOO_LARGE.code,
      msg: 'This photo is larger than 2 MB. Upload a smaller one',
      data: null,
    })
    expect(await countUploads()).toBe(before)
    // The same bytes are a fine card photo (5 MB): the limit is the avatar's own.
    expect((await upload(api, { token }, big)).body.code).toBe(200)
  })

  it('needs a signed-in person, and one multipart part named file', async () => {
    expect((await uploadAvatar(api, undefined, await jpeg(50, 50))).status).toBe(401)
    const token = await person()
    const json = await api.post('/v1/avatar/upload', { file: 'aGVsbG8=' }, { token })
    expect(json.status).toBe(400)
    expect(json.body.msg).toBe('file: Send the photo as multipart/form-data, in a part named file')
  })
})

describe('using and reading an avatar', () => {
  it('becomes headImg through setInfo, shown in userInfo', async () => {
    const token = await person()
    const { fileId } = (await uploadAvatar(api, token, await jpeg(300, 300, { format: 'png' }))).body.data
    const set = await api.post('/v1/user/setInfo', { userName: 'Ada', headImg: avatarPath(fileId) }, { token })
    expect(set.body).toMatchObject({ code: 200, data: { userName: 'Ada', headImg: `/avatar/${fileId}` } })
    const info = userIndexData.parse((await api.get('/v1/user/index', { token })).body.data).userInfo
    expect(info?.headImg).toBe(`/avatar/${fileId}`)
  })

  it('is read back by its owner only; a card photo is not an avatar', async () => {
    const owner = await person()
    const other = await person()
    const { fileId } = (await uploadAvatar(api, owner, await jpeg(300, 300))).body.data
    const theirs = await readAvatar(other, fileId)
    expect(theirs.type).toMatch(/^application\/json/)
    expect(JSON.parse(theirs.bytes.toString())).toMatchObject({ code: Refusals.IMAGE_NOT_FOUND.code })

    const cardPhoto = (await upload(api, { token: owner }, await jpeg(300, 300))).body.data.fileId
    expect(JSON.parse((await readAvatar(owner, cardPhoto)).bytes.toString())).toMatchObject({ code: Refusals.IMAGE_NOT_FOUND.code })
  })

  it('is never accepted as a card photo in an order', async () => {
    const token = await person()
    const { fileId } = (await uploadAvatar(api, token, await jpeg(300, 300))).body.data
    const res = await sell(api, token, { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds: [fileId] }] })
    expect(res.body.code).toBe(Refusals.IMAGE_NOT_FOUND.code)
  })
})
