import type { ManualChunkMeta, OutputOptions } from 'rollup'
import type { Plugin } from 'vite'

/**
 * How the browser build cuts its chunks (decision 054), in one place for every Vite build of the
 * app to import. A first visit's paint waits on the script requests it starts, so a screen asks
 * for few files: the framework in one chunk, conform's hook in one (the form screens), zod with the
 * forms' schemas in one that a form imports on its first use (decision 059), the app's code shared
 * by several screens in one, the schema-free rules a schema module shares with a few screens in one
 * (decision 059), and what a single screen uses in that screen's own chunk. The customer's shared
 * code is cut further by which screens use it (`customerChunk`, decision 063).
 * tests/browser/bundle-budget.test.ts holds the result.
 */

/** The framework every screen runs: React and Remix with the router beneath it. */
const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|@remix-run\/[^/]+|react-router|react-router-dom|turbo-stream)\//
/** A form's state: conform's hook and its DOM side, which the form screens load (decision 059). */
const FORMS = /\/node_modules\/@conform-to\/(react|dom)\//
/** Validation: zod and conform's zod side, which a form loads on its first use (decision 059). */
const VALIDATION = /\/node_modules\/(zod|@conform-to\/zod)\//
/** Any library: the `rules` chunk holds the app's own code only. */
const LIBRARY = /\/node_modules\//
/** The Remix plugin's entry for a route module: the module's id with this query. */
const ROUTE_ENTRY = '?__remix-build-client-route'
/** A screen's own files: its route module and what lives beside it in its folder (either app's). */
const ROUTE_FILE = /\/app\/(ops\/)?routes\//
/** An app's root module: the shell every screen of that app runs. */
const ROOT = /\/app\/(ops\/)?root\.tsx$/
const APP = /\/(app|contract)\//
/** A module that this many routes import goes into the shared chunk. */
const SHARED_BY = 3

type Graph = Pick<ManualChunkMeta, 'getModuleInfo'>

const memo = new WeakMap<Graph['getModuleInfo'], { needs: Map<RegExp, Map<string, boolean>>; routes: Map<string, Set<string>> }>()

function cacheOf(getModuleInfo: Graph['getModuleInfo']) {
  let cache = memo.get(getModuleInfo)
  if (!cache) memo.set(getModuleInfo, (cache = { needs: new Map(), routes: new Map() }))
  return cache
}

/** Whether a module statically brings a library of `group` with it (it then goes where they go). */
function needs(group: RegExp, id: string, graph: Graph, seen = new Set<string>()): boolean {
  const caches = cacheOf(graph.getModuleInfo).needs
  let cache = caches.get(group)
  if (!cache) caches.set(group, (cache = new Map()))
  const known = cache.get(id)
  if (known !== undefined) return known
  if (group.test(id)) return true
  if (seen.has(id)) return false
  seen.add(id)
  const info = graph.getModuleInfo(id)
  const result = (info?.importedIds ?? []).some((next) => needs(group, next, graph, seen))
  if (seen.size === 1 || result) cache.set(id, result)
  return result
}

/** Whether a module that goes to the validation chunk imports this one statically. */
function importedByValidation(id: string, graph: Graph) {
  return (graph.getModuleInfo(id)?.importers ?? []).some(
    (importer) => APP.test(importer) && !importer.includes('/node_modules/') && needs(VALIDATION, importer, graph),
  )
}

/** The route modules (and entries: the root) that import a module statically, directly or through others. */
function routesOf(id: string, graph: Graph, seen = new Set<string>()): Set<string> {
  const cache = cacheOf(graph.getModuleInfo).routes
  const known = cache.get(id)
  if (known) return known
  const routes = new Set<string>()
  if (seen.has(id)) return routes
  seen.add(id)
  for (const importer of graph.getModuleInfo(id)?.importers ?? []) {
    if (isRoute(importer, graph)) routes.add(importer.replace(ROUTE_ENTRY, ''))
    else for (const route of routesOf(importer, graph, seen)) routes.add(route)
  }
  if (seen.size === 1) cache.set(id, routes)
  return routes
}

/** A route module, a file of a screen's folder, or an entry (the root): never grouped. */
function isRoute(id: string, graph: Graph) {
  const info = graph.getModuleInfo(id)
  return !info || ROUTE_FILE.test(id) || info.isEntry || info.importers.some((importer) => importer.endsWith(ROUTE_ENTRY))
}

function manualChunks(id: string, graph: ManualChunkMeta): string | undefined {
  if (FRAMEWORK.test(id)) return 'framework'
  if (FORMS.test(id)) return 'forms'
  if (VALIDATION.test(id)) return 'validation'
  if (CUSTOMER_SHELL.test(id) || isCustomerRootEntry(id)) return 'shared'
  if (!APP.test(id) || id.includes('/node_modules/') || isRoute(id, graph)) return undefined
  const routes = [...routesOf(id, graph)]
  if (needs(VALIDATION, id, graph)) return 'validation'
  const customer = customerChunk(id, routes, graph)
  if (customer) return customer
  // What a form brings beside conform stays with the screens that use it.
  if (needs(FORMS, id, graph)) return undefined
  if (routes.some((route) => ROOT.test(route)) || routes.length >= SHARED_BY) return 'shared'
  // A schema module's rules that a screen shows too (app code only): left to rollup, they would
  // follow the schema into the validation chunk and bring it to that screen's first visit.
  if (routes.length > 0 && importedByValidation(id, graph) && !needs(LIBRARY, id, graph)) return 'rules'
  return undefined
}

// The customer's screens (decision 063), apart from the cut above that both apps share.
/** The customer app's browser entry: what it imports runs on every screen, as the root's code does. */
const CUSTOMER_ENTRY = /\/app\/entry\.client\.tsx$/
/**
 * The customer's root module: in the shell's chunk, so that rollup's merging of small chunks
 * (`experimentalMinChunkSize`) does not join it with code a few screens share, which every
 * screen would then load.
 */
const CUSTOMER_SHELL = /\/app\/root\.tsx$/
/** The Remix plugin's entry for the customer's root route: in the shell's chunk too (`browserChunksPlugin`). */
const isCustomerRootEntry = (id: string) => id.endsWith(`/app/root.tsx${ROUTE_ENTRY}`)
/** A route of the console's app: its chunks keep the cut above. */
const OPS_ROUTE = /\/app\/ops\//
/** A stylesheet's or an image's URL (and the empty module Vite gives a stylesheet): a few bytes, in no chunk of its own. */
const STYLESHEET_URL = /\.(css\?(url|transform-only)|svg\?url)$/
/**
 * The e-mail code steps and the Google button: form code that the wallet and profile forms do not
 * use, apart from conform's chunk, which every form screen loads (decision 066).
 */
const SIGN_IN_STEPS = /\/app\/components\/(code-steps|google-button)\.tsx$/
/**
 * The refusal table and the sentences the wallet's screens say from it before asking the api: with
 * the amounts in `money`, which those screens load anyway, however few of them import it directly
 * (a chunk of its own was one more file for each, and for every screen whose rules use it).
 */
const REFUSAL_TABLE = /\/(contract\/(refusals|refusal-format|face-value-refusals|pin-rules)|app\/utils\/refusal-messages)\.ts$/
/**
 * Withdraw's amount rules and the bank card line: with the amounts in `money`, which every screen
 * that shows them loads anyway (each a chunk of its own was a file more for Withdraw).
 */
const WITHDRAW_FORM = /\/app\/(utils\/withdraw-amount\.ts|components\/bank-card\.tsx)$/
/** A module that fewer customer screens import has a chunk of its own. */
const CUSTOMER_SHARED_BY = 5
/** A screen's route module, for a file of its folder too (`routes/order.sell/card-fields.tsx`). */
const screenOf = (route: string) => route.replace(/(\/app\/routes\/[^/]+)\/.*$/, '$1')
/** A screen's name in a chunk's name: its route file's, in characters a file name takes anywhere. */
const screenName = (screen: string) => screen.replace(/^.*\/|\.tsx?$/g, '').replace(/[^\w.-]/g, '')

const countsMemo = new WeakMap<Graph['getModuleInfo'], { screens: number; forms: number }>()

/** How many screens the customer's app has, and how many of them render a form with conform. */
function screenCounts(graph: ManualChunkMeta) {
  let counts = countsMemo.get(graph.getModuleInfo)
  if (!counts) {
    counts = { screens: 0, forms: 0 }
    for (const id of graph.getModuleIds()) {
      if (!id.endsWith(ROUTE_ENTRY) || OPS_ROUTE.test(id) || !graph.getModuleInfo(id)?.exports?.includes('default')) continue
      counts.screens++
      if (needs(FORMS, id, graph)) counts.forms++
    }
    countsMemo.set(graph.getModuleInfo, counts)
  }
  return counts
}

/**
 * The customer's code that several screens share, by which screens use it (decision 063):
 * - `shared`: the shell (what the root and the entry import), what half the screens or half the
 *   form screens use, and the URLs of stylesheets several screens share;
 * - `forms`: with conform, the app code that only form screens share (useSchemaForm, the PIN
 *   fields);
 * - `code-steps`: the e-mail code steps and the Google button, which only the forms that sign in,
 *   sign up or confirm by e-mail code use;
 * - `money`: what a few form screens share with the signed-in screens (amounts, rates, refusals,
 *   list rows, Withdraw's amount rules and bank card line), which a sign-in or sign-up form does
 *   not load;
 * - `views`: what only screens without a conform form share (order status, rate rows, brand tiles);
 * - what fewer screens share, a chunk for each set of screens that uses it.
 */
function customerChunk(id: string, routes: string[], graph: ManualChunkMeta): string | undefined {
  if (routes.length === 0) return lazyChunk(id, graph)
  if (routes.some((route) => OPS_ROUTE.test(route))) return undefined
  if (routes.some((route) => ROOT.test(route) || CUSTOMER_ENTRY.test(route))) return 'shared'
  if (WITHDRAW_FORM.test(id)) return 'money'
  const screens = new Set(routes.map(screenOf))
  if (screens.size < 2) return undefined
  if (STYLESHEET_URL.test(id)) return 'shared'
  const counts = screenCounts(graph)
  const forms = [...screens].filter((screen) => needs(FORMS, screen.endsWith('.tsx') ? screen : `${screen}/route.tsx`, graph)).length
  if (forms === screens.size) return SIGN_IN_STEPS.test(id) ? 'code-steps' : 'forms'
  if (REFUSAL_TABLE.test(id)) return 'money'
  // What a few screens share: a chunk of its own, which rollup's merging of small chunks leaves
  // alone (merged, it went wherever rollup saw fit and other screens loaded it). Named after those
  // screens, so modules that the same screens use are one file: they always load together.
  if (screens.size < CUSTOMER_SHARED_BY) return [...screens].map(screenName).sort().join('+')
  if (forms === 0) return 'views'
  return forms * 2 >= counts.forms || screens.size * 2 >= counts.screens ? 'shared' : 'money'
}

/**
 * A customer module that a screen imports only when it is asked for (`import()`, Change PIN's
 * reset steps): a chunk of its own. Left to rollup, its merging of small chunks joined it with the
 * screen's own chunk, which then loaded it, and what it imports, on the first visit.
 */
function lazyChunk(id: string, graph: ManualChunkMeta): string | undefined {
  const importers = graph.getModuleInfo(id)?.dynamicImporters ?? []
  if (importers.length === 0 || importers.some((importer) => OPS_ROUTE.test(importer))) return undefined
  return screenName(id)
}

/** `build.rollupOptions.output` of the browser build. */
const browserChunks: OutputOptions = { manualChunks, experimentalMinChunkSize: 2 * 1024 }

/** Vite's helper that wraps every `import()` of a browser chunk (its id in Vite's build). */
const PRELOAD_HELPER = '\0vite/preload-helper.js'

/**
 * Applies `browserChunks` to the browser build of each app; the server build stays one file.
 * A chunk loaded by `import()` (the validation chunk, a screen's lazy steps) imports mostly chunks
 * the screen has loaded already: Vite's preloading of them is turned off (the others come as the
 * chunk's imports are read, on a form's first use), and its helper, in every form screen's first
 * visit, is a plain call (decision 066).
 */
export const browserChunksPlugin: Plugin = {
  name: 'cardlane-browser-chunks',
  apply: 'build',
  enforce: 'pre',
  config: () => ({ build: { modulePreload: false } }),
  // The customer's root route module would be a facade file of `shared` (rollup keeps an entry's
  // exports strictly and `shared` has others): emitted again with its signature allowed to grow,
  // `shared` is that module itself, one file fewer on every screen. Set for this entry only: for
  // every entry, the resource routes' empty ones merged away and Remix found no chunk for them.
  buildStart(options) {
    if (this.environment.name !== 'client') return
    const root = Object.values(options.input).find(isCustomerRootEntry)
    if (root) this.emitFile({ type: 'chunk', id: root, name: 'shared', preserveSignature: 'allow-extension' })
  },
  load(id) {
    if (id === PRELOAD_HELPER && this.environment.name === 'client') return 'export const __vitePreload = (load) => load()'
  },
  outputOptions(options) {
    return this.environment.name === 'client' ? { ...options, ...browserChunks } : options
  },
}
