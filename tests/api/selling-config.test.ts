import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../api/config'
import { createSecretsBox } from '../../api/lib/secrets-box'
import { assertKey } from '../../api/lib/storage'

/** The selling settings (CODES_KEY, STORAGE, S3_*, UPLOAD_DIR, UPLOADS_PER_DAY) and the code cipher. */
const env = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv
const production = { NODE_ENV: 'production', PIN_PEPPER: 'p'.repeat(32), TRUST_PROXY: 'none', MAIL_TRANSPORT: 'outbox' }

describe('settings', () => {
  test('defaults: photos on disk under data/uploads, a development codes key, 200 uploads a day', () => {
    const { selling } = loadConfig(env({}))
    expect(selling.storage).toEqual({ driver: 'disk', dir: 'data/uploads' })
    expect(selling.codesKey.length).toBeGreaterThanOrEqual(32)
    expect(selling.uploadsPerDay).toBe(200)
  })

  test('production needs a CODES_KEY of 32 characters or more', () => {
    expect(() => loadConfig(env(production))).toThrow(/CODES_KEY: must be set to at least 32 random characters in production/)
    expect(() => loadConfig(env({ ...production, CODES_KEY: 'short' }))).toThrow(/CODES_KEY/)
    expect(loadConfig(env({ ...production, CODES_KEY: 'k'.repeat(32) })).selling.codesKey).toBe('k'.repeat(32))
    expect(() => loadConfig(env({ CODES_KEY: 'short' }))).toThrow(/CODES_KEY: must be at least 32 characters/)
  })

  test('STORAGE=s3 reads the bucket, endpoint and keys; path style by default with an endpoint', () => {
    expect(() => loadConfig(env({ STORAGE: 's3' }))).toThrow(/S3_BUCKET: STORAGE=s3 needs the bucket name/)
    expect(() => loadConfig(env({ STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'a' }))).toThrow(
      /set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    )
    expect(() => loadConfig(env({ STORAGE: 'ftp' }))).toThrow(/STORAGE/)
    expect(
      loadConfig(
        env({
          STORAGE: 's3',
          S3_BUCKET: 'photos',
          S3_ENDPOINT: 'http://minio:9000',
          S3_ACCESS_KEY_ID: 'a',
          S3_SECRET_ACCESS_KEY: 's',
          S3_PREFIX: 'cl/',
        }),
      ).selling.storage,
    ).toEqual({
      driver: 's3',
      bucket: 'photos',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: 'a',
      secretAccessKey: 's',
      forcePathStyle: true,
      prefix: 'cl/',
    })
    expect(loadConfig(env({ STORAGE: 's3', S3_BUCKET: 'photos', S3_REGION: 'eu-west-1' })).selling.storage).toMatchObject({
      endpoint: undefined,
      forcePathStyle: false,
    })
    expect(loadConfig(env({ UPLOAD_DIR: '/srv/photos' })).selling.storage).toEqual({ driver: 'disk', dir: '/srv/photos' })
  })
})

describe('the code cipher (AES-256-GCM) and the duplicate check (HMAC)', () => {
  const box = createSecretsBox('k'.repeat(40))
  test('a sealed code opens with its key and row only; each seal differs', () => {
    const a = box.seal('["ABCD1234EFGH"]', 'card-1')
    expect(a).not.toContain('ABCD')
    expect(box.seal('["ABCD1234EFGH"]', 'card-1')).not.toBe(a)
    expect(box.open(a, 'card-1')).toBe('["ABCD1234EFGH"]')
    expect(() => box.open(a, 'card-2')).toThrow()
    expect(() => createSecretsBox('j'.repeat(40)).open(a, 'card-1')).toThrow()
    const [v, nonce, body, tag] = a.split('.')
    const flipped = Buffer.from(body, 'base64url')
    flipped[0] ^= 1
    expect(() => box.open([v, nonce, flipped.toString('base64url'), tag].join('.'), 'card-1')).toThrow()
  })

  test('the fingerprint is stable for a key and differs across keys', () => {
    expect(box.fingerprint('ABCD1234')).toBe(createSecretsBox('k'.repeat(40)).fingerprint('ABCD1234'))
    expect(box.fingerprint('ABCD1234')).not.toBe(createSecretsBox('j'.repeat(40)).fingerprint('ABCD1234'))
    expect(box.fingerprint('ABCD1234')).not.toContain('ABCD')
  })
})

test('storage keys are the api’s own shape only', () => {
  expect(() => assertKey('2026/05/0f8fad5b-d9cb-469f-a165-70867728950e.jpg')).not.toThrow()
  for (const bad of ['../x.jpg', '/etc/passwd', '2026//x.jpg', 'a/../../b.jpg', 'x.png', 'X.jpg', ''])
    expect(() => assertKey(bad)).toThrow()
})
