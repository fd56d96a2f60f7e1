import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * A stand-in upstream that misbehaves on purpose, to prove every line of the error catalogue
 * (SPEC §8). It records what it was asked, so the client's headers and `_t` can be checked.
 */
export type Fault =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'text'; status: number; body: string; contentType?: string }
  | { kind: 'hang' }
  | { kind: 'stall-body' }
  | { kind: 'destroy' }
  | { kind: 'redirect'; location: string }
  | { kind: 'chunked'; chunks: number; chunkBytes: number }

export type Seen = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

export async function startFaultUpstream() {
  let fault: Fault = { kind: 'json', status: 200, body: { code: 200, msg: '', data: null } }
  const seen: Seen[] = []
  const sockets = new Set<Socket>()
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      switch (fault.kind) {
        case 'json':
          res.writeHead(fault.status, { 'Content-Type': 'application/json', ...fault.headers }).end(JSON.stringify(fault.body))
          return
        case 'text':
          res.writeHead(fault.status, { 'Content-Type': fault.contentType ?? 'text/plain' }).end(fault.body)
          return
        case 'hang':
          return // never answers; the client's timeout must fire
        case 'stall-body':
          // Headers and the start of a body, then nothing: the timeout must cover the body too.
          res.writeHead(200, { 'Content-Type': 'application/json' }).write('{"code":200,"msg":"","data":')
          return
        case 'destroy':
          req.socket.destroy()
          return
        case 'chunked': {
          // An envelope without Content-Length: its size shows only as the body arrives.
          res.writeHead(200, { 'Content-Type': 'application/json' })
          res.write('{"code":200,"msg":"","data":"')
          const chunk = Buffer.alloc(fault.chunkBytes, 'x')
          for (let i = 0; i < fault.chunks; i++) res.write(chunk)
          res.end('"}')
          return
        }
        case 'redirect':
          res.writeHead(302, { Location: fault.location }).end()
          return
      }
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    set(next: Fault) {
      fault = next
    },
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A port nobody listens on: connection refused. */
export async function closedPort(): Promise<string> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}
