import { pipeline } from 'node:stream/promises'
import type { Request, Response } from 'express'
import { Refusals, type Refusal } from '#contract/refusals'
import { AVATAR_SIDE, MAX_AVATAR_BYTES, MAX_UPLOAD_BYTES, UPLOAD_FIELD, type UploadData } from '#contract/uploads'
import type { UploadPurpose, UploadRow } from '../db/schema'
import { writeTransaction } from '../db/transaction'
import { refuse } from '../lib/envelope'
import { ImageRefused, reencodeImage, sniffImageType } from '../lib/images'
import { readOneFile } from '../lib/multipart'
import { photoHash } from '../lib/phash'
import type { SellingDeps } from '../lib/selling-deps'
import { newId } from '../lib/tokens'
import { countUploadsSince, findOwnAvatar, findReadableUpload, findUpload, insertUpload } from '../models/uploads'
import { lockUser } from '../models/users'

/**
 * Card photos and avatars in and out (contract/uploads.ts). In: read (≤ 5 MB, or 2 MB for an
 * avatar, streamed), typed by content, re-encoded (an avatar cropped square and made small),
 * stored, recorded. Out: streamed from the storage to the owner or an operator only.
 */

const DAY = 86_400_000

/** Who uploads: a person (counted against UPLOADS_PER_DAY), or an operator's proof photo. */
export type Uploader = { userId: string } | { operator: string }

/** What differs between a card photo and an avatar: the rest of the pipeline is one. */
const VARIANTS: Record<UploadPurpose, { maxBytes: number; tooLarge: Refusal; square?: number; folder: string }> = {
  card: { maxBytes: MAX_UPLOAD_BYTES, tooLarge: Refusals.FILE_TOO_LARGE, folder: '' },
  avatar: { maxBytes: MAX_AVATAR_BYTES, tooLarge: Refusals.AVATAR_TOO_LARGE, square: AVATAR_SIDE, folder: 'avatars/' },
}

/** Room for the multipart framing around a file (as readOneFile allows). */
const MULTIPART_SLACK = 64 * 1024
const DRAIN_MS = 2_000

/** Reads and drops the rest of a request body if it declared at most `maxBytes` and ends within `ms`. */
function drainedWithin(req: Request, maxBytes: number, ms: number): Promise<boolean> {
  if (req.complete) return Promise.resolve(true)
  const declared = Number(req.headers['content-length'])
  if (!Number.isFinite(declared) || declared > maxBytes) return Promise.resolve(false)
  return new Promise((resolve) => {
    const done = (drained: boolean) => {
      clearTimeout(timer)
      req.off('end', ended).off('close', closed)
      resolve(drained)
    }
    const ended = () => done(true)
    const closed = () => done(req.complete)
    const timer = setTimeout(() => done(false), ms)
    req.on('end', ended).on('close', closed)
    req.resume()
  })
}

export async function uploadPhoto(
  deps: SellingDeps,
  who: Uploader,
  req: Request,
  res: Response,
  purpose: UploadPurpose = 'card',
): Promise<UploadData> {
  const variant = VARIANTS[purpose]
  const now = deps.now()
  let bytes: Buffer
  try {
    if ('userId' in who && (await countUploadsSince(deps.db, who.userId, now - DAY)) >= deps.config.selling.uploadsPerDay) {
      throw refuse(Refusals.UPLOAD_LIMIT)
    }
    // Avatars count against the same daily number: each is a stored file too.
    bytes = await readOneFile(req, { field: UPLOAD_FIELD, maxBytes: variant.maxBytes, tooLarge: variant.tooLarge })
  } catch (err) {
    // The rest of a refused body: read and dropped when it is within the size of an upload, so
    // the client (still sending) reads the refusal; a larger or slower one closes the connection.
    if (!(await drainedWithin(req, variant.maxBytes + MULTIPART_SLACK, DRAIN_MS))) res.set('Connection', 'close')
    throw err
  }
  if (!(await sniffImageType(bytes))) throw refuse(Refusals.NOT_AN_IMAGE)
  let image
  try {
    image = await deps.imageGate.run(() => reencodeImage(bytes, { square: variant.square }))
  } catch (err) {
    if (err instanceof ImageRefused) throw refuse(err.why === 'too-many-pixels' ? Refusals.IMAGE_TOO_LARGE : Refusals.NOT_AN_IMAGE)
    throw err
  }
  // A card photo's perceptual hash, for the review desk's "same photo on another account".
  const phash = purpose === 'card' ? await deps.imageGate.run(() => photoHash(image.data)) : null
  const id = newId()
  const day = new Date(now).toISOString()
  const row: UploadRow = {
    id,
    user_id: 'userId' in who ? who.userId : null,
    uploaded_by: 'userId' in who ? 'person' : who.operator,
    purpose,
    storage_key: `${variant.folder}${day.slice(0, 4)}/${day.slice(5, 7)}/${id}.jpg`,
    content_type: 'image/jpeg',
    bytes: image.data.length,
    width: image.width,
    height: image.height,
    created_at: now,
    phash,
  }
  await deps.storage.put(row.storage_key, image.data, row.content_type)
  try {
    // The count at the start only spares a reading; parallel uploads all pass it. The count that
    // holds is this one, made with the record's insert, one upload of this person at a time.
    await writeTransaction(deps.db, deps.dbKind, async (trx) => {
      if ('userId' in who) {
        await lockUser(trx, deps.dbKind, who.userId)
        if ((await countUploadsSince(trx, who.userId, now - DAY)) >= deps.config.selling.uploadsPerDay) throw refuse(Refusals.UPLOAD_LIMIT)
      }
      await insertUpload(trx, row)
    })
  } catch (err) {
    await deps.storage.delete(row.storage_key).catch(() => undefined)
    throw err
  }
  return { fileId: id, width: row.width, height: row.height, bytes: row.bytes, contentType: 'image/jpeg' }
}

async function sendPhoto(deps: SellingDeps, row: UploadRow | undefined, res: Response): Promise<void> {
  const stored = row && (await deps.storage.get(row.storage_key))
  if (!row || !stored) throw refuse(Refusals.IMAGE_NOT_FOUND)
  res.status(200)
  res.set({
    'Content-Type': row.content_type,
    'Content-Disposition': `inline; filename="${row.purpose === 'avatar' ? 'avatar' : 'card-photo'}.jpg"`,
    // A card photo is a secret: no shared cache may keep it, and the browser keeps it only for
    // this page. The web decides how an avatar is cached (app/routes/avatar.$id.tsx).
    'Cache-Control': 'private, no-store',
    'Cross-Origin-Resource-Policy': 'same-site',
  })
  if (stored.bytes !== undefined) res.set('Content-Length', String(stored.bytes))
  try {
    await pipeline(stored.body, res)
  } catch (err) {
    // The reader went away, or the storage failed mid-way: nothing more can be said on this answer.
    if (!res.writableEnded) deps.logger.warn({ err: (err as Error).message, fileId: row.id }, 'photo stream ended early')
    res.destroy()
  }
}

/** The person's own photo, or a proof photo on their order; anyone else's is "not found". */
export async function readOwnPhoto(deps: SellingDeps, userId: string, id: string, res: Response): Promise<void> {
  await sendPhoto(deps, await findReadableUpload(deps.db, userId, id.toLowerCase()), res)
}

export async function readAnyPhoto(deps: SellingDeps, id: string, res: Response): Promise<void> {
  await sendPhoto(deps, await findUpload(deps.db, id.toLowerCase()), res)
}

/** The person's own avatar; a card photo, or anyone else's avatar, is "not found". */
export async function readOwnAvatar(deps: SellingDeps, userId: string, id: string, res: Response): Promise<void> {
  await sendPhoto(deps, await findOwnAvatar(deps.db, userId, id.toLowerCase()), res)
}
