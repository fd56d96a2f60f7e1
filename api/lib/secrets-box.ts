import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'

/**
 * Gift-card codes at rest (DESIGN §3 "Card photos and codes are secrets"):
 * - `seal`/`open`: AES-256-GCM with a random 96-bit nonce per value, bound to its row by the
 *   associated data (`context`, the card's id), so a sealed value copied to another row does not
 *   open. Stored as `v1.<nonce>.<ciphertext>.<tag>` (base64url).
 * - `fingerprint`: HMAC-SHA-256 of the normalised code, for "already submitted by anyone" without
 *   keeping the code readable. A leaked database alone cannot be searched for a known code.
 * Both keys derive from CODES_KEY with HKDF, one per purpose, so neither use weakens the other.
 */
export type SecretsBox = {
  seal(plain: string, context: string): string
  /** Throws when the value was not sealed with this key and context. */
  open(sealed: string, context: string): string
  fingerprint(normalisedCode: string): string
}

const derive = (secret: string, purpose: string) => Buffer.from(hkdfSync('sha256', secret, 'cardlane/codes', purpose, 32))

export function createSecretsBox(secret: string): SecretsBox {
  const encryptionKey = derive(secret, 'aes-256-gcm')
  const macKey = derive(secret, 'hmac-sha-256')
  return {
    seal(plain, context) {
      const nonce = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, nonce)
      cipher.setAAD(Buffer.from(context, 'utf8'))
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return ['v1', nonce, body, cipher.getAuthTag()].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.')
    },
    open(sealed, context) {
      const [version, nonce, body, tag] = sealed.split('.')
      if (version !== 'v1' || !nonce || body === undefined || !tag) throw new Error('secrets-box: not a sealed value')
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(nonce, 'base64url'))
      decipher.setAAD(Buffer.from(context, 'utf8'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
    },
    fingerprint(normalisedCode) {
      return createHmac('sha256', macKey).update(normalisedCode, 'utf8').digest('base64url')
    },
  }
}
