import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * What a first visit downloads, read from the production build (`npm run build`, which the browser
 * suite runs first): the Remix manifest, the entry, the root route and a screen's route chain with
 * every chunk each imports, counted by the brotli copies the web serves (decision 024). Bytes of a
 * build are deterministic; the bench (`npm run bench`, part first-visit) measures the same over
 * the wire, headers included.
 */
/** The customer's build and the console's (decision 052): each its own manifest and assets. */
const BUILDS = {
  customer: { clientDir: path.resolve('build/client'), base: '/', server: path.resolve('build/server/index.js') },
  ops: { clientDir: path.resolve('build/ops/client'), base: '/ops/', server: path.resolve('build/ops/server/index.js') },
}
type BuildName = keyof typeof BUILDS
const clientDir = BUILDS.customer.clientDir
const buildDir = path.join(clientDir, 'assets')
/** The file of an asset's URL (`/assets/…`, the console's `/ops/assets/…`). */
const fileOf = (url: string) =>
  url.startsWith('/ops/') ? path.join(BUILDS.ops.clientDir, url.slice('/ops'.length)) : path.join(clientDir, url)
const KB = 1024

type ManifestRoute = { id: string; parentId?: string; module: string; imports?: string[] }
type Manifest = { entry: { module: string; imports: string[] }; routes: Record<string, ManifestRoute> }

function readBuild(name: BuildName = 'customer') {
  const assets = path.join(BUILDS[name].clientDir, 'assets')
  if (!existsSync(assets)) throw new Error('No build: run `npm run build` first (npm test does).')
  const file = readdirSync(assets).find((name) => /^manifest-[a-z0-9]+\.js$/i.test(name))
  if (!file) throw new Error('The build has no Remix manifest')
  const manifest = JSON.parse(
    readFileSync(path.join(assets, file), 'utf8')
      .replace(/^window\.__remixManifest=/, '')
      .replace(/;\s*$/, ''),
  ) as Manifest
  return { manifest, manifestUrl: `${BUILDS[name].base}assets/${file}` }
}

/** The files every screen loads: the manifest, the entry and the root route, with their chunks. */
function shellFiles(name: BuildName = 'customer') {
  const { manifest, manifestUrl } = readBuild(name)
  const root = manifest.routes.root
  return { manifest, files: new Set([manifestUrl, manifest.entry.module, ...manifest.entry.imports, root.module, ...(root.imports ?? [])]) }
}

/** The shell and the screen's route chain (its parents first), with their chunks. */
function firstVisitFiles(routeId: string, name: BuildName = 'customer') {
  const { manifest, files } = shellFiles(name)
  for (let route: ManifestRoute | undefined = manifest.routes[routeId]; route && route.id !== 'root';) {
    files.add(route.module)
    for (const chunk of route.imports ?? []) files.add(chunk)
    route = route.parentId ? manifest.routes[route.parentId] : undefined
  }
  if (!manifest.routes[routeId]) throw new Error(`No route ${routeId} in the build`)
  return files
}

const brotliBytes = (files: Set<string>) => [...files].reduce((sum, url) => sum + statSync(`${fileOf(url)}.br`).size, 0)

describe('first visit JavaScript, from the build', () => {
  it('the shell every screen loads carries no validation library (zod stays with the screens whose forms validate)', () => {
    const { files } = shellFiles()
    const withZod = [...files].filter((url) => readFileSync(fileOf(url), 'utf8').includes('ZodError'))
    expect(withZod).toEqual([])
  })

  it('the shell every screen loads is the entry, the framework and `shared`: no chunk of code a few screens share (decision 063), and the root route’s module is `shared` itself, no file of its own (decision 066)', () => {
    const { manifest, files } = shellFiles()
    const names = [...files].map((url) => path.basename(url).replace(/-[\w-]+\.js$/, ''))
    expect(names.sort()).toEqual(['entry.client', 'framework', 'manifest', 'shared'])
    expect(path.basename(manifest.routes.root.module)).toMatch(/^shared-/)
  })

  // Issue 26 §4: every screen of both apps within 100 KB in 12 files, but the ones in OVER_BUDGET,
  // each held to where it is so it can only go down.
  it.each(['customer', 'ops'] as const)('every %s screen loads at most 12 JavaScript files, and at most 100 KB (brotli)', async (name) => {
    const routeIds = await screenRouteIds(name)
    const wrong: string[] = []
    for (const routeId of routeIds) {
      const files = firstVisitFiles(routeId, name)
      const kb = brotliBytes(files) / KB
      const ceiling = OVER_BUDGET[name][routeId]
      const limit = { kb: ceiling?.kb ?? 100, files: ceiling?.files ?? 12 }
      if (files.size > limit.files || kb > limit.kb)
        wrong.push(`${routeId}: ${kb.toFixed(2)} KB in ${files.size} files (at most ${limit.kb} KB in ${limit.files})`)
      // A screen that got within the budget leaves the list.
      else if (ceiling && kb <= 100 && files.size <= 12) wrong.push(`${routeId}: within the budget, ${kb.toFixed(2)} KB: leave OVER_BUDGET`)
    }
    for (const routeId of Object.keys(OVER_BUDGET[name])) if (!routeIds.includes(routeId)) wrong.push(`${routeId}: no such screen`)
    expect(wrong).toEqual([])
  })

  it('no two customer chunks are loaded by the same screens: code the same screens share is one file (decision 063)', async () => {
    const { files: shell, manifest } = shellFiles()
    const modules = new Set(Object.values(manifest.routes).map((route) => route.module))
    const screensOf = new Map<string, string[]>()
    for (const routeId of await customerScreenRouteIds())
      for (const url of firstVisitFiles(routeId))
        if (!shell.has(url) && !modules.has(url)) screensOf.set(url, [...(screensOf.get(url) ?? []), routeId])
    const byScreens = new Map<string, string[]>()
    for (const [url, screens] of screensOf)
      byScreens.set(screens.sort().join(' '), [...(byScreens.get(screens.sort().join(' ')) ?? []), path.basename(url)])
    expect([...byScreens.values()].filter((chunks) => chunks.length > 1)).toEqual([])
  })

  // What a form screen shows only after the person asks for it, or what other screens alone use,
  // stays out of its first visit (decision 066). Each marker is a string of the code it names.
  it.each([
    [
      'the e-mail code steps',
      '"send-code"',
      ['routes/change-pin', 'routes/edit-profile', 'routes/wallet.withdraw', 'routes/wallet.add-bank-card', 'routes/set-pin'],
    ],
    ['Change PIN’s reset steps', 'Forgot your PIN', ['routes/change-pin']],
    ['the refusal table', 'larger than 2 MB', ['routes/edit-profile', 'routes/wallet.add-bank-card', 'routes/login']],
    ['the Google mark’s paths', '#EA4335', ['routes/login', 'routes/edit-profile', 'routes/_index']],
    ['the chat provider’s loader', 'cardlane:chat-open', ['routes/_index', 'routes/login', 'routes/wallet.withdraw', 'routes/support']],
    ['the upload rules', 'image/webp', ['routes/edit-profile']],
    ['Withdraw’s sentences of the payout speed and the PIN', 'Most payouts last week', ['routes/wallet.withdraw']],
  ])('%s: not in the first visit of the screens that do not show it', (_what, marker, routeIds) => {
    const carrying = routeIds.filter((routeId) =>
      [...firstVisitFiles(routeId)].some((url) => readFileSync(fileOf(url), 'utf8').includes(marker)),
    )
    expect(carrying).toEqual([])
  })

  it('no script of either build carries Vite’s preloading of the chunks an import() brings: they are loaded already (decision 066)', () => {
    const withPreload = Object.values(BUILDS).flatMap(({ clientDir }) =>
      readdirSync(path.join(clientDir, 'assets'))
        .filter((name) => name.endsWith('.js') && readFileSync(path.join(clientDir, 'assets', name), 'utf8').includes('vite:preloadError'))
        .map((name) => name),
    )
    expect(withPreload).toEqual([])
  })

  // The console's desks post their forms to the server, which validates them; a constant a desk
  // shows comes from a schema-free module (decisions 059, 062).
  it.each(['customer', 'ops'] as const)(
    'no %s screen loads zod on its first visit: a form loads it on its first use (decision 059)',
    async (name) => {
      const routeIds = await screenRouteIds(name)
      const withZod = routeIds.filter((routeId) =>
        [...firstVisitFiles(routeId, name)].some((url) => readFileSync(fileOf(url), 'utf8').includes('ZodError')),
      )
      expect(withZod).toEqual([])
    },
  )

  it('the console’s charts come drawn from the server: no script of its build carries visx (decision 062)', () => {
    const assets = path.join(BUILDS.ops.clientDir, 'assets')
    readBuild('ops')
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'))
    expect(scripts.filter((name) => /visx-(group|axis|linepath)/.test(readFileSync(path.join(assets, name), 'utf8')))).toEqual([])
  })
})

/**
 * The screens still over the budget, each with the ceiling it is held to (what it loads today):
 * lower a ceiling when a screen gets lighter, and take the screen out when it is within 100 KB in
 * 12 files. docs/performance.md (decision 059) has the figures.
 */
const OVER_BUDGET: Record<BuildName, Record<string, { kb: number; files?: number }>> = {
  // The customer: every screen within the budget (decision 066).
  customer: {},
  // The console: every screen within the budget (decision 062).
  ops: {},
}

/** Every customer screen (a route with a component), from the customer's server build. */
const customerScreenRouteIds = () => screenRouteIds('customer')

type ServerRoute = {
  id: string
  parentId?: string
  module: { default?: unknown; handle?: { stylesheet?: string }; links?: () => { rel: string; href?: string }[] }
}

async function routeChain(routeId: string, name: BuildName) {
  const build = (await import(BUILDS[name].server)) as { routes: Record<string, ServerRoute> }
  const chain: ServerRoute[] = []
  for (let route: ServerRoute | undefined = build.routes[routeId]; route; route = route.parentId ? build.routes[route.parentId] : undefined)
    chain.unshift(route)
  return chain
}

/** The stylesheets a screen's document links in its head (the root's and its route chain's `links`). */
async function stylesheetsOf(routeId: string, name: BuildName = 'customer') {
  return (await routeChain(routeId, name)).flatMap((route) =>
    (route.module.links?.() ?? []).filter((link) => link.rel === 'stylesheet').map((link) => link.href!),
  )
}

/** The stylesheets a screen's document carries inline (decision 058): its route chain's handles. */
async function inlineStylesheetsOf(routeId: string, name: BuildName = 'customer') {
  return (await routeChain(routeId, name)).flatMap((route) => route.module.handle?.stylesheet ?? [])
}

/** Every route that renders a screen (has a component), from the server build. */
async function screenRouteIds(name: BuildName) {
  const build = (await import(BUILDS[name].server)) as { routes: Record<string, ServerRoute> }
  return Object.values(build.routes)
    .filter((route) => route.id !== 'root' && route.module.default)
    .map((route) => route.id)
}

/**
 * Over the wire a stylesheet is its gzip copy (Chromium asks plain http for gzip, not brotli) plus
 * its response headers, about 210 bytes as the web sends a static file; 300 leaves room. A sheet
 * the document carries inline is counted as its gzip copy alone: it comes compressed with the page.
 */
const HEADERS_BYTES = 300
const gzipBytes = (hrefs: string[], headers = HEADERS_BYTES) =>
  hrefs.reduce((sum, href) => sum + statSync(`${fileOf(href)}.gz`).size + headers, 0)

describe('render-blocking CSS, from the build', () => {
  it('the shell links no stylesheet: its one sheet (the tokens bundled into app.css) comes inline', async () => {
    expect(await stylesheetsOf('root')).toEqual([])
    expect(await inlineStylesheetsOf('root')).toEqual([expect.stringMatching(/^\/assets\/app-[\w-]+\.css$/)])
  })

  it('a customer screen links no stylesheet for its first document: its one sheet comes inline', async () => {
    const wrong: string[] = []
    for (const routeId of await customerScreenRouteIds()) {
      const linked = await stylesheetsOf(routeId)
      const inline = await inlineStylesheetsOf(routeId)
      if (linked.length > 0 || inline.length > 2) wrong.push(`${routeId}: ${linked.length} linked, ${inline.length} inline`)
    }
    expect(wrong).toEqual([])
  })

  it('every screen carries or links at most 10 KB of render-blocking CSS (gzip; a linked one with headers) and one stylesheet of its own', async () => {
    readBuild()
    const over: string[] = []
    for (const name of ['customer', 'ops'] as const) {
      for (const routeId of await screenRouteIds(name)) {
        const hrefs = await stylesheetsOf(routeId, name)
        const inline = await inlineStylesheetsOf(routeId, name)
        const kb = (gzipBytes(hrefs) + gzipBytes(inline, 0)) / KB
        // The console's screens nest under its layout, which links the console's own sheet.
        const most = name === 'ops' ? 3 : 2
        const count = hrefs.length + inline.length
        if (kb > 10 || count > most) over.push(`${name} ${routeId}: ${kb.toFixed(1)} KB in ${count} stylesheets`)
      }
    }
    expect(over).toEqual([])
  })
})

describe('brand marks (decision 015)', () => {
  // A path of the sprite (Razer's, the longest) must be in no script the browser or the web
  // process loads: the sprite is a file of its own, cached for good.
  const razer = /<symbol id="razer-gold"[^>]*><path d="([^"]{40})/.exec(
    readFileSync(path.resolve('app/components/brand-marks.svg'), 'utf8'),
  )?.[1]

  it('are drawn from the sprite file, in no browser script', () => {
    expect(razer).toBeTruthy()
    const scripts = readdirSync(buildDir, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.js'))
    expect(scripts.filter((name) => readFileSync(path.join(buildDir, name), 'utf8').includes(razer!))).toEqual([])
    expect(readdirSync(buildDir).some((name) => /^brand-marks-[\w-]+\.svg$/.test(name))).toBe(true)
  })

  it("nor in the web process's server build, which loads nothing of simple-icons (megabytes for the life of the process)", () => {
    const server = readFileSync(path.resolve('build/server/index.js'), 'utf8')
    expect(server).not.toContain('simple-icons')
    expect(server).not.toContain(razer!)
  })
})
