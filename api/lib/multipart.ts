import busboy from 'busboy'
import type { Request } from 'express'
import { Refusals, type Refusal } from '#contract/refusals'
import { badRequest, refuse } from './envelope'

/**
 * Reads the one file of a multipart/form-data upload (busboy, streamed): at most `maxBytes` are
 * ever held, the rest of an oversized body is never buffered. Other (text) parts are ignored.
 * Refuses: not multipart, no file, a second file, a file under another name, too large (with
 * `tooLarge`, FILE_TOO_LARGE unless told).
 */
export function readOneFile(req: Request, options: { field: string; maxBytes: number; tooLarge?: Refusal }): Promise<Buffer> {
  const tooLarge = options.tooLarge ?? Refusals.FILE_TOO_LARGE
  if (!req.is('multipart/form-data')) {
    return Promise.reject(badRequest(`${options.field}: Send the photo as multipart/form-data, in a part named ${options.field}`))
  }
  // Slack for the multipart framing around the file.
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > options.maxBytes + 64 * 1024) return Promise.reject(refuse(tooLarge))

  return new Promise<Buffer>((resolve, reject) => {
    let bb: busboy.Busboy
    try {
      bb = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: options.maxBytes, fields: 20, fieldSize: 1024, parts: 24, headerPairs: 20 },
      })
    } catch {
      reject(badRequest(`${options.field}: Send the photo as multipart/form-data, in a part named ${options.field}`))
      return
    }
    let settled = false
    let file: Buffer | undefined
    const fail = (err: unknown) => {
      if (settled) return
      settled = true
      // Stop reading: what is still coming is dropped, never held (the answer closes the connection).
      req.unpipe(bb)
      req.resume()
      reject(err)
    }
    const malformed = () => fail(badRequest(`${options.field}: The upload is not a well-formed multipart body`))
    bb.on('file', (name, stream) => {
      // A body cut short errors the part's stream too: unhandled, that would end the process.
      stream.on('error', malformed)
      if (name !== options.field) {
        stream.resume()
        fail(badRequest(`${options.field}: The photo goes in a part named ${options.field}`))
        return
      }
      const chunks: Buffer[] = []
      let size = 0
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length
        chunks.push(chunk)
      })
      stream.on('limit', () => fail(refuse(tooLarge)))
      stream.on('end', () => {
        if (!settled && !stream.truncated) file = Buffer.concat(chunks, size)
      })
    })
    bb.on('filesLimit', () => fail(badRequest(`${options.field}: Send one photo per upload`)))
    bb.on('partsLimit', () => fail(badRequest(`${options.field}: Send one photo per upload`)))
    bb.on('fieldsLimit', () => fail(badRequest(`${options.field}: Send one photo per upload`)))
    bb.on('error', malformed)
    bb.on('close', () => {
      if (settled) return
      if (!file || file.length === 0) return fail(badRequest(`${options.field}: Choose a photo to upload`))
      settled = true
      resolve(file)
    })
    req.on('aborted', () => fail(badRequest('body: The upload was interrupted')))
    req.pipe(bb)
  })
}
