import { fileTypeFromBuffer } from 'file-type'
import sharp from 'sharp'
import { IMAGE_TYPES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from '#contract/uploads'

/**
 * Card photos and avatars: what the bytes are (never the name or the Content-Type the sender claims), and
 * the one re-encoding every stored photo goes through: turned upright by its EXIF orientation,
 * then every metadata block (EXIF, GPS, XMP, ICC) dropped, the longest side capped, and written
 * as a plain JPEG. A stored photo is ours, not the sender's file.
 */
export type ImageType = (typeof IMAGE_TYPES)[number]

export async function sniffImageType(bytes: Uint8Array): Promise<ImageType | undefined> {
  let found
  try {
    found = await fileTypeFromBuffer(bytes)
  } catch {
    // A file cut short after a known signature (an 8-byte TIFF header, a bare PNG signature, an
    // ID3 or EBML tag) makes the sniffer read past the end and throw: it is not an image either.
    return undefined
  }
  return found && (IMAGE_TYPES as readonly string[]).includes(found.mime) ? (found.mime as ImageType) : undefined
}

export class ImageRefused extends Error {
  constructor(readonly why: 'unreadable' | 'too-many-pixels') {
    super(`image refused: ${why}`)
    this.name = 'ImageRefused'
  }
}

// One libvips thread per image: the gate in front (services/uploads.ts) decides how many run.
sharp.concurrency(1)
// Photos are re-encoded once; libvips' operation cache would only hold memory.
sharp.cache(false)

/**
 * `square` (avatars): cropped to a square at the centre and scaled to `square` px a side, small
 * pictures included, so every avatar is the same small file. Otherwise (card photos) the shape is
 * kept and only the longest side capped.
 */
export async function reencodeImage(
  bytes: Buffer,
  shape: { square?: number } = {},
): Promise<{ data: Buffer; width: number; height: number }> {
  const options = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' as const, sequentialRead: true }
  // The header first: a 5 MB PNG can declare billions of pixels; refuse it before decoding any.
  let meta
  try {
    meta = await sharp(bytes, { ...options, limitInputPixels: false }).metadata()
  } catch {
    throw new ImageRefused('unreadable')
  }
  if (!meta.width || !meta.height) throw new ImageRefused('unreadable')
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw new ImageRefused('too-many-pixels')
  try {
    const { data, info } = await sharp(bytes, options)
      .rotate()
      .resize(
        shape.square
          ? { width: shape.square, height: shape.square, fit: 'cover', position: 'centre' }
          : { width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true },
      )
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  } catch {
    throw new ImageRefused('unreadable')
  }
}
