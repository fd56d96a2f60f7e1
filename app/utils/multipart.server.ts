import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { type AppLoadContext, data } from '@remix-run/node'
import busboy from 'busboy'
import { FORM_MAX_BYTES } from './form-parse.server'
import { readForm } from './form.server'
import { accessMessages } from './messages'
import { isThrownAnswer } from './thrown.server'

/**
 * Reads a multipart/form-data body as it arrives (busboy, as the api does): text fields into a
 * FormData, and each file, in body order, handed to `onFile` as a stream it must consume. Nothing
 * is held whole. A file over `fileBytes`, too many parts, or a broken body stops the reading at
 * once and rejects with MultipartError: the rest of the body is never read (answer it with
 * `Connection: close`, see `refusedBodyHeaders`). The route's byte limit (body-limit.server.ts)
 * bounds the whole body on top of this.
 */
export type MultipartLimits = {
  /** Files in one body. */
  files: number
  /** Bytes of one file. */
  fileBytes: number
  /** Text fields in one body. */
  fields: number
  /** Bytes of one text field. */
  fieldBytes: number
}

export type MultipartFile = {
  /** The part's field name. */
  name: string
  /** The bytes, as they arrive. */
  stream: AsyncIterable<Uint8Array>
  /** What the browser says it is (never trusted: the api reads the bytes). */
  mimeType: string
}

export type MultipartErrorReason =
  | 'not-multipart'
  | 'malformed'
  | 'too-many-files'
  | 'too-many-fields'
  | 'field-too-large'
  | 'file-too-large'
  /** Past the route's byte limit (body-limit.server.ts). */
  | 'body-too-large'

export class MultipartError extends Error {
  constructor(
    readonly reason: MultipartErrorReason,
    /** The field of the file or text that was refused. */
    readonly field?: string,
  ) {
    super(`multipart body refused: ${reason}`)
    this.name = 'MultipartError'
  }
}

export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')
}

/** An answer to a body that was not read to its end: the connection closes instead of draining it. */
export const refusedBodyHeaders = { Connection: 'close' } as const

export function readMultipart<T>(
  request: Request,
  limits: MultipartLimits,
  onFile: (file: MultipartFile, signal: AbortSignal) => Promise<T>,
): Promise<{ form: FormData; files: Array<{ name: string; result: T }> }> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!isMultipart(request) || !request.body) return Promise.reject(new MultipartError('not-multipart'))
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: {
        files: limits.files,
        fileSize: limits.fileBytes,
        fields: limits.fields,
        fieldSize: limits.fieldBytes,
        parts: limits.files + limits.fields,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    })
  } catch {
    return Promise.reject(new MultipartError('malformed'))
  }
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>)
  const form = new FormData()
  const pending: Array<Promise<{ name: string; result: T }>> = []
  const abort = new AbortController()
  const open = new Set<Readable>()

  return new Promise((resolve, reject) => {
    let settled = false
    const fail = (error: unknown) => {
      if (settled) return
      settled = true
      // Stop reading: uploads in flight are cancelled (their streams end in an error, so nothing
      // waits for bytes that will not come), the rest of the body is left unread.
      abort.abort(error)
      for (const stream of open) stream.destroy(new MultipartError('malformed'))
      source.unpipe(parser)
      source.pause()
      reject(error instanceof MultipartError ? error : new MultipartError('malformed'))
    }
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) return fail(new MultipartError('field-too-large', name))
      form.append(name, value)
    })
    parser.on('file', (name, stream, info) => {
      // A body cut short errors the part's stream too: unhandled, that would end the process.
      stream.on('error', () => fail(new MultipartError('malformed', name)))
      stream.on('limit', () => fail(new MultipartError('file-too-large', name)))
      // An empty file input is sent as a part without a file name: nothing was chosen.
      if (!info.filename) {
        stream.resume()
        return
      }
      open.add(stream)
      stream.on('close', () => open.delete(stream))
      const upload = onFile({ name, stream, mimeType: info.mimeType }, abort.signal)
        .then((result) => ({ name, result }))
        .finally(() => stream.resume()) // a handler that gave up early must not stall the parser
      upload.catch(() => undefined) // settled below, together
      pending.push(upload)
    })
    parser.on('filesLimit', () => fail(new MultipartError('too-many-files')))
    parser.on('fieldsLimit', () => fail(new MultipartError('too-many-fields')))
    parser.on('partsLimit', () => fail(new MultipartError('too-many-fields')))
    parser.on('error', () => fail(new MultipartError('malformed')))
    parser.on('close', () => {
      void Promise.allSettled(pending).then((outcomes) => {
        if (settled) return
        settled = true
        // A handler that threw (not a refusal it answered): its error, as it is.
        const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')
        if (failed) return reject(failed.reason)
        resolve({ form, files: outcomes.map((o) => (o as PromiseFulfilledResult<{ name: string; result: T }>).value) })
      })
    })
    // Past the route's byte limit (the web process's BodyTooLargeError, known by name: it is not
    // this bundle's class), or the browser went away.
    source.on('error', (error) => fail(new MultipartError(error?.name === 'BodyTooLargeError' ? 'body-too-large' : 'malformed')))
    source.pipe(parser)
  })
}

/**
 * A form without files posted to a route whose byte limit is made for files (body-limit.server.ts,
 * `streamed`): read within the limit of every other form, then as every form is (readForm). Past
 * it: 413, the rest of the body unread.
 */
export async function readSmallForm(context: Pick<AppLoadContext, 'requestId'>, request: Request): Promise<FormData> {
  const max = FORM_MAX_BYTES
  const tooLarge = () => data({ message: accessMessages.tooLarge }, { status: 413, headers: refusedBodyHeaders })
  if (Number(request.headers.get('content-length') ?? 0) > max) throw tooLarge()
  const chunks: Uint8Array[] = []
  let size = 0
  if (request.body) {
    const reader = request.body.getReader()
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        size += value.length
        if (size > max) {
          void reader.cancel().catch(() => undefined)
          throw tooLarge()
        }
        chunks.push(value)
      }
    } catch (error) {
      if (isThrownAnswer(error)) throw error
      return new FormData() // a body that broke off reads as an empty form, as readForm reads one
    }
  }
  const headers = new Headers(request.headers)
  headers.delete('content-length')
  return readForm(
    context,
    new Request(request.url, { method: request.method, headers, body: size ? Buffer.concat(chunks, size) : undefined }),
  )
}
