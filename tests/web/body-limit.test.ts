import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { describe, expect, it } from 'vitest'
import { FORM_MAX_BYTES } from '~/utils/form-parse.server'
import { BodyTooLargeError, bodyLimitFor, FORM_BODY_LIMIT, limitStream } from '../../server/body-limit'

/**
 * The per-route byte limits the web process (server/body-limit.ts) applies before Remix reads a body (its HTTP behaviour is in
 * server.test.ts). Uploads, when a route takes them, get a row of their own and a stream that
 * fails past its limit instead of a buffer.
 */
describe('bodyLimitFor', () => {
  const table = [['/sell/photos', { maxBytes: 8 * 1024 * 1024, streamed: true }]] as const

  it('forms get 256 kB; a route with a row gets its own limit, for its sub-paths too, not for look-alikes', () => {
    expect(bodyLimitFor('/login')).toEqual({ maxBytes: 256 * 1024 })
    expect(bodyLimitFor('/sell/photos', table)).toEqual({ maxBytes: 8 * 1024 * 1024, streamed: true })
    expect(bodyLimitFor('/sell/photos/2', table).streamed).toBe(true)
    expect(bodyLimitFor('/sell/photos-evil', table)).toBe(FORM_BODY_LIMIT)
  })

  it('a plain form is read by the app within what the process lets through, no more, no less', () => {
    expect(FORM_MAX_BYTES).toBe(FORM_BODY_LIMIT.maxBytes)
  })
})

describe('limitStream (streamed routes)', () => {
  const source = (chunks: number, size = 1024) => Readable.from(Array.from({ length: chunks }, () => Buffer.alloc(size, 'a')))

  it('passes a body within the limit through unchanged', async () => {
    expect((await text(limitStream(source(4), 4096))).length).toBe(4096)
  })

  it('fails with BodyTooLargeError once the bytes that arrived pass the limit, and stops reading', async () => {
    const body = source(10_000)
    await expect(text(limitStream(body, 4096))).rejects.toBeInstanceOf(BodyTooLargeError)
    expect(body.readableFlowing).not.toBe(true)
  })
})
