import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Refusals } from '#contract/refusals'
import { MAX_UPLOAD_BYTES, uploadsApi } from '#contract/uploads'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { download, jpeg, upload, useSellingApi } from '../support/selling'
import { testStaffToken } from '../support/staff'

/** Card photos: typed by content, re-encoded without metadata, stored privately, served to the owner only. */
const api = useSellingApi()

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
const person = async () => (await seedUser(api, { email: newEmail('photos') })).token
const countUploads = async () =>
  Number(
    (
      await api.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

/** A PNG whose header claims `width` × `height` pixels, with no real picture behind it (a pixel bomb's shape). */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body), body.length + 4)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00])),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

describe('uploading a photo', () => {
  it('stores a re-encoded JPEG without EXIF or GPS, capped at 2000 px, privately', async () => {
    const token = await person()
    const original = await jpeg(3000, 1200, { gps: true })
    expect((await sharp(original).metadata()).exif).toBeDefined()
    const res = await upload(api, { token }, original, { filename: '../../etc/passwd.jpg' })
    expect(res.body.code).toBe(200)
    const data = uploadsApi.upload.data.parse(res.body.data)
    expect(data).toMatchObject({ width: 2000, height: 800, contentType: 'image/jpeg' })
    // No public URL in the answer: photos are read back through the api only.
    expect(res.text).not.toMatch(/https?:\/\//)

    const stored = files(api.uploadDir).filter((f) => f.includes(data.fileId))
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatch(/\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.jpg$/)
    expect(statSync(stored[0]).mode & 0o777).toBe(0o600)
    const meta = await sharp(readFileSync(stored[0])).metadata()
    expect(meta).toMatchObject({ format: 'jpeg', width: 2000, height: 800 })
    expect(meta.exif).toBeUndefined()
    expect(readFileSync(stored[0]).includes(Buffer.from('TestPhone'))).toBe(false)
  })

  it.each(['png', 'webp'] as const)('takes a %s by its content, whatever it is called', async (format) => {
    const token = await person()
    const res = await upload(api, { token }, await jpeg(300, 200, { format }), { filename: 'scan.pdf', contentType: 'application/pdf' })
    expect(res.body.data).toMatchObject({ width: 300, height: 200, contentType: 'image/jpeg' })
  })

  it('refuses a file that is not a photo, whatever its name and type say; nothing is stored', async () => {
    const token = await person()
    const before = await countUploads()
    const fake = Buffer.from('%PDF-1.7\nthis is not an image at all\n'.repeat(50))
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer()
    const truncated = (await jpeg(800, 600)).subarray(0, 400)
    for (const bytes of [fake, gif, truncated, Buffer.from([0xff, 0xd8, 0xff])]) {
      const res = await upload(api, { token }, bytes, { filename: 'card.jpg', contentType: 'image/jpeg' })
      expect(res.body).toEqual({ code: Refusals.NOT_AN_IMAGE.code, msg: Refusals.NOT_AN_IMAGE.msg, data: null })
    }
    expect(await countUploads()).toBe(before)
  })

  it('refuses a picture that claims too many pixels before decoding it', async () => {
    const token = await person()
    const res = await upload(api, { token }, pngClaiming(20_000, 20_000))
    expect(res.body.code).toBe(Refusals.IMAGE_TOO_LARGE.code)
  })

  it('refuses more than 5 MB, without keeping it', async () => {
    const token = await person()
    const before = await countUploads()
    const big = Buffer.concat([await jpeg(100, 100), Buffer.alloc(MAX_UPLOAD_BYTES)])
    const res = await upload(api, { token }, big)
    expect(res.body).toEqual({ code: Refusals.FILE_TOO_LARGE.code, msg: Refusals.FILE_TOO_LARGE.msg, data: null })
    expect(await countUploads()).toBe(before)
  })

  it('refuses more than 5 MB sent without a length (chunked), reading no more than the cap', async () => {
    const token = await person()
    const boundary = 'x-boundary-42'
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    )
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(head)
      },
      pull(c) {
        // Endless: the api must stop on its own.
        sent += 256 * 1024
        if (sent > 64 * 1024 * 1024) c.close()
        else c.enqueue(new Uint8Array(256 * 1024))
      },
    })
    const res = await fetch(`${api.url}/v1/file/upload`, {
      method: 'POST',
      headers: { token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit).catch((err: Error) => err)
    if (res instanceof Error) {
      // The api answered and closed the connection while the body was still coming: acceptable.
      expect(sent).toBeLessThan(64 * 1024 * 1024)
    } else {
      expect(await res.json()).toMatchObject({ code: Refusals.FILE_TOO_LARGE.code })
    }
  })

  it.each([
    ['two files in one call', { extraFiles: 1 }, 'file: Send one photo per upload'],
    ['a file under another name', { field: 'photo' }, 'file: The photo goes in a part named file'],
  ])('refuses %s with 400', async (_label, options, msg) => {
    const token = await person()
    const res = await upload(api, { token }, await jpeg(50, 50), options)
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(msg)
  })

  it('refuses a body that is not multipart, an empty file, and a call without a token', async () => {
    const token = await person()
    const json = await api.post('/v1/file/upload', { file: 'aGVsbG8=' }, { token })
    expect(json.status).toBe(400)
    expect(json.body.msg).toBe('file: Send the photo as multipart/form-data, in a part named file')
    expect((await upload(api, { token }, Buffer.alloc(0))).body.msg).toBe('file: Choose a photo to upload')
    expect((await upload(api, {}, await jpeg(50, 50))).status).toBe(401)
  })

  it('refuses broken multipart bodies with 400, never 500', async () => {
    const token = await person()
    const raw = (contentType: string, body: string) =>
      api.post('/v1/file/upload', undefined, { token, raw: body, headers: { 'content-type': contentType } })
    for (const [type, body] of [
      ['multipart/form-data', 'no boundary at all'],
      ['multipart/form-data; boundary=zz', 'garbage without any boundary'],
      ['multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nunterminated'],
      ['multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--zz--\r\n'],
    ]) {
      const res = await raw(type, body)
      expect(res.status, body).toBe(400)
      expect(res.body.msg).toMatch(/^(file|body): /)
    }
  })
})

describe('reading a photo back', () => {
  it('streams it to its owner and to operators; anyone else gets "not found", never the bytes', async () => {
    const owner = await person()
    const other = await person()
    const { fileId } = (await upload(api, { token: owner }, await jpeg(400, 300))).body.data
    const mine = await download(api, fileId, { token: owner })
    expect(mine.status).toBe(200)
    expect(mine.type).toBe('image/jpeg')
    expect(mine.headers.get('cache-control')).toBe('private, no-store')
    expect((await sharp(mine.bytes).metadata()).width).toBe(400)

    const theirs = await download(api, fileId, { token: other })
    expect(theirs.type).toMatch(/^application\/json/)
    expect(JSON.parse(theirs.bytes.toString())).toEqual({
      code: Refusals.IMAGE_NOT_FOUND.code,
      msg: Refusals.IMAGE_NOT_FOUND.msg,
      data: null,
    })
    expect((await download(api, fileId, {})).status).toBe(401)
    expect((await download(api, fileId, { admin: await testStaffToken(api) })).bytes.equals(mine.bytes)).toBe(true)
    expect((await download(api, fileId, { admin: 'wrong' })).status).toBe(401)
    expect(JSON.parse((await download(api, '00000000-0000-4000-8000-000000000000', { token: owner })).bytes.toString()).code).toBe(
      Refusals.IMAGE_NOT_FOUND.code,
    )
    expect((await download(api, '../../etc/passwd', { token: owner })).status).toBe(400)
  })
})

describe('a daily cap on uploads', () => {
  const capped = useSellingApi({ selling: { uploadsPerDay: 2 } })
  it('refuses the photo past the cap, and takes them again a day later', async () => {
    const { token } = await seedUser(capped, { email: newEmail('cap') })
    for (let i = 0; i < 2; i++) expect((await upload(capped, { token }, await jpeg(40, 40))).body.code).toBe(200)
    expect((await upload(capped, { token }, await jpeg(40, 40))).body.code).toBe(Refusals.UPLOAD_LIMIT.code)
    capped.clock.advance(24 * 3_600_000 + 1)
    expect((await upload(capped, { token }, await jpeg(40, 40))).body.code).toBe(200)
  })
})

describe('the s3 storage driver (against s3rver on 127.0.0.1)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cardlane-s3rver-'))
  const bucket = 'cardlane-photos'
  let s3rver: S3rver
  let endpoint = ''
  beforeAll(async () => {
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket }] })
    const address = await s3rver.run()
    endpoint = `http://127.0.0.1:${address.port}`
    process.env.TEST_S3_ENDPOINT = endpoint
  })
  afterAll(async () => {
    await s3rver?.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const s3api = useSellingApi({
    selling: {
      storage: {
        driver: 's3',
        bucket,
        // The endpoint is known once s3rver listens: the getter reads it when the api starts.
        get endpoint() {
          return process.env.TEST_S3_ENDPOINT
        },
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix: 'cardlane/',
      },
    },
  })

  it('puts the re-encoded photo in the bucket and reads it back for its owner only', async () => {
    const owner = (await seedUser(s3api, { email: newEmail('s3') })).token
    const other = (await seedUser(s3api, { email: newEmail('s3') })).token
    const res = await upload(s3api, { token: owner }, await jpeg(500, 500, { gps: true }))
    expect(res.body.code).toBe(200)
    const { fileId } = res.body.data
    const client = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    })
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'cardlane/' }))
    const key = listed.Contents?.map((o) => o.Key).find((k) => k?.endsWith(`${fileId}.jpg`))
    expect(key).toMatch(/^cardlane\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.jpg$/)
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
    const bytes = Buffer.from(await object.Body!.transformToByteArray())
    expect((await sharp(bytes).metadata()).exif).toBeUndefined()
    expect(readdirSync(s3api.uploadDir)).toEqual([])

    const mine = await download(s3api, fileId, { token: owner })
    expect(mine.type).toBe('image/jpeg')
    expect(mine.bytes.equals(bytes)).toBe(true)
    expect(JSON.parse((await download(s3api, fileId, { token: other })).bytes.toString()).code).toBe(Refusals.IMAGE_NOT_FOUND.code)
    client.destroy()
  })
})
