import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../api/config'
import { dbKind, sqlitePath } from '../../api/db/connect'

/** Settings are read once from the environment and a bad one stops the start (api/config.ts). */

const env = (e: Record<string, string>) => e as unknown as NodeJS.ProcessEnv

describe('loadConfig', () => {
  test('defaults: embedded SQLite, 127.0.0.1:3001, console + outbox mail, 30-day tokens', () => {
    expect(loadConfig(env({}))).toEqual({
      databaseUrl: 'file:data/cardlane.db',
      port: 3001,
      host: '127.0.0.1',
      smtpUrl: undefined,
      outboxDir: 'data/outbox',
      mailFrom: 'Cardlane <no-reply@cardlane.local>',
      brandName: 'Cardlane',
      googleClientIds: [],
      googleJwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      tokenTtlDays: 30,
      logLevel: 'info',
      trustProxy: false,
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
      trustProxy: 'loopback, 10.0.0.0/8',
    })
  })

  test.each([
    ['true', true],
    ['false', false],
    ['', false],
    ['2', 2],
  ])('TRUST_PROXY=%j → %j', (value, expected) => {
    expect(loadConfig(env({ TRUST_PROXY: value })).trustProxy).toBe(expected)
  })

  test.each([
    ['DATABASE_URL', 'mysql://x'],
    ['API_PORT', 'eighty'],
    ['API_PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['TOKEN_TTL_DAYS', '0'],
    ['GOOGLE_JWKS_URL', 'not a url'],
  ])('a bad %s stops the start, naming it', (key, value) => {
    expect(() => loadConfig(env({ [key]: value }))).toThrow(new RegExp(`Invalid api settings:[\\s\\S]*${key}`))
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
