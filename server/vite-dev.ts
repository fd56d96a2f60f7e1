import type { Server } from 'node:http'
import type { ServerBuild } from '@remix-run/node'
import type { RequestHandler } from 'express'

/**
 * `npm run dev` (decision 044): Vite's dev server in middleware mode, as Remix documents a custom
 * server. It serves the browser's modules and hot updates (its socket on the web's own port, which
 * the CSP's connect-src 'self' admits), and the Remix build is loaded through it on each request,
 * so a change to app/ is seen on the next one. Vite is a dev dependency: production never loads it.
 * The console is a build of its own (decision 052): a second dev server, its modules and socket
 * under /ops/ (its `base`), asked first for what is under /ops/.
 */
export async function viteDevServer(
  server: Server,
): Promise<{ middlewares: RequestHandler; build: () => Promise<ServerBuild>; opsBuild: () => Promise<ServerBuild> }> {
  const vite = await import('vite')
  const customer = await vite.createServer({ server: { middlewareMode: true, hmr: { server } } })
  const ops = await vite.createServer({ configFile: 'vite.ops.config.ts', server: { middlewareMode: true, hmr: { server } } })
  const customerModules = customer.middlewares as unknown as RequestHandler
  const opsModules = ops.middlewares as unknown as RequestHandler
  return {
    middlewares: (req, res, next) => (req.path.startsWith('/ops/') ? opsModules(req, res, () => customerModules(req, res, next)) : customerModules(req, res, next)),
    build: () => customer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>,
    opsBuild: () => ops.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>,
  }
}
