import QRCode from 'qrcode'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as download from '~/routes/download'
import { getWebEnv } from '~/utils/env.server'
import { useTestApi } from '../support/kit'
import { call, jsonOf } from '../support/web'
import { startMiniWeb, type MiniWeb } from './mini-web'

/**
 * /download: a QR code drawn on the server that opens the site — PUBLIC_URL only, never the
 * client-chosen Host — and the store links from the settings, hidden while unset.
 */
useTestApi()

const SITE = 'https://cardlane.example/'
const EVIL = 'evil.example'
const qrOf = (url: string) =>
  QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } })

const SETTINGS = ['PUBLIC_URL', 'APP_STORE_URL', 'PLAY_STORE_URL', 'CHAT_WIDGET_URL'] as const
afterEach(() => {
  for (const name of SETTINGS) delete process.env[name]
})

/** The loader as Remix calls it, for a request whose Host (and forwarded host) a client forged. */
async function loadForged() {
  const request = new Request(`http://${EVIL}/download`, {
    headers: { Host: EVIL, 'X-Forwarded-Host': EVIL, 'X-Forwarded-Proto': 'https' },
  })
  return jsonOf<{ qr: { url: string; svg: string } | null; stores: { appStore: string | null; playStore: string | null } }>(
    await call(download.loader, request),
  )
}

describe('the loader', () => {
  it('draws the QR code of PUBLIC_URL, whatever Host the request claims', async () => {
    process.env.PUBLIC_URL = 'https://cardlane.example'
    const data = await loadForged()
    expect(data.qr?.url).toBe(SITE)
    expect(data.qr?.svg).toBe(await qrOf(SITE))
    expect(data.qr?.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(data.qr?.svg).not.toBe(await qrOf(`https://${EVIL}/`))
    expect(data.qr?.svg).not.toBe(await qrOf(`http://${EVIL}/`))
    expect(JSON.stringify(data)).not.toContain(EVIL)
  })

  it('without PUBLIC_URL draws no QR code at all rather than one from the Host', async () => {
    const data = await loadForged()
    expect(data.qr).toBeNull()
    expect(JSON.stringify(data)).not.toContain(EVIL)
  })

  it('gives the store links that are set, and none while unset', async () => {
    expect((await loadForged()).stores).toEqual({ appStore: null, playStore: null })
    process.env.PLAY_STORE_URL = 'https://play.google.com/store/apps/details?id=example.cardlane'
    expect((await loadForged()).stores).toEqual({ appStore: null, playStore: process.env.PLAY_STORE_URL })
    process.env.APP_STORE_URL = 'https://apps.apple.com/app/id000000000'
    expect((await loadForged()).stores).toEqual({ appStore: process.env.APP_STORE_URL, playStore: process.env.PLAY_STORE_URL })
  })
})

describe('the page over HTTP (server.ts, the real render)', () => {
  let web: MiniWeb
  beforeAll(async () => {
    web = await startMiniWeb([{ id: 'routes/download', path: 'download', module: download }])
  })
  afterAll(async () => {
    await web?.close()
  })
  const page = (headers: Record<string, string> = {}) => web.raw({ path: '/download', headers })

  it('shows the QR code of PUBLIC_URL inline with its label; a forged Host is nowhere in the page', async () => {
    process.env.PUBLIC_URL = 'https://cardlane.example'
    const res = await page({ host: EVIL, 'x-forwarded-host': EVIL })
    expect(res.status).toBe(200)
    expect(res.text).toContain('role="img" aria-label="QR code: scan it with your phone&#x27;s camera to open https://cardlane.example/"')
    expect(res.text).toContain(await qrOf(SITE))
    expect(res.text).not.toContain(EVIL)
  })

  it('hides the store links while unset and shows "Coming soon"; shows each link once set', async () => {
    const bare = await page()
    expect(bare.text).not.toContain('App Store</span>')
    expect(bare.text).not.toContain('Google Play</span>')
    expect(bare.text).toContain('Coming soon')
    expect(bare.text).not.toContain('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0') // no QR without PUBLIC_URL

    process.env.APP_STORE_URL = 'https://apps.apple.com/app/id000000000'
    const one = await page()
    expect(one.text).toContain('href="https://apps.apple.com/app/id000000000"')
    expect(one.text).toContain('Download on the App Store')
    expect(one.text).not.toContain('Get it on Google Play')
    expect(one.text).not.toContain('Coming soon')

    process.env.PLAY_STORE_URL = 'https://play.google.com/store/apps/details?id=example.cardlane'
    const both = await page()
    expect(both.text).toContain('href="https://play.google.com/store/apps/details?id=example.cardlane"')
    expect(both.text).toContain('Get it on Google Play')
  })

  it('the settings take web addresses only: a javascript: link or chat script is refused at start', async () => {
    for (const name of ['APP_STORE_URL', 'PLAY_STORE_URL', 'CHAT_WIDGET_URL'] as const) {
      process.env[name] = 'javascript:alert(1)'
      expect(() => getWebEnv(), name).toThrow(name)
      delete process.env[name]
    }
    expect(getWebEnv().APP_STORE_URL).toBeUndefined()
  })
})
