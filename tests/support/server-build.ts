import type { ServerBuild } from '@remix-run/node'
import * as entry from '~/entry.server'
import { REMIX_FUTURE } from '~/remix-future'

export type BuildRoute = { id: string; parentId: string | undefined; path: string | undefined; index?: boolean; module: object }

/**
 * A Remix server build of the route modules given, without `npm run build`: the app's entry and
 * future flags, client assets named but not built (their files are stand-ins). The console's build
 * (decision 052) has its assets under /ops/assets and a version of its own.
 */
export function serverBuildOf(all: BuildRoute[], { base = '/', version = 'test' }: { base?: string; version?: string } = {}): ServerBuild {
  const assets = `${base}assets`
  const routes: ServerBuild['routes'] = {}
  const manifest: Record<string, unknown> = {}
  for (const { id, parentId, path, index, module } of all) {
    routes[id] = { id, parentId, path, index: index || undefined, caseSensitive: undefined, module: module as never }
    manifest[id] = {
      id,
      parentId,
      path,
      index: index || undefined,
      module: `${assets}/${id}.js`,
      imports: [],
      hasAction: 'action' in module,
      hasLoader: 'loader' in module,
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: 'ErrorBoundary' in module,
    }
  }
  return {
    mode: 'production',
    entry: { module: entry as never },
    routes,
    assets: {
      entry: { module: `${assets}/entry.client.js`, imports: [] },
      routes: manifest,
      version,
      url: `${assets}/manifest-${version}.js`,
    } as never,
    publicPath: base,
    assetsBuildDirectory: 'build/client',
    future: REMIX_FUTURE as never,
    isSpaMode: false,
  } as ServerBuild
}
