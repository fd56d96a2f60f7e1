import { afterEach, describe, expect, it, vi } from 'vitest'
import { getWebEnv } from '~/utils/env.server'

/** The web's settings: read once, re-read when they change (the browser suite changes them under a production build). */
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

  it('answers the same settings while nothing changed, with no flag on globalThis', () => {
    process.env.BRAND_NAME = 'Steady'
    const first = getWebEnv()
    expect(getWebEnv()).toBe(first)
    expect(
      Object.getOwnPropertySymbols(globalThis)
        .map(String)
        .filter((s) => s.includes('cardlane')),
    ).toEqual([])
  })

  it('reads the settings once in the web process: after settleWebEnv a changed environment is not read again', async () => {
    // A module of its own: the settled state must not reach the other cases of this file.
    vi.resetModules()
    const fresh = await import('~/utils/env.server')
    process.env.BRAND_NAME = 'Settled'
    fresh.settleWebEnv()
    const settled = fresh.getWebEnv()
    process.env.BRAND_NAME = 'Changed later'
    expect(fresh.getWebEnv()).toBe(settled)
    expect(fresh.getWebEnv().BRAND_NAME).toBe('Settled')
    // The module the app imported in this process still follows the environment.
    expect(getWebEnv().BRAND_NAME).toBe('Changed later')
  })
})
