import { type ChildProcess } from 'node:child_process'
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nubanCheckDigit } from '#contract/bank-cards'
import { createDb, type Db } from '../../api/db/connect'
import { createStaffSession, insertStaff, updateStaff } from '../../api/models/ops/staff'
import { createSession } from '../../api/models/sessions'
import { createUser } from '../../api/models/users'
import { approvePayout } from '../../api/models/withdrawals'
import { bundleProcesses, ensureRemixBuild, exited, freePort, startApiProcess, startWebProcess } from '../support/api-process.mjs'
import { createTestDatabase, type TestDatabase } from '../support/db'
import { FAKE_PAYSTACK_SECRET, startFakePaystack } from '../support/paystack-fake'
import { jpeg } from '../support/selling'
import { signedInJar } from '../support/web'

/**
 * SIGTERM to the built api and web processes while requests are on their way: a withdrawal and a
 * photo upload whose bodies are still arriving when the signal lands. Both complete; from the
 * signal on the port takes no new connection; the process exits 0. On SQLite and PostgreSQL (TEST_DB).
 */
const SESSION_SECRET = 'graceful-stop-session-secret-0123456789abcdef0123'
const PIN = '204816'
let bundles: { api: string; web: string }
let database: TestDatabase
let db: Db

beforeAll(async () => {
  bundles = await bundleProcesses('graceful-stop', { web: true })
  // The web process loads the Remix build (`npm run build`); made here when it is older than its sources.
  ensureRemixBuild()
  database = await createTestDatabase()
  db = createDb(database.url).db
}, 300_000)

afterAll(async () => {
  keepAlive.destroy()
  await db?.destroy()
  await database?.drop()
})

type Answer = { status: number; body: string }

/**
 * A client that keeps its connections open between requests, as a proxy or a browser does: a stop
 * that waited for clients to hang up would wait for ever.
 */
const keepAlive = new http.Agent({ keepAlive: true })

/** A request whose body goes out in two halves: the first now, the second when finish() is called. */
function halfSent(url: string, headers: Record<string, string>, body: Buffer) {
  const req = http.request(url, { method: 'POST', agent: keepAlive, headers: { ...headers, 'content-length': String(body.length) } })
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on('error', reject)
  })
  const cut = Math.floor(body.length / 2)
  req.write(body.subarray(0, cut))
  return {
    answer,
    finish() {
      req.end(body.subarray(cut))
      return answer
    },
  }
}

/** A one-part multipart body with a photo, as the browser sends it. */
function multipart(photo: Buffer) {
  const boundary = 'graceful-stop-boundary'
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="card.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head), photo, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  }
}

const refusesNewConnections = async (port: number) => {
  const error = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => null,
    (err: Error & { cause?: { code?: string } }) => err.cause?.code,
  )
  return error === 'ECONNREFUSED'
}

async function person(apiPort: number) {
  const now = Date.now()
  const user = await createUser(db, { email: `stop.${now}@example.com`, user_name: 'Ngozi Eze' }, now)
  const token = await createSession(db, user.id, now, 86_400_000)
  const staff = await insertStaff(db, { email: `stop.${now}@staff.test`, role: 'admin', createdBy: 'test' }, now)
  await updateStaff(db, staff.id, { status: 'active' }, now)
  const admin = (await createStaffSession(db, staff.id, now, 3_600_000)).token
  const call = async (route: string, body: unknown, headers: Record<string, string>) => {
    const res = await fetch(`http://127.0.0.1:${apiPort}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', clientType: 'h5', ...headers },
      body: JSON.stringify(body),
    })
    return (await res.json()) as { code: number; data: any }
  }
  expect((await call('/v1/user/setPin', { pin: PIN }, { token })).code).toBe(200)
  const account = { bankCode: '058', accountNumber: '000000001' + nubanCheckDigit('058', '000000001'), accountName: 'Ngozi Eze', pin: PIN }
  const card = await call('/v1/bankCard/add', account, { token })
  expect(card.code).toBe(200)
  const credit = { userId: user.id, amount: 5_000_000, reason: 'stop test', requestId: `stopcredit${now}` }
  expect((await call('/admin/wallet/adjust', credit, { authorization: `Bearer ${admin}` })).code).toBe(200)
  return { user, token, cardId: card.data.id as string }
}

describe('SIGTERM lets requests in flight finish', () => {
  it('api: a withdrawal and an upload under way complete, nothing new is accepted, exit 0', async () => {
    const port = await freePort()
    const api: ChildProcess = await startApiProcess({
      bundle: bundles.api,
      port,
      databaseUrl: database.url,
      env: { ADMIN_TOKEN: 'x'.repeat(40) },
    })
    const { user, token, cardId } = await person(port)
    const base = `http://127.0.0.1:${port}`
    const json = { 'content-type': 'application/json', clientType: 'h5', token }
    const withdrawal = halfSent(
      `${base}/v1/withdraw/create`,
      json,
      Buffer.from(JSON.stringify({ bankCardId: cardId, amount: 100_000, pin: PIN, requestId: `stop${Date.now()}` })),
    )
    const form = multipart(await jpeg(400, 300))
    const upload = halfSent(`${base}/v1/file/upload`, { 'content-type': form.type, clientType: 'h5', token }, form.body)
    await new Promise((r) => setTimeout(r, 200))

    const exit = exited(api)
    api.kill('SIGTERM')
    await expect.poll(() => refusesNewConnections(port)).toBe(true)
    const [w, u] = await Promise.all([withdrawal.finish(), upload.finish()])
    expect(w.status).toBe(200)
    expect(JSON.parse(w.body).code).toBe(200)
    expect(u.status).toBe(200)
    expect(JSON.parse(u.body).data.fileId).toBeTruthy()
    expect(await exit).toBe(0)

    const stored = await db.selectFrom('withdrawals').select('id').where('user_id', '=', user.id).execute()
    expect(stored.map((r) => r.id)).toEqual([JSON.parse(w.body).data.id])
  }, 60_000)

  it('web: an upload under way completes, nothing new is accepted, exit 0', async () => {
    const apiPort = await freePort()
    const api = await startApiProcess({
      bundle: bundles.api,
      port: apiPort,
      databaseUrl: database.url,
      env: { ADMIN_TOKEN: 'x'.repeat(40) },
    })
    const webPort = await freePort()
    const web = await startWebProcess({
      bundle: bundles.web,
      port: webPort,
      apiUrl: `http://127.0.0.1:${apiPort}`,
      sessionSecret: SESSION_SECRET,
    })
    try {
      const { token } = await person(apiPort)
      process.env.SESSION_SECRET = SESSION_SECRET
      const cookie = (await signedInJar(token)).header()
      const form = multipart(await jpeg(400, 300))
      const upload = halfSent(`http://127.0.0.1:${webPort}/file/upload`, { 'content-type': form.type, cookie }, form.body)
      await new Promise((r) => setTimeout(r, 200))
      const exit = exited(web)
      web.kill('SIGTERM')
      await expect.poll(() => refusesNewConnections(webPort)).toBe(true)
      const u = await upload.finish()
      expect(u.status).toBe(200)
      expect(JSON.parse(u.body).fileId).toBeTruthy()
      expect(await exit).toBe(0)
    } finally {
      web.kill('SIGKILL')
      api.kill('SIGTERM')
      await exited(api)
    }
  }, 60_000)

  it('api: the payout worker finishes the payouts in hand and claims no more', async () => {
    const N = 20
    const fake = await startFakePaystack()
    const port = await freePort()
    fake.answerWith = 'success'
    fake.trouble('transfer', ...Array.from({ length: N }, () => ({ kind: 'slow' as const, ms: 1500 })))
    const env = {
      ADMIN_TOKEN: 'x'.repeat(40),
      PAYOUT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET,
      PAYSTACK_BASE_URL: fake.url,
      PAYSTACK_TIMEOUT_MS: '5000',
      PAYOUT_LEASE_SECONDS: '60',
      // Every withdrawal waits for approval, so all of them fall due at once below.
      AUTO_PAYOUT_MAX: '1',
    }
    const api = await startApiProcess({ bundle: bundles.api, port, databaseUrl: database.url, env })
    try {
      const { token, cardId } = await person(port)
      const ids: string[] = []
      for (let i = 0; i < N; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/v1/withdraw/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', clientType: 'h5', token },
          body: JSON.stringify({ bankCardId: cardId, amount: 100_000, pin: PIN, requestId: `stoppay${Date.now()}x${i}` }),
        })
        ids.push(((await res.json()) as { data: { id: string } }).data.id)
      }
      for (const id of ids) expect(await approvePayout(db, id, Date.now())).toBe(true)
      await expect.poll(() => fake.transferCalls.length, { timeout: 20_000 }).toBeGreaterThan(0)

      const exit = exited(api)
      api.kill('SIGTERM')
      expect(await exit).toBe(0)
      const rows = await db.selectFrom('withdrawals').selectAll().where('id', 'in', ids).execute()
      const claimed = rows.filter((r) => Number(r.payout_attempts) > 0)
      expect(claimed.length).toBeGreaterThan(0)
      expect(claimed.length, 'a stopping worker claimed more').toBeLessThan(N)
      for (const r of claimed) {
        expect(r.status).toBe('success')
        expect(r.payout_lease_until).toBeNull()
      }
      for (const r of rows.filter((r) => Number(r.payout_attempts) === 0)) expect(r.status).toBe('pending')
    } finally {
      api.kill('SIGKILL')
      await fake.close()
    }
  }, 90_000)
})
