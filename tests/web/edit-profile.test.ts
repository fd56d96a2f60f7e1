import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { NICKNAME_MAX, NICKNAME_MIN } from '#contract/profile-rules'
import { Refusals } from '#contract/refusals'
import { avatarPath, IMAGE_TYPES } from '#contract/upload-rules'
import * as root from '~/root'
import * as avatar from '~/routes/avatar.$id'
import * as editProfile from '~/routes/edit-profile'
import * as photoUpload from '~/routes/edit-profile_.photo'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { jpeg, useSellingApi } from '../support/selling'
import { call, jsonOf, load, makeRequest, ORIGIN, signedInJar, submit, type CookieJar } from '../support/web'

/**
 * Edit Profile with real Requests: without JavaScript one multipart form (photo + nickname), with it
 * the photo first to /edit-profile/photo, then a small form with its id. The api is the real one
 * (photos in a temporary folder); what a person sees afterwards is read from the root loader.
 */
const api = useSellingApi({ web: true })

async function person(userName = 'Before') {
  const { user, token } = await seedUser(api, { email: newEmail('profile'), userName })
  return { user, jar: await signedInJar(token) }
}

/** A multipart POST as a browser sends the form without JavaScript. */
function multipart(
  path: string,
  jar: CookieJar,
  fields: Record<string, string>,
  file?: { name: string; bytes: Buffer; filename: string; type: string },
) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  if (file) form.append(file.name, new Blob([file.bytes], { type: file.type }), file.filename)
  return new Request(new URL(path, ORIGIN), { method: 'POST', body: form, headers: { Cookie: jar.header() } })
}

const photo = async (bytes?: Buffer, filename = 'me.png', type = 'image/png') => ({
  name: 'photo',
  bytes: bytes ?? (await jpeg(600, 400, { format: 'png' })),
  filename,
  type,
})

async function userOf(jar: CookieJar) {
  return (await jsonOf(await load(root.loader, '/account', jar))).user as { userName: string; headImg: string | null }
}

const NOT_A_PHOTO = Buffer.from('these are my notes, not a picture at all\n'.repeat(30))

describe('the form’s native constraints', () => {
  it('the loader gives the nickname’s lengths, which the screen shows without loading the rules (decision 066)', async () => {
    const { jar } = await person()
    const data = (await jsonOf(await load(editProfile.loader, '/edit-profile', jar))) as {
      formConstraints: Record<string, Record<string, { minLength?: number; maxLength?: number; required?: boolean }>>
    }
    expect(data.formConstraints['edit-profile']!.userName).toMatchObject({
      required: true,
      minLength: NICKNAME_MIN,
      maxLength: NICKNAME_MAX,
    })
  })

  it('the loader gives the photo’s accepted types and where an uploaded one is served: the upload rules load when a photo is chosen', async () => {
    const { jar } = await person()
    const data = await jsonOf(await load(editProfile.loader, '/edit-profile', jar))
    expect(data).toMatchObject({ photoTypes: IMAGE_TYPES.join(','), avatarAt: avatarPath('') })
    expect(data.avatarAt + 'x').toBe(avatarPath('x'))
  })
})

describe('without JavaScript: one multipart form', () => {
  it('saves the nickname and the photo: a 256 × 256 JPEG served at /avatar/:id to its owner only', async () => {
    const { jar } = await person()
    const res = await call(editProfile.action, multipart('/edit-profile', jar, { userName: '  Ada Photo ' }, await photo()), {}, jar)
    expect(res).toHaveRedirect('/account')
    await expect(res).toSendToast({ type: 'success', message: 'Profile updated' })
    const user = await userOf(jar)
    expect(user.userName).toBe('Ada Photo')
    expect(user.headImg).toMatch(/^\/avatar\/[0-9a-f-]{36}$/)

    const id = user.headImg!.split('/').pop()!
    const image = await load(avatar.loader, user.headImg!, jar, { id })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/jpeg')
    expect(image.headers.get('cache-control')).toBe('private, max-age=3600')
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ format: 'jpeg', width: 256, height: 256 })

    const stranger = await person()
    expect((await load(avatar.loader, user.headImg!, stranger.jar, { id })).status).toBe(404)
  })

  it('a text file renamed .png: its message under the photo, the nickname kept in the form, nothing changed', async () => {
    const { jar } = await person()
    const res = await call(editProfile.action, multipart('/edit-profile', jar, { userName: 'New Name' }, await photo(NOT_A_PHOTO)), {}, jar)
    expect(res.status).toBe(400)
    const reply = await jsonOf(res)
    expect(reply.result.error.photo).toEqual([Refusals.NOT_AN_IMAGE.msg])
    expect(reply.result.initialValue.userName).toBe('New Name')
    expect(await userOf(jar)).toMatchObject({ userName: 'Before', headImg: null })
  })

  it('a photo over 2 MB: "larger than 2 MB", nothing changed', async () => {
    const { jar } = await person()
    const big = Buffer.concat([await jpeg(200, 200), Buffer.alloc(2 * 1024 * 1024 + 10)])
    const res = await call(
      editProfile.action,
      multipart('/edit-profile', jar, { userName: 'New Name' }, await photo(big, 'big.jpg', 'image/jpeg')),
      {},
      jar,
    )
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).result.error.photo).toEqual(['This photo is larger than 2 MB. Upload a smaller one'])
    expect(await userOf(jar)).toMatchObject({ userName: 'Before', headImg: null })
  })

  it('a nickname too long or empty: nothing saved; the photo that came with it waits for the next try', async () => {
    const { jar } = await person()
    const long = await call(editProfile.action, multipart('/edit-profile', jar, { userName: 'x'.repeat(21) }, await photo()), {}, jar)
    expect(long.status).toBe(400)
    const reply = await jsonOf(long)
    expect(reply.result.error.userName).toEqual(['Nickname must be at most 20 characters'])
    expect(reply.avatarId).toMatch(/^[0-9a-f-]{36}$/)
    expect(await userOf(jar)).toMatchObject({ userName: 'Before', headImg: null })

    const empty = await call(editProfile.action, multipart('/edit-profile', jar, { userName: ' ', avatarId: reply.avatarId }), {}, jar)
    expect((await jsonOf(empty)).result.error.userName).toEqual(['Nickname is required'])
    const missing = await submit(editProfile.action, '/edit-profile', { userName: '' }, jar)
    expect((await jsonOf(missing)).result.error.userName).toEqual(['Nickname is required'])
    const short = await submit(editProfile.action, '/edit-profile', { userName: 'x', avatarId: reply.avatarId }, jar)
    expect((await jsonOf(short)).result.error.userName).toEqual(['Nickname must be at least 2 characters'])
    expect(await userOf(jar)).toMatchObject({ userName: 'Before', headImg: null })

    // The next submit, without choosing the photo again (an empty file part, as browsers send it).
    const noFile = { name: 'photo', bytes: Buffer.alloc(0), filename: '', type: 'application/octet-stream' }
    const saved = await call(
      editProfile.action,
      multipart('/edit-profile', jar, { userName: 'Ada', avatarId: reply.avatarId }, noFile),
      {},
      jar,
    )
    expect(saved).toHaveRedirect('/account')
    expect(await userOf(jar)).toEqual(expect.objectContaining({ userName: 'Ada', headImg: `/avatar/${reply.avatarId}` }))
  })

  it('without a photo chosen, saves the nickname and keeps the avatar', async () => {
    const { jar } = await person()
    await call(editProfile.action, multipart('/edit-profile', jar, { userName: 'First' }, await photo()), {}, jar)
    const before = (await userOf(jar)).headImg
    const res = await call(editProfile.action, multipart('/edit-profile', jar, { userName: 'Second' }), {}, jar)
    expect(res).toHaveRedirect('/account')
    expect(await userOf(jar)).toMatchObject({ userName: 'Second', headImg: before })
  })

  it('two photos in one form: refused, nothing changed', async () => {
    const { jar } = await person()
    const form = new FormData()
    form.append('userName', 'Two')
    for (const n of [1, 2]) form.append('photo', new Blob([await jpeg(50, 50)], { type: 'image/jpeg' }), `${n}.jpg`)
    const res = await call(
      editProfile.action,
      new Request(new URL('/edit-profile', ORIGIN), { method: 'POST', body: form, headers: { Cookie: jar.header() } }),
    )
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).result.error.photo).toEqual(['Choose one photo'])
    expect((await userOf(jar)).userName).toBe('Before')
  })
})

describe('with JavaScript: the photo first, then the form', () => {
  const upload = (jar: CookieJar, bytes: Buffer, filename = 'me.png') =>
    call(photoUpload.action, multipart('/edit-profile/photo', jar, {}, { name: 'file', bytes, filename, type: 'image/png' }))

  it('uploads the photo (JSON with its id), then saves it with the nickname', async () => {
    const { jar } = await person()
    const res = await upload(jar, await jpeg(500, 300, { format: 'webp' }))
    expect(res.status).toBe(200)
    const { fileId } = await jsonOf(res)
    expect(fileId).toMatch(/^[0-9a-f-]{36}$/)
    expect(await userOf(jar)).toMatchObject({ headImg: null }) // nothing changes until Save

    const saved = await submit(editProfile.action, '/edit-profile', { userName: 'Scripted', avatarId: fileId }, jar)
    expect(saved).toHaveRedirect('/account')
    expect(await userOf(jar)).toMatchObject({ userName: 'Scripted', headImg: `/avatar/${fileId}` })
  })

  it('refuses a file that is not a photo, and one over 2 MB, with their messages', async () => {
    const { jar } = await person()
    const text = await upload(jar, NOT_A_PHOTO)
    expect(text.status).toBe(400)
    expect(await jsonOf(text)).toEqual({ error: Refusals.NOT_AN_IMAGE.msg })
    const big = await upload(jar, Buffer.concat([await jpeg(100, 100), Buffer.alloc(2 * 1024 * 1024)]))
    expect(big.status).toBe(400)
    expect(await jsonOf(big)).toEqual({ error: 'This photo is larger than 2 MB. Upload a smaller one' })
  })

  it('refuses an id that is not an uploaded photo; nothing changed', async () => {
    const { jar } = await person()
    const res = await submit(editProfile.action, '/edit-profile', { userName: 'Forged', avatarId: '../../etc/passwd' }, jar)
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).result.error.avatarId).toEqual(['id is not a photo id'])
    expect(await userOf(jar)).toMatchObject({ userName: 'Before', headImg: null })
  })

  it('a visitor is sent to sign in, for the upload, the form and the avatar alike', async () => {
    const { jar } = await person()
    const visitor = new Request(new URL('/edit-profile/photo', ORIGIN), { method: 'POST', body: new FormData() })
    expect(await call(photoUpload.action, visitor)).toHaveRedirect(/^\/login/)
    expect(await call(editProfile.action, makeRequest('/edit-profile', { form: { userName: 'Someone' } }))).toHaveRedirect(/^\/login/)
    expect(await load(avatar.loader, '/avatar/x', undefined, { id: 'x' })).toHaveRedirect(/^\/login/)
    // A signed-in person with a malformed id: a 404, never the api's 400.
    expect((await load(avatar.loader, '/avatar/nope', jar, { id: 'nope' })).status).toBe(404)
  })
})
