import { Secret, TOTP } from 'otpauth'

/**
 * Authenticator codes (RFC 6238) through otpauth (decision 016): SHA-1, 6 digits, 30-second steps,
 * the parameters every authenticator app reads from a QR code. A code is accepted one step early
 * or late (phone clocks drift); the caller refuses a step already used (a replay).
 */
const PERIOD_S = 30

const totpOf = (seedBase32: string, label = 'staff', issuer = 'Cardlane') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: Secret.fromBase32(seedBase32) })

/** A fresh 160-bit seed (RFC 4226's recommended length), base32 as apps take it. */
export const newTotpSeed = (): string => new Secret({ size: 20 }).base32

/** The otpauth:// URI a QR code carries (it contains the seed: a secret, never logged). */
export const totpUri = (seedBase32: string, label: string, issuer: string): string => totpOf(seedBase32, label, issuer).toString()

/** The 30-second step a code is valid for at `now`, or null when it is wrong. */
export function totpStep(seedBase32: string, code: string, now: number): number | null {
  const delta = totpOf(seedBase32).validate({ token: code, timestamp: now, window: 1 })
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta
}

/** The code of a moment (tests, and nothing else, need to make codes). */
export const totpCode = (seedBase32: string, now: number): string => totpOf(seedBase32).generate({ timestamp: now })
