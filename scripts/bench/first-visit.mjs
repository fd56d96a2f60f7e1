// First visit: what each screen costs over the wire in a browser with an empty cache (a fresh
// context per screen), by type, from the DevTools protocol's encodedDataLength (bytes received,
// headers included, after compression). Budgets: JavaScript ≤ 100 KB, stylesheets (render-blocking
// CSS) ≤ 10 KB, the HTML document ≤ 30 KB. The sheets the document carries inline (decision 058)
// count as render-blocking CSS too, by their text's brotli size (they are inside the HTML's bytes as well).
import { brotliCompressSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { assertLocal, verdict } from './lib.mjs'

const KB = 1024
const BUDGETS = { script: 100, stylesheet: 10, document: 30 }

export async function firstVisitBudgets(stack, person, screens) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--disable-quic'] })
  const cookie = person.cookie.split('; ').map((pair) => {
    const i = pair.indexOf('=')
    return { name: pair.slice(0, i), value: pair.slice(i + 1), url: stack.base }
  })
  const rows = []
  try {
    for (const s of screens) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })
      if (s.signedIn) await context.addCookies(cookie)
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
      const types = new Map()
      const bytes = { script: 0, stylesheet: 0, document: 0, other: 0 }
      cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type))
      cdp.on('Network.loadingFinished', (e) => {
        const t = (types.get(e.requestId) ?? 'Other').toLowerCase()
        bytes[t in bytes ? t : 'other'] += e.encodedDataLength
      })
      const res = await page.goto(assertLocal(stack.base + s.path), { waitUntil: 'load', timeout: 30_000 })
      // Scripts the page loads after `load` (modulepreload, lazy routes) count too.
      await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined)
      const inline = await page.$$eval('style[data-stylesheet]', (styles) => styles.map((s) => s.textContent ?? ''))
      for (const css of inline) bytes.stylesheet += brotliCompressSync(css).length
      const row = {
        screen: `${s.screen}${s.signedIn ? '' : ' (visitor)'}`,
        status: res?.status() ?? 0,
        ended: new URL(page.url()).pathname,
        script: bytes.script / KB,
        stylesheet: bytes.stylesheet / KB,
        document: bytes.document / KB,
      }
      rows.push(row)
      console.log(
        `  ${row.screen.padEnd(26)} JS ${row.script.toFixed(1).padStart(6)} KB  CSS ${row.stylesheet.toFixed(1).padStart(5)} KB  HTML ${row.document.toFixed(1).padStart(5)} KB${row.ended !== new URL(stack.base + s.path).pathname ? `  (ended at ${row.ended})` : ''}`,
      )
      await context.close()
    }
  } finally {
    await browser.close()
  }
  // One line per type: the heaviest screen against the budget (every screen is held to it).
  return Object.entries(BUDGETS).map(([type, budget]) => {
    const worst = rows.reduce((a, b) => (b[type] > a[type] ? b : a), rows[0])
    const over = rows.filter((r) => r[type] > budget).map((r) => r.screen)
    const label = { script: 'JavaScript', stylesheet: 'render-blocking CSS', document: 'HTML' }[type]
    return {
      part: 'first-visit',
      budget: `${label} ≤ ${budget} KB on every screen`,
      figure: `${worst[type].toFixed(1)} KB (${worst.screen})`,
      verdict: verdict(worst[type], budget, { unit: ' KB' }) + (over.length > 1 ? `; ${over.length} of ${rows.length} screens over` : ''),
    }
  })
}
