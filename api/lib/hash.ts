import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { hash as argon2Hash, parseOptions as argon2Params, verify as argon2Verify, type Algorithm } from '@node-rs/argon2'
import { createHashGate, type HashGate, type HashGateOptions, type HashPriority } from './hash-gate'

/**
 * Slow hashes for passwords and e-mail codes. New hashes are argon2id at OWASP's minimum: a small
 * fraction of the time and memory of the scrypt we used before (scripts/bench-hash.mjs,
 * docs/performance.md), so a flood of sign-ins costs far less; stored as the PHC string
 * `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`. Hashes made before, `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`,
 * still verify; a successful password sign-in replaces them (`needsRehash`).
 * Every hash and verification goes through one gate (hash-gate.ts) that bounds how many run at once.
 */

/** argon2id cost: memory in KiB, passes, lanes. */
export type Argon2Cost = { memoryCost: number; timeCost: number; parallelism: number }

/** OWASP Password Storage Cheat Sheet, argon2id minimum. Production never uses less. */
export const ARGON2ID_COST: Argon2Cost = { memoryCost: 19_456, timeCost: 2, parallelism: 1 }

/**
 * The test suite's cost (well under a millisecond), chosen in code by the suite (startApi's
 * `hashCost: 'test'`), never by an environment setting: production cannot be configured lower.
 */
const TEST_ARGON2ID_COST: Argon2Cost = { memoryCost: 256, timeCost: 1, parallelism: 1 }

export type HashCost = 'production' | 'test'

const costOf = (cost: HashCost) => (cost === 'test' ? TEST_ARGON2ID_COST : ARGON2ID_COST)

// A const enum of the package; isolatedModules cannot read it, so its value is written here.
const ARGON2ID = 2 as Algorithm.Argon2id

/** Compatibility: NFKC, so the same password typed on another keyboard layout still matches. */
const normalize = (secret: string) => secret.normalize('NFKC')

/** A fresh argon2id hash (16-byte salt, 32-byte output). */
export function hashSecret(secret: string, cost: HashCost = 'production'): Promise<string> {
  return argon2Hash(normalize(secret), { algorithm: ARGON2ID, outputLen: 32, ...costOf(cost) })
}

// Bounds on the parameters read back from a stored hash, so a malformed row cannot cost a
// gigabyte or a minute: generous over what we ever wrote.
const MAX_ARGON2_MEMORY_KIB = 256 * 1024
const MAX_ARGON2_PASSES = 10

async function verifyArgon2(secret: string, stored: string): Promise<boolean> {
  try {
    const p = argon2Params(stored)
    if (p.algorithm !== ARGON2ID || p.memoryCost > MAX_ARGON2_MEMORY_KIB || p.timeCost > MAX_ARGON2_PASSES || p.parallelism > 4)
      return false
    return await argon2Verify(stored, normalize(secret))
  } catch {
    return false // not a hash we can read
  }
}

// --- scrypt: hashes stored before argon2id. Verified, never written any more except by tests.

const SCRYPT_FORMAT = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/

// scrypt needs 128 * N * r bytes (128 MiB for N=2^17); Node's default maxmem is 32 MiB.
const maxmemFor = (n: number, r: number) => 128 * n * r * 2

function scryptAsync(secret: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(normalize(secret), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

/** A hash in the old format (r=8, p=1), for tests of the upgrade path. */
export async function scryptHashSecret(secret: string, logN: number): Promise<string> {
  const salt = randomBytes(16)
  const n = 2 ** logN
  const key = await scryptAsync(secret, salt, 32, { N: n, r: 8, p: 1, maxmem: maxmemFor(n, 8) })
  return ['scrypt', logN, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$')
}

async function verifyScrypt(secret: string, stored: string): Promise<boolean> {
  const m = SCRYPT_FORMAT.exec(stored)
  if (!m) return false
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (logN < 10 || logN > 22 || r < 1 || r > 32 || p < 1 || p > 16) return false
  const salt = Buffer.from(m[4], 'base64url')
  const expected = Buffer.from(m[5], 'base64url')
  const n = 2 ** logN
  const actual = await scryptAsync(secret, salt, expected.length, { N: n, r, p, maxmem: maxmemFor(n, r) })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** Constant-time comparison against a stored hash of either format; a malformed value never matches. */
export function verifySecret(secret: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) return verifyArgon2(secret, stored)
  if (stored.startsWith('scrypt$')) return verifyScrypt(secret, stored)
  return Promise.resolve(false)
}

export type Hasher = {
  /**
   * May throw the HTTP 429 refusal when too many hashes are running and waiting (hash-gate.ts).
   * `priority` says whose turn comes first when hashes wait: a known caller's before a stranger's.
   */
  hash(secret: string, priority?: HashPriority): Promise<string>
  verify(secret: string, stored: string, priority?: HashPriority): Promise<boolean>
  /**
   * Spends the time of one verification against a hash nobody knows the secret of, so "no such
   * account" and "no live code" take as long as a real wrong answer and reveal nothing.
   */
  verifyDummy(secret: string, priority?: HashPriority): Promise<false>
  /** True when a sign-in of this priority would be refused now (hash-gate.ts `full`). */
  full(priority?: HashPriority): boolean
  /** True when a stored hash is not argon2id at this hasher's cost: replace it after a sign-in. */
  needsRehash(stored: string): boolean
  /** Computes the dummy hash ahead of the first request that needs it. */
  warmUp(): Promise<unknown>
  /** Hashes running and waiting at the gate now (metrics). */
  readonly gate: Pick<HashGate, 'running' | 'waiting'>
}

export function createHasher(cost: HashCost = 'production', gateOptions?: HashGateOptions): Hasher {
  const gate: HashGate = createHashGate(gateOptions)
  const target = costOf(cost)
  let dummy: Promise<string> | undefined
  const dummyHash = () => (dummy ??= hashSecret(randomBytes(16).toString('hex'), cost))
  return {
    gate,
    hash: (secret, priority) => gate.run(() => hashSecret(secret, cost), priority),
    verify: (secret, stored, priority) => gate.run(() => verifySecret(secret, stored), priority),
    full: (priority) => gate.full(priority),
    async verifyDummy(secret, priority) {
      const stored = await dummyHash()
      await gate.run(() => verifySecret(secret, stored), priority)
      return false
    },
    needsRehash(stored) {
      if (!stored.startsWith('$argon2id$')) return true
      try {
        const p = argon2Params(stored)
        return p.memoryCost !== target.memoryCost || p.timeCost !== target.timeCost || p.parallelism !== target.parallelism
      } catch {
        return true
      }
    },
    warmUp: dummyHash,
  }
}
