// Shared by both processes (the api imports it from here: the web's bundle holds only server/).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Registry } from 'prom-client'

/**
 * /metrics on a listener of its own (METRICS_PORT, on METRICS_HOST: 127.0.0.1 unless set), never on
 * the port pages or api calls are served on: the public proxy cannot reach it and no token has to live in the scraper's settings.
 */
export async function serveMetrics(registry: Registry, at: { port: number | null; host: string }) {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(503, { 'content-type': 'text/plain' }).end('metrics unavailable'),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(at.port ?? 0, at.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = at.host.includes(':') ? `[${at.host}]` : at.host
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
