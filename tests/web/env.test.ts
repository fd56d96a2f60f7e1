import { afterEach, describe, expect, it, vi } from 'vitest'
import { getWebEnv } from '~/utils/env.server'

/** The web's settings: re-read while tests change them, read once by a build loaded in production. */
const brand = process.env.BRAND_NAME
afterEach(() => {
  vi.unstubAllEnvs()
  if (brand === undefined) delete process.env.BRAND_NAME
  else process.env.BRAND_NAME = brand
})

describe('getWebEnv', () => {
  it('follows a changed environment outside production', () => {
    process.env.BRAND_NAME = 'Before'
    expect(getWebEnv().BRAND_NAME).toBe('Before')
    process.env.BRAND_NAME = 'After'
    expect(getWebEnv().BRAND_NAME).toBe('After')
  })

  it('loaded in production, keeps what it read first, with no flag on globalThis', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    vi.stubEnv('SESSION_SECRET', 's'.repeat(40))
    vi.stubEnv('BRAND_NAME', 'Read once')
    // A fresh copy of the module, loaded as the Remix build loads it in production.
    vi.resetModules()
    const loaded = await import('~/utils/env.server')
    const first = loaded.getWebEnv()
    process.env.BRAND_NAME = 'Changed under a running server'
    expect(loaded.getWebEnv()).toBe(first)
    expect(loaded.getWebEnv().BRAND_NAME).toBe('Read once')
    expect(
      Object.getOwnPropertySymbols(globalThis)
        .map(String)
        .filter((s) => s.includes('cardlane')),
    ).toEqual([])
  })
})
