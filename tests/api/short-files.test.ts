import { describe, expect, it } from 'vitest'
import { Refusals } from '#contract/refusals'
import { seedUser } from '../support/api'
import { newEmail } from '../support/kit'
import { upload, useSellingApi } from '../support/selling'

/**
 * Files cut short right after a known signature: the type sniffer reads past their end. Each is
 * "not an image" like any other file, for card photos and avatars alike, and nothing is logged
 * as an error (tests/support/setup.ts fails a test on an error line).
 */
const api = useSellingApi()

const SHORT_FILES: Record<string, string> = {
  'an 8-byte TIFF header': '49492a0008000000',
  'a big-endian TIFF header': '4d4d002a00000008',
  'a bare PNG signature': '89504e470d0a1a0a',
  'an ID3 tag header': '4944330300000000',
  'an EBML header': '1a45dfa3',
  'an Ogg page header': '4f676753',
  'a JPEG start of image': 'ffd8ff',
}

describe.each(['card photo', 'avatar'] as const)('a short file as a %s', (purpose) => {
  it.each(Object.entries(SHORT_FILES))('%s is "not an image", 200 with the refusal, nothing stored', async (_name, hex) => {
    const { token } = await seedUser(api, { email: newEmail('short') })
    const before = api.logs.length
    const bytes = Buffer.from(hex, 'hex')
    const res = purpose === 'card photo' ? await upload(api, { token }, bytes) : await avatar(token, bytes)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ code: Refusals.NOT_AN_IMAGE.code, msg: Refusals.NOT_AN_IMAGE.msg, data: null })
    const stored = await api.db
      .selectFrom('uploads')
      .select('id')
      .where('user_id', '=', (await me(token)).userId)
      .execute()
    expect(stored).toEqual([])
    expect(api.logs.slice(before).filter((l) => JSON.parse(l).level >= 50)).toEqual([])
  })
})

async function avatar(token: string, bytes: Buffer) {
  const form = new FormData()
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'me.png')
  const res = await fetch(`${api.url}/v1/avatar/upload`, { method: 'POST', headers: { clientType: 'h5', token }, body: form })
  return { status: res.status, body: await res.json() }
}

async function me(token: string) {
  return (await api.get<{ userInfo: { userId: string } }>('/v1/user/index', { token })).body.data.userInfo
}
