import { mkdtempSync, mkdirSync } from 'node:fs'
import type { Server } from 'node:http'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { ServerBuild } from '@remix-run/node'
import * as root from '~/root'
import { createWebApp } from '../../server/app'
import { serverBuildOf } from '../support/server-build'

/**
 * server/'s real Express app (helmet's CSP, the body limits, the Remix handler) around a Remix
 * build of the root and the route modules given, without `npm run build`: for the tests of
 * analytics, /download and /support over HTTP. Client assets are stand-ins.
 */
export type MiniRoute = { id: string; path: string; module: Record<string, unknown> }

function buildOf(routes: MiniRoute[]): ServerBuild {
  return serverBuildOf([{ id: 'root', parentId: undefined, path: '', module: root }, ...routes.map((r) => ({ ...r, parentId: 'root' }))])
}

export type MiniWeb = {
  url: string
  port: number
  /** A raw HTTP request, with any Host header (fetch will not send a forged one). */
  raw(options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<{
    status: number
    headers: Record<string, string | string[] | undefined>
    text: string
  }>
  close(): Promise<void>
}

/** Starts the web on a free port of 127.0.0.1 (API_BASE_URL and the other settings as in process.env). */
export async function startMiniWeb(routes: MiniRoute[]): Promise<MiniWeb> {
  const publicDir = mkdtempSync(path.join(os.tmpdir(), 'cardlane-mini-public-'))
  mkdirSync(path.join(publicDir, 'build'))
  const app = createWebApp(buildOf(routes), { publicDir })
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    raw: ({ method = 'GET', path: target, headers = {}, body }) =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, method, path: target, headers: { host: `127.0.0.1:${port}`, ...headers } },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
            )
            res.on('error', reject)
          },
        )
        req.on('error', reject)
        req.end(body)
      }),
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
