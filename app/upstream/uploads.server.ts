import { randomBytes } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { AppLoadContext } from '@remix-run/node'
import { reviewDeskApi } from '#contract/ops/review'
import { Refusals, type Refusal } from '#contract/refusals'
import { fileIdField, MAX_AVATAR_BYTES, MAX_UPLOAD_BYTES, UPLOAD_FIELD, uploadData, uploadsApi, type UploadData } from '#contract/uploads'
import { opsMessages } from '~/ops/messages'
import { staffSignInResponse } from '~/ops/session.server'
import { expiredResponse, getToken } from '~/utils/auth.server'
import { getWebEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { profileMessages, transportMessages } from '~/utils/messages'
import { sellingMessages as M } from '~/utils/selling-messages'
import { isThrownAnswer } from '~/utils/thrown.server'
import { fromResponse, fromThrown, UpstreamError } from './client.server'
import { flow, type FlowResult } from './flow.server'

/**
 * Card photos and avatars (contract/uploads.ts): the api calls that are not JSON, so they cannot go
 * through upstream.call. Both stream: a photo goes to the api as the browser sends it, and comes
 * back to its owner as the api reads it from storage, never held whole by the web. Otherwise they
 * behave as every other call (SPEC §7 headers, the spec's timeout, the §8 messages, 401 → /login).
 */

/** The api's address for a path, joined as ofetch joins its baseURL. */
function apiUrl(path: string): string {
  return `${getWebEnv().API_BASE_URL.replace(/\/+$/, '')}${path}`
}

/** A staff member's call carries their Bearer token and never the person's cookie token. */
async function apiHeaders(request: Request, context: AppLoadContext, staffToken?: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = { clientType: 'h5' }
  const token = staffToken ? undefined : await getToken(request)
  if (staffToken) headers.authorization = `Bearer ${staffToken}`
  if (token) headers.token = token
  const ip = context.clientAddress
  if (ip && isIP(ip)) headers['x-forwarded-for'] = ip
  if (context.requestId) headers['x-request-id'] = context.requestId
  return headers
}

function deadline(...signals: Array<AbortSignal | undefined>): AbortSignal {
  return AbortSignal.any([AbortSignal.timeout(getWebEnv().UPSTREAM_TIMEOUT_MS), ...signals.filter((s): s is AbortSignal => Boolean(s))])
}

/** Whatever the api answers first, at most this much of it is read (an envelope is small). */
const MAX_ANSWER_BYTES = 64 * 1024

/**
 * POST a body that arrives bit by bit, with node:http (fetch, on an upload it abandoned halfway,
 * reconnects to the api for nothing). The request ends with the body, or is destroyed with it: a
 * body that fails, the deadline, or the caller's signal. The api may answer before the body ends
 * (a refusal): that answer counts.
 */
function postStream(url: string, headers: Record<string, string>, body: AsyncIterable<Uint8Array>, signal: AbortSignal) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const target = new URL(url)
    const req = (target.protocol === 'https:' ? https : http).request(target, { method: 'POST', headers, signal }, (res) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_ANSWER_BYTES) return req.destroy(new Error('answer too large'))
        chunks.push(chunk)
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    pipeline(Readable.from(body), req).catch(reject) // a failed body destroys the request
  })
}

class PhotoTooLarge extends Error {}

/** A card photo or an avatar: one pipeline, its own api call, limit and messages. */
type UploadVariant = {
  path: string
  maxBytes: number
  tooLarge: Refusal
  fallback: string
  /**
   * Past `maxBytes`, read the rest of the photo away (never sent) instead of breaking off: the
   * form it came in is then read to its end and its page can answer in words. The route's byte
   * limit (body-limit.server.ts) bounds how much that is.
   */
  readToEnd: boolean
  /** A reviewer's proof photo: sent with their Bearer token; an ended session goes to the staff sign-in. */
  staffToken?: string
}

const CARD_PHOTO: UploadVariant = {
  path: uploadsApi.upload.path,
  maxBytes: MAX_UPLOAD_BYTES,
  tooLarge: Refusals.FILE_TOO_LARGE,
  fallback: M.uploadFailed,
  readToEnd: false,
}
const AVATAR: UploadVariant = {
  path: uploadsApi.avatar.path,
  maxBytes: MAX_AVATAR_BYTES,
  tooLarge: Refusals.AVATAR_TOO_LARGE,
  fallback: profileMessages.uploadFailed,
  readToEnd: true,
}

/**
 * POST /v1/file/upload with one photo, streamed as it arrives in a one-part multipart body. Past
 * MAX_UPLOAD_BYTES the sending stops (the api is never sent the rest) and the answer is the api's
 * own FILE_TOO_LARGE refusal. The type is the api's to judge, from the bytes.
 */
export function uploadPhotoFlow(
  request: Request,
  context: AppLoadContext,
  photo: AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
): Promise<FlowResult<UploadData>> {
  return uploadFlow(CARD_PHOTO, request, context, photo, signal)
}

/** POST /v1/avatar/upload: the same, for a profile photo (≤ MAX_AVATAR_BYTES, AVATAR_TOO_LARGE past it). */
export function uploadAvatarFlow(
  request: Request,
  context: AppLoadContext,
  photo: AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
): Promise<FlowResult<UploadData>> {
  return uploadFlow(AVATAR, request, context, photo, signal)
}

/** POST /admin/file/upload: a reviewer's proof photo for a rejection, the same pipeline as a card photo. */
export function uploadProofFlow(
  request: Request,
  context: AppLoadContext,
  staffToken: string,
  photo: AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
): Promise<FlowResult<UploadData>> {
  return uploadFlow({ ...CARD_PHOTO, path: reviewDeskApi.upload.path, staffToken }, request, context, photo, signal)
}

function uploadFlow(
  variant: UploadVariant,
  request: Request,
  context: AppLoadContext,
  photo: AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
): Promise<FlowResult<UploadData>> {
  return flow(context, variant.fallback, () => observed(context, variant.path, () => sendPhoto(variant, request, context, photo, signal)))
}

/**
 * How an upload ended, for the web's metrics as every other api call (client.server.ts): its
 * contract path, `ok` or the failure's kind, how long it took. A thrown Response is the 401 path.
 */
async function observed<T>(context: AppLoadContext, path: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now()
  const report = (outcome: string) => context.observeUpstream(path, outcome, (performance.now() - started) / 1000)
  try {
    const result = await run()
    report('ok')
    return result
  } catch (error) {
    report(error instanceof UpstreamError ? error.kind : error instanceof Response ? 'expired' : 'unknown')
    throw error
  }
}

async function sendPhoto(
  variant: UploadVariant,
  request: Request,
  context: AppLoadContext,
  photo: AsyncIterable<Uint8Array>,
  signal?: AbortSignal,
): Promise<UploadData> {
  const boundary = `----cardlane-${randomBytes(12).toString('hex')}`
  let tooLarge = false
  // Read by hand, so that stopping the upload does not end the photo (readToEnd decides).
  const source = photo[Symbol.asyncIterator]()
  async function* body() {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${UPLOAD_FIELD}"; filename="photo"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    )
    let size = 0
    for (let next = await source.next(); !next.done; next = await source.next()) {
      size += next.value.length
      if (size > variant.maxBytes) {
        tooLarge = true
        throw new PhotoTooLarge()
      }
      yield next.value
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`)
  }
  let status: number
  let text: string
  try {
    ;({ status, text } = await postStream(
      apiUrl(variant.path),
      {
        ...(await apiHeaders(request, context, variant.staffToken)),
        accept: 'application/json',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body(),
      deadline(signal),
    ))
  } catch (error) {
    if (tooLarge) throw new UpstreamError('refused', variant.tooLarge.msg, { code: variant.tooLarge.code })
    throw fromThrown(error)
  } finally {
    await finish(source, variant.readToEnd)
  }
  const envelope = await answered(request, () => fromResponse<unknown>(status, text), variant.staffToken !== undefined)
  const parsed = uploadData.safeParse(envelope.data)
  if (!parsed.success) {
    logger.error(
      { path: variant.path, issues: parsed.error.issues.slice(0, 3), requestId: context.requestId },
      'api answer does not fit the contract',
    )
    throw new UpstreamError('unknown', transportMessages.unknown, { status })
  }
  return parsed.data
}

/** After an upload: the rest of the photo read away (readToEnd), or the photo ended at once. */
async function finish(source: AsyncIterator<Uint8Array>, readToEnd: boolean): Promise<void> {
  try {
    if (!readToEnd) await source.return?.()
    else while (!(await source.next()).done);
  } catch {
    // The body broke off or was cut at the route's limit: nothing more to read.
  }
}

/** A 401 from the api ends here as everywhere (call-api.server.ts): session gone, to /login (a staff member's to /ops/login). */
async function answered<T>(request: Request, read: () => T, staff = false): Promise<T> {
  try {
    return read()
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'expired')
      throw staff ? await staffSignInResponse(request, opsMessages.sessionEnded) : await expiredResponse(request)
    throw error
  }
}

/** Private to one person: no cache may keep it, no page of another site may embed it. */
const PHOTO_HEADERS = {
  'Cache-Control': 'private, no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Disposition': 'inline; filename="card-photo.jpg"',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

/**
 * An avatar is shown on every page that shows the person: their own browser may keep it for an
 * hour (an avatar's id never changes its picture; a new photo is a new id). No shared cache.
 */
const AVATAR_HEADERS = {
  ...PHOTO_HEADERS,
  'Cache-Control': 'private, max-age=3600',
  'Content-Disposition': 'inline; filename="avatar.jpg"',
}

const photoRefusal = (status: number, message: string) =>
  new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })

/**
 * GET /v1/file/get?id= (or /v1/avatar/get for an avatar) for the signed-in person: the image bytes streamed through, or a refusal
 * (not theirs, unknown, malformed: 404 alike). The api answers bytes or a JSON envelope; the
 * Content-Type tells them apart (contract/uploads.ts).
 */
export async function photoResponse(
  request: Request,
  context: AppLoadContext,
  id: string,
  kind: 'card' | 'avatar' | { staffToken: string } = 'card',
): Promise<Response> {
  const staffToken = typeof kind === 'object' ? kind.staffToken : undefined
  const parsedId = fileIdField.safeParse(id)
  if (!parsedId.success) return photoRefusal(404, Refusals.IMAGE_NOT_FOUND.msg)
  const query = new URLSearchParams({ id: parsedId.data, _t: String(Date.now()) })
  const path = staffToken ? reviewDeskApi.file.path : kind === 'avatar' ? uploadsApi.avatarFile.path : uploadsApi.file.path
  let response: Response
  try {
    response = await fetch(`${apiUrl(path)}?${query}`, {
      headers: { ...(await apiHeaders(request, context, staffToken)), accept: 'image/*, application/json' },
      signal: deadline(request.signal),
    })
  } catch (error) {
    return photoRefusal(503, fromThrown(error).message)
  }
  const type = response.headers.get('content-type') ?? ''
  if (response.ok && /^image\//i.test(type) && response.body) {
    const headers = new Headers({ ...(kind === 'avatar' ? AVATAR_HEADERS : PHOTO_HEADERS), 'Content-Type': type })
    const length = response.headers.get('content-length')
    if (length) headers.set('Content-Length', length)
    return new Response(response.body, { status: 200, headers })
  }
  let text = ''
  try {
    text = await response.text()
  } catch (error) {
    return photoRefusal(503, fromThrown(error).message)
  }
  try {
    await answered(request, () => fromResponse(response.status, text), staffToken !== undefined)
    // A 200 envelope where bytes were expected: not the api we know.
    return photoRefusal(502, transportMessages.unknown)
  } catch (error) {
    if (isThrownAnswer(error)) throw error
    if (error instanceof UpstreamError && error.code === Refusals.IMAGE_NOT_FOUND.code) return photoRefusal(404, error.message)
    if (error instanceof UpstreamError && error.status === 400) return photoRefusal(404, Refusals.IMAGE_NOT_FOUND.msg)
    return photoRefusal(503, error instanceof Error ? error.message : transportMessages.unknown)
  }
}
