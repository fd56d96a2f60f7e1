import { EventEmitter } from 'node:events'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REDACT_PATHS } from '../../api/lib/logger'
import { requestLog } from '../../api/middleware/request-log'
import { startApi, type RunningApi } from '../../api/server'
import { createTestDatabase } from '../support/db'

/**
 * The request line is the one line every call writes: it costs no child logger and no redaction
 * pass (api/middleware/request-log.ts); a line written about a request still carries its id.
 */
const lines: Record<string, unknown>[] = []
let children = 0
let api: RunningApi
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>)
    done()
  },
})
let drop: () => Promise<void>

beforeAll(async () => {
  const database = await createTestDatabase()
  drop = database.drop
  const logger = pino(
    {
      level: 'info',
      // `method` and `status` as if they were secrets: the request line, whose six fields are
      // never secret, is not redacted, so they show; any other line still is.
      redact: { paths: [...REDACT_PATHS, 'method', 'status'], censor: '[redacted]' },
      onChild: () => void children++,
    },
    sink,
  )
  api = await startApi({
    env: {} as NodeJS.ProcessEnv,
    databaseUrl: database.url,
    port: 0,
    host: '127.0.0.1',
    logger,
    housekeeping: false,
    payoutWorker: false,
    deliveryWorker: false,
    hashCost: 'test',
  })
})
afterAll(async () => {
  await api?.close()
  await drop?.()
})

describe('the request line', () => {
  it('is written without a child logger or a redaction pass, with the request id', async () => {
    const before = children
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${api.url}/v1/giftcard/featured?_t=${i}`, {
        headers: { clientType: 'h5', 'x-request-id': `requestlog${i}` },
      })
      expect(res.status).toBe(200)
      await res.arrayBuffer()
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(children - before).toBe(0)
    const mine = lines.filter((l) => l.msg === 'request' && String(l.requestId).startsWith('requestlog'))
    expect(mine).toHaveLength(5)
    expect(mine[0]).toMatchObject({ method: 'GET', path: '/v1/giftcard/featured', status: 200, code: 200 })
  })

  it("gives a line written about the request its id, and the logger's redaction", () => {
    const before = children
    const written = lines.length
    const res = Object.assign(new EventEmitter(), { locals: { requestId: 'aboutonerequest' } as Record<string, unknown>, statusCode: 500 })
    const logger = pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' }, onChild: () => void children++ }, sink)
    requestLog(logger)({ method: 'GET', path: '/x' } as never, res as never, () => {})
    expect(children - before).toBe(1)
    ;(res.locals.log as typeof logger).error({ token: 'secret' }, 'unexpected error')
    expect(children - before).toBe(2)
    res.emit('finish')
    expect(lines.slice(written)).toMatchObject([
      { msg: 'unexpected error', requestId: 'aboutonerequest', token: '[redacted]' },
      { msg: 'request', requestId: 'aboutonerequest', method: 'GET', path: '/x', status: 500 },
    ])
  })
})
