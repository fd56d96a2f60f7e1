import type { Server } from 'node:http'
import type { ServerBuild } from '@remix-run/node'
// The dev hooks Remix's Vite plugin sets, one set per process; the package exports only the setter.
import { getDevServerHooks, setDevServerHooks } from '@remix-run/server-runtime/dist/dev.js'
import type { RequestHandler } from 'express'
import { isOpsPath } from './page-path'

/**
 * `npm run dev` (decision 044): Vite's dev server in middleware mode, as Remix documents a custom
 * server. It serves the browser's modules and hot updates (its socket on the web's own port, which
 * the CSP's connect-src 'self' admits), and the Remix build is loaded through it on each request,
 * so a change to app/ is seen on the next one. Vite is a dev dependency: production never loads it.
 * The console is a build of its own (decision 052): a second dev server, its modules and socket
 * under /ops/ (its `base`).
 */
export async function viteDevServer(
  server: Server,
): Promise<{ middlewares: RequestHandler; build: () => Promise<ServerBuild>; opsBuild: () => Promise<ServerBuild> }> {
  const vite = await import('vite')
  const customer = await vite.createServer({ server: { middlewareMode: true, hmr: { server } } })
  const customerHooks = getDevServerHooks() ?? {}
  const ops = await vite.createServer({ configFile: 'vite.ops.config.ts', server: { middlewareMode: true, hmr: { server } } })
  const opsHooks = getDevServerHooks() ?? {}
  // Each plugin sets the process's one set of hooks (the page's critical CSS from its own app
  // folder); the second would answer for both, so each page asks its own app's.
  setDevServerHooks({
    getCriticalCss: async (build, pathname) => (isOpsPath(pathname) ? opsHooks : customerHooks).getCriticalCss?.(build, pathname),
    processRequestError: (error) => customerHooks.processRequestError?.(error),
  })
  const customerModules = customer.middlewares as unknown as RequestHandler
  const opsModules = ops.middlewares as unknown as RequestHandler
  return {
    // The console's server strips its base from req.url for its own lookup; what it does not serve
    // goes on as it came.
    middlewares: (req, res, next) => {
      if (!req.url.startsWith('/ops/')) return customerModules(req, res, next)
      const url = req.url
      opsModules(req, res, () => {
        req.url = url
        customerModules(req, res, next)
      })
    },
    build: () => customer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>,
    opsBuild: () => ops.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>,
  }
}
