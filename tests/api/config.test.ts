import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../api/config'
import { dbKind, sqlitePath } from '../../api/db/connect'
import { startApi } from '../../api/server'

/** Settings are read once from the environment and a bad one stops the start (api/config.ts). */

const env = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv

describe('loadConfig', () => {
  // toMatchObject: the wallet's settings have their own tests.
  test('defaults: embedded SQLite, 127.0.0.1:3001, console + outbox mail, 30-day tokens, the web on this machine', () => {
    expect(loadConfig(env({}))).toMatchObject({
      databaseUrl: 'file:data/cardlane.db',
      port: 3001,
      host: '127.0.0.1',
      smtpUrl: undefined,
      mailTransport: 'outbox',
      outboxDir: 'data/outbox',
      mailFrom: 'Cardlane <no-reply@cardlane.local>',
      brandName: 'Cardlane',
      googleClientIds: [],
      googleJwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      tokenTtlDays: 30,
      logLevel: 'info',
      trustProxy: ['loopback'],
      authRateLimit: 100,
      loginFailLimit: 10,
    })
  })

  test('reads every setting', () => {
    const c = loadConfig(
      env({
        DATABASE_URL: 'postgres://u:p@db:5432/cardlane',
        API_PORT: '4000',
        API_HOST: '0.0.0.0',
        SMTP_URL: 'smtp://mail:25',
        MAIL_FROM: 'Giftly <hi@giftly.test>',
        BRAND_NAME: 'Giftly',
        GOOGLE_CLIENT_ID: ' web.apps , android.apps ,',
        TOKEN_TTL_DAYS: '7',
        LOG_LEVEL: 'warn',
        TRUST_PROXY: 'loopback, 10.0.0.0/8',
      }),
    )
    expect(c).toMatchObject({
      databaseUrl: 'postgres://u:p@db:5432/cardlane',
      port: 4000,
      host: '0.0.0.0',
      smtpUrl: 'smtp://mail:25',
      brandName: 'Giftly',
      googleClientIds: ['web.apps', 'android.apps'],
      tokenTtlDays: 7,
      logLevel: 'warn',
      mailTransport: 'smtp',
      trustProxy: ['loopback', '10.0.0.0/8'],
    })
  })

  test.each([
    ['DATABASE_URL', 'mysql://x'],
    ['API_PORT', 'eighty'],
    ['API_PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['TOKEN_TTL_DAYS', '0'],
    ['GOOGLE_JWKS_URL', 'not a url'],
    ['MAIL_TRANSPORT', 'pigeon'],
    ['ADJUSTMENT_APPROVAL_MIN', '-1'],
    ['ADJUSTMENT_APPROVAL_MIN', '1.5'],
    ['ADJUSTMENT_APPROVAL_MIN', 'lots'],
  ])('a bad %s stops the start, naming it', (key, value) => {
    expect(() => loadConfig(env({ [key]: value }))).toThrow(new RegExp(`Invalid api settings:[\\s\\S]*${key}`))
  })

  test('ADJUSTMENT_APPROVAL_MIN: ₦1,000,000 by default, any whole number of minor units (0: every adjustment needs a second admin)', () => {
    expect(loadConfig(env({})).wallet.adjustmentApprovalMin).toBe(100_000_000)
    expect(loadConfig(env({ ADJUSTMENT_APPROVAL_MIN: '5000000' })).wallet.adjustmentApprovalMin).toBe(5_000_000)
    expect(loadConfig(env({ ADJUSTMENT_APPROVAL_MIN: '0' })).wallet.adjustmentApprovalMin).toBe(0)
  })
})

describe('TRUST_PROXY: the web servers whose forwarded visitor address is believed', () => {
  test.each([
    ['loopback', ['loopback']],
    [' 10.0.1.0/24 , 10.0.2.7 ', ['10.0.1.0/24', '10.0.2.7']],
    ['fd00:1::/64, uniquelocal', ['fd00:1::/64', 'uniquelocal']],
    ['none', []],
    ['', ['loopback']],
  ])('%j → %j', (value, expected) => {
    expect(loadConfig(env({ TRUST_PROXY: value })).trustProxy).toEqual(expected)
  })

  // Each of these would let any client that reaches the port choose the address it is counted at.
  test.each([
    ['true', /true or a hop count/],
    ['1', /true or a hop count/],
    ['2', /true or a hop count/],
    ['0.0.0.0/0', /wider than the web tier/],
    ['::/0', /wider than the web tier/],
    ['10.0.0.0/4', /wider than the web tier/],
    ['10.0.0.0/33', /not an address/],
    ['web.internal', /not an address/],
    ['10.0.0.1/24/8', /not an address/],
  ])('%j is refused', (value, why) => {
    expect(() => loadConfig(env({ TRUST_PROXY: value }))).toThrow(/Invalid api settings:[\s\S]*TRUST_PROXY/)
    expect(() => loadConfig(env({ TRUST_PROXY: value }))).toThrow(why)
  })
})

describe('production refuses to start on a dangerous default', () => {
  const production = { NODE_ENV: 'production', PIN_PEPPER: 'p'.repeat(32), CODES_KEY: 'c'.repeat(32) }

  test('without TRUST_PROXY or a mail transport, naming both', () => {
    expect(() => loadConfig(env(production))).toThrow(
      /TRUST_PROXY: must be set in production[\s\S]*MAIL_TRANSPORT: must be set in production/,
    )
  })

  test('the same refusal stops startApi before it opens anything', async () => {
    await expect(startApi({ env: env(production), port: 0 })).rejects.toThrow(/TRUST_PROXY[\s\S]*MAIL_TRANSPORT/)
  })

  test('explicit choices start: trust nothing, mail to the outbox (what npm start passes) or SMTP', () => {
    expect(loadConfig(env({ ...production, TRUST_PROXY: 'none', MAIL_TRANSPORT: 'outbox' }))).toMatchObject({
      trustProxy: [],
      mailTransport: 'outbox',
    })
    expect(loadConfig(env({ ...production, TRUST_PROXY: '10.0.1.0/24', SMTP_URL: 'smtp://mail:25' }))).toMatchObject({
      trustProxy: ['10.0.1.0/24'],
      mailTransport: 'smtp',
    })
    expect(loadConfig(env({ ...production, TRUST_PROXY: 'loopback', MAIL_TRANSPORT: 'console' })).mailTransport).toBe('console')
  })

  test('MAIL_TRANSPORT=smtp needs SMTP_URL, in every mode', () => {
    expect(() => loadConfig(env({ MAIL_TRANSPORT: 'smtp' }))).toThrow(/MAIL_TRANSPORT: smtp needs SMTP_URL/)
  })
})

describe('DATABASE_URL', () => {
  test('postgres:// and postgresql:// are PostgreSQL, everything else SQLite', () => {
    expect(dbKind('postgres://localhost/x')).toBe('postgres')
    expect(dbKind('postgresql://localhost/x')).toBe('postgres')
    expect(dbKind('file:data/cardlane.db')).toBe('sqlite')
  })

  test('file: paths are relative to the working directory unless absolute', () => {
    expect(sqlitePath('file:data/x.db')).toBe(`${process.cwd()}/data/x.db`)
    expect(sqlitePath('file:/tmp/x.db')).toBe('/tmp/x.db')
    expect(sqlitePath('file:///tmp/y.db')).toBe('/tmp/y.db')
    expect(sqlitePath(':memory:')).toBe(':memory:')
  })
})

describe('payouts', () => {
  const production = {
    NODE_ENV: 'production',
    PIN_PEPPER: 'p'.repeat(32),
    CODES_KEY: 'c'.repeat(32),
    TRUST_PROXY: 'loopback',
    MAIL_TRANSPORT: 'console',
  }

  test('manual by default: operators pay by hand, no provider key needed', () => {
    expect(loadConfig(env({})).payouts).toEqual({
      provider: 'manual',
      paystackSecretKey: '',
      paystackBaseUrl: 'https://api.paystack.co',
      autoPayoutMax: 10_000_000,
      pollSeconds: 60,
      requestTimeoutMs: 20_000,
      leaseMs: 120_000,
      notFoundGraceMs: 600_000,
      unknownLimitMs: 3_600_000,
      stuckMs: 30 * 60_000,
      balanceEveryMs: 300_000,
    })
    expect(loadConfig(env(production)).payouts.provider).toBe('manual')
  })

  test('paystack reads its settings; a trailing slash of the base URL is dropped', () => {
    const c = loadConfig(
      env({
        PAYOUT_PROVIDER: 'paystack',
        PAYSTACK_SECRET_KEY: 'sk_test_abc',
        PAYSTACK_BASE_URL: 'http://127.0.0.1:9999/',
        AUTO_PAYOUT_MAX: '2500000',
        PAYOUT_POLL_SECONDS: '30',
        PAYSTACK_TIMEOUT_MS: '5000',
        PAYOUT_LEASE_SECONDS: '60',
        PAYOUT_NOT_FOUND_GRACE_SECONDS: '900',
        PAYOUT_UNKNOWN_LIMIT_SECONDS: '7200',
        PAYOUT_STUCK_MINUTES: '45',
        PAYOUT_BALANCE_SECONDS: '120',
      }),
    )
    expect(c.payouts).toEqual({
      provider: 'paystack',
      paystackSecretKey: 'sk_test_abc',
      paystackBaseUrl: 'http://127.0.0.1:9999',
      autoPayoutMax: 2_500_000,
      pollSeconds: 30,
      requestTimeoutMs: 5_000,
      leaseMs: 60_000,
      notFoundGraceMs: 900_000,
      unknownLimitMs: 7_200_000,
      stuckMs: 45 * 60_000,
      balanceEveryMs: 120_000,
    })
  })

  test('paystack without a secret key is refused, in every mode', () => {
    expect(() => loadConfig(env({ PAYOUT_PROVIDER: 'paystack' }))).toThrow(
      /PAYSTACK_SECRET_KEY: PAYOUT_PROVIDER=paystack needs the secret key/,
    )
    expect(() => loadConfig(env({ ...production, PAYOUT_PROVIDER: 'paystack' }))).toThrow(/PAYSTACK_SECRET_KEY/)
  })

  test('production pays with a live key over https only', () => {
    expect(() => loadConfig(env({ ...production, PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_abc' }))).toThrow(
      /PAYSTACK_SECRET_KEY: production pays with a live key/,
    )
    expect(() =>
      loadConfig(
        env({ ...production, PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_live_abc', PAYSTACK_BASE_URL: 'http://fake:1' }),
      ),
    ).toThrow(/PAYSTACK_BASE_URL: must be https:\/\/ in production/)
    expect(loadConfig(env({ ...production, PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_live_abc' })).payouts.provider).toBe(
      'paystack',
    )
  })

  test.each([
    [{ PAYOUT_PROVIDER: 'stripe' }, /PAYOUT_PROVIDER/],
    [{ PAYOUT_POLL_SECONDS: '0' }, /PAYOUT_POLL_SECONDS/],
    [{ AUTO_PAYOUT_MAX: '-1' }, /AUTO_PAYOUT_MAX/],
    [{ PAYSTACK_BASE_URL: 'not a url' }, /PAYSTACK_BASE_URL/],
    [{ PAYSTACK_TIMEOUT_MS: '20000', PAYOUT_LEASE_SECONDS: '60' }, /PAYOUT_LEASE_SECONDS: must be at least 5 × PAYSTACK_TIMEOUT_MS/],
  ])('refuses %j', (bad, message) => {
    expect(() => loadConfig(env(bad as Record<string, string>))).toThrow(message)
  })

  test('the secret key never appears in the error of a bad setting', () => {
    let message = ''
    try {
      loadConfig(env({ ...production, PAYOUT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_secret_value' }))
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).toMatch(/PAYSTACK_SECRET_KEY/)
    expect(message).not.toContain('sk_test_secret_value')
  })
})
