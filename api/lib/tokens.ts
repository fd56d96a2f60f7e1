import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto'

/** An opaque session token: 32 random bytes, base64url (43 characters). */
export const newToken = () => randomBytes(32).toString('base64url')

/** Tokens are stored only as this hash: a leaked database holds no usable token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

/** A 6-digit e-mail code from the CSPRNG, leading zeros kept. */
export const newVerifyCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0')

/** Row ids: random, so they reveal neither counts nor order. */
export const newId = () => randomUUID()
