import { afterEach, describe, expect, it } from 'vitest'
import { getWebEnv, lockWebEnv } from '~/utils/env.server'

/** The web's settings: re-read while tests change them, read once by a running server. */
const LOCKED = Symbol.for('cardlane.web-env.locked')
const brand = process.env.BRAND_NAME
afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[LOCKED]
  if (brand === undefined) delete process.env.BRAND_NAME
  else process.env.BRAND_NAME = brand
})

describe('getWebEnv', () => {
  it('follows a changed environment until the server locks it, then keeps what it read', () => {
    process.env.BRAND_NAME = 'Before'
    expect(getWebEnv().BRAND_NAME).toBe('Before')
    process.env.BRAND_NAME = 'After'
    const read = getWebEnv()
    expect(read.BRAND_NAME).toBe('After')
    lockWebEnv()
    process.env.BRAND_NAME = 'Changed under a running server'
    expect(getWebEnv()).toBe(read)
  })
})
