import type { ManualChunkMeta, OutputOptions } from 'rollup'
import type { Plugin } from 'vite'

/**
 * How the browser build cuts its chunks (decision 054), in one place for every Vite build of the
 * app to import. A first visit's paint waits on the script requests it starts, so a screen asks
 * for few files: the framework in one chunk, conform's hook in one (the form screens), zod with the
 * forms' schemas in one that a form imports on its first use (decision 059), the app's code shared
 * by several screens in one, the schema-free rules a schema module shares with a few screens in one
 * (decision 059), and what a single screen uses in that screen's own chunk.
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
  if (!APP.test(id) || id.includes('/node_modules/') || isRoute(id, graph)) return undefined
  const routes = [...routesOf(id, graph)]
  if (needs(VALIDATION, id, graph)) return 'validation'
  // What a form brings beside conform stays with the screens that use it.
  if (needs(FORMS, id, graph)) return undefined
  if (routes.some((route) => ROOT.test(route)) || routes.length >= SHARED_BY) return 'shared'
  // A schema module's rules that a screen shows too (app code only): left to rollup, they would
  // follow the schema into the validation chunk and bring it to that screen's first visit.
  if (routes.length > 0 && importedByValidation(id, graph) && !needs(LIBRARY, id, graph)) return 'rules'
  return undefined
}

/** `build.rollupOptions.output` of the browser build. */
const browserChunks: OutputOptions = { manualChunks, experimentalMinChunkSize: 2 * 1024 }

/** Applies `browserChunks` to the browser build of each app; the server build stays one file. */
export const browserChunksPlugin: Plugin = {
  name: 'cardlane-browser-chunks',
  apply: 'build',
  outputOptions(options) {
    return this.environment.name === 'client' ? { ...options, ...browserChunks } : options
  },
}
