import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * Slow hashes for passwords and e-mail codes: scrypt N=2^17, r=8, p=1 (OWASP's first choice of
 * parameters), stored as a self-describing string `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` so the
 * cost can rise later without breaking old hashes: verification reads the parameters back.
 */
export const SCRYPT_LOG_N = 17
const R = 8
const P = 1
const KEY_LENGTH = 32
const SALT_LENGTH = 16

// scrypt needs 128 * N * r bytes (128 MiB here); Node's default maxmem is 32 MiB.
const maxmemFor = (n: number, r: number) => 128 * n * r * 2

function scryptAsync(secret: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize('NFKC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

/** Hashes with a fresh salt. `logN` below the default exists only for the test suite's speed. */
export async function hashSecret(secret: string, logN = SCRYPT_LOG_N): Promise<string> {
  const salt = randomBytes(SALT_LENGTH)
  const n = 2 ** logN
  const key = await scryptAsync(secret, salt, KEY_LENGTH, { N: n, r: R, p: P, maxmem: maxmemFor(n, R) })
  return ['scrypt', logN, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
}

const FORMAT = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/

/** Constant-time comparison against a stored hash; a malformed stored value never matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const m = FORMAT.exec(stored)
  if (!m) return false
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (logN < 10 || logN > 22 || r < 1 || r > 32 || p < 1 || p > 16) return false
  const salt = Buffer.from(m[4], 'base64url')
  const expected = Buffer.from(m[5], 'base64url')
  const n = 2 ** logN
  const actual = await scryptAsync(secret, salt, expected.length, { N: n, r, p, maxmem: maxmemFor(n, r) })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

export type Hasher = {
  hash(secret: string): Promise<string>
  verify(secret: string, stored: string): Promise<boolean>
  /**
   * Spends the time of one verification against a hash nobody knows the secret of, so "no such
   * account" and "no live code" take as long as a real wrong answer and reveal nothing.
   */
  verifyDummy(secret: string): Promise<false>
  /** Computes the dummy hash ahead of the first request that needs it. */
  warmUp(): Promise<unknown>
}

export function createHasher(logN = SCRYPT_LOG_N): Hasher {
  if (!Number.isInteger(logN) || logN < 10 || logN > 22) throw new Error(`scrypt log2 N must be 10..22, not ${logN}`)
  let dummy: Promise<string> | undefined
  const dummyHash = () => (dummy ??= hashSecret(randomBytes(16).toString('hex'), logN))
  return {
    hash: (secret) => hashSecret(secret, logN),
    verify: verifySecret,
    async verifyDummy(secret) {
      await verifySecret(secret, await dummyHash())
      return false
    },
    warmUp: dummyHash,
  }
}
