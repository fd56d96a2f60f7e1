import sharp from 'sharp'

/**
 * A perceptual hash of a photo (decision 017): the difference hash (dHash). The photo is made
 * grey and small (9×8), and each of the 64 bits says whether a pixel is brighter than its right
 * neighbour. Resizing, recompressing, a little cropping or another light leave most bits as they
 * were, so two photos of one card are a few bits apart and two different cards about half.
 */
export async function photoHash(bytes: Buffer): Promise<string> {
  const { data } = await sharp(bytes).rotate().greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true })
  let bits = 0n
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) bits = (bits << 1n) | (data[y * 9 + x] > data[y * 9 + x + 1] ? 1n : 0n)
  }
  return bits.toString(16).padStart(16, '0')
}

/** Two photos whose hashes differ in at most this many of 64 bits are taken for the same card. */
export const SAME_PHOTO_BITS = 10

/** Bits set in two 32-bit words: how far apart two hashes are, given their halves XORed. */
export function bitsApart(hiXor: number, loXor: number): number {
  return popcount(hiXor >>> 0) + popcount(loXor >>> 0)
}

function popcount(n: number): number {
  n = n - ((n >>> 1) & 0x55555555)
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333)
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}
