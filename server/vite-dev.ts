import type { Server } from 'node:http'
import type { ServerBuild } from '@remix-run/node'
import type { RequestHandler } from 'express'

/**
 * `npm run dev` (decision 044): Vite's dev server in middleware mode, as Remix documents a custom
 * server. It serves the browser's modules and hot updates (its socket on the web's own port, which
 * the CSP's connect-src 'self' admits), and the Remix build is loaded through it on each request,
 * so a change to app/ is seen on the next one. Vite is a dev dependency: production never loads it.
 */
export async function viteDevServer(server: Server): Promise<{ middlewares: RequestHandler; build: () => Promise<ServerBuild> }> {
  const vite = await import('vite')
  const dev = await vite.createServer({ server: { middlewareMode: true, hmr: { server } } })
  return {
    middlewares: dev.middlewares as unknown as RequestHandler,
    build: () => dev.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>,
  }
}
