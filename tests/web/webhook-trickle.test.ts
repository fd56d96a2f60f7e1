import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverMessages } from '../../server/messages'
import { useTestApi } from '../support/kit'
import { startWeb, type RunningWeb } from './web-app'

/**
 * The webhook's body arrives whole or not at all: a client that sends it a byte at a time holds a
 * connection (and a request in flight) open. The web answers 408 and closes the connection once
 * the whole body has not arrived within the route's time, over a raw socket as such a client would.
 */
useTestApi()
let web: RunningWeb
beforeAll(async () => {
  web = await startWeb()
})
afterAll(async () => {
  await web?.close()
})

type Outcome = { status: number | null; text: string; closedAfterMs: number; bytesSent: number }

/** POSTs a declared 2 kB body one byte every `everyMs`, until the server answers or closes. */
function trickle(port: number, everyMs: number, giveUpMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = Date.now()
    const socket = connect(port, '127.0.0.1')
    let received = ''
    let bytesSent = 0
    const body = `{"event":"transfer.success","data":{"reference":"${'x'.repeat(2000)}"}}`
    socket.on('connect', () => {
      socket.write(
        `POST /webhooks/paystack HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nx-paystack-signature: abc\r\n\r\n`,
      )
    })
    const drip = setInterval(() => {
      if (bytesSent < body.length && !socket.destroyed) socket.write(body[bytesSent++])
    }, everyMs)
    const done = () => {
      clearInterval(drip)
      clearTimeout(giveUp)
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]
      resolve({
        status: status ? Number(status) : null,
        text: received.split('\r\n\r\n')[1] ?? '',
        closedAfterMs: Date.now() - started,
        bytesSent,
      })
    }
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs)
    socket.on('data', (chunk) => (received += chunk.toString('utf8')))
    socket.on('error', () => undefined)
    socket.on('close', done)
  })
}

describe('POST /webhooks/paystack with a body that trickles in', () => {
  it('answers 408 and closes the connection within the route’s 10 s, never waits for the whole body', { timeout: 30_000 }, async () => {
    const out = await trickle(web.port, 200, 20_000)
    expect(out.status).toBe(408)
    expect(out.text).toBe(serverMessages.tooSlow)
    // Closed by the server at about 10 s (the client would have gone on for another 6 minutes).
    expect(out.closedAfterMs).toBeGreaterThanOrEqual(9_500)
    expect(out.closedAfterMs).toBeLessThan(15_000)
    expect(out.bytesSent).toBeLessThan(100)
  })

  it('a body sent whole still reaches the api (its signature is refused there: 401, not 408)', async () => {
    const res = await fetch(`${web.url}/webhooks/paystack`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': 'abc' },
      body: '{"event":"transfer.success","data":{}}',
    })
    expect(res.status).toBe(401)
  })
})
