import type { ChildProcess } from 'node:child_process'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nubanCheckDigit } from '#contract/bank-cards'
import { createDb, type Db } from '../../api/db/connect'
import { createStaffSession, insertStaff, updateStaff } from '../../api/models/ops/staff'
import { createSession } from '../../api/models/sessions'
import { createUser } from '../../api/models/users'
import { auditBooks } from '../../api/services/ledger'
import { bundleProcesses, freePort, startApiProcess as startProcess } from '../support/api-process.mjs'
import { createTestDatabase, type TestDatabase } from '../support/db'
import { TEST_ADMIN_TOKEN } from '../support/wallet'

/**
 * Crashes: the real api as its own process, SIGKILLed in the middle of a withdrawal load, then
 * started again on the same database. Every withdrawal it acknowledged is there with its hold,
 * nothing is half-applied, and the books balance. On SQLite and PostgreSQL (TEST_DB).
 */
const root = path.resolve(__dirname, '../..')
let bundle: string
let database: TestDatabase
let db: Db

function startApiProcess(port: number): Promise<ChildProcess> {
  return startProcess({
    bundle,
    port,
    databaseUrl: database.url,
    env: {
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      OUTBOX_DIR: path.join(root, 'tmp', 'crash-test', 'outbox'),
    },
  })
}

const call = async (port: number, route: string, body: unknown, headers: Record<string, string>) => {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', clientType: 'h5', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await res.json()) as { code: number; data: any }
}

beforeAll(async () => {
  bundle = (await bundleProcesses('crash-test')).api
  database = await createTestDatabase()
  db = createDb(database.url).db
}, 120_000)

afterAll(async () => {
  await db?.destroy()
  await database?.drop()
})

describe('kill -9 in the middle of withdrawals', () => {
  it('loses no acknowledged withdrawal and leaves nothing half-applied', async () => {
    const port = await freePort()
    let api = await startApiProcess(port)
    const now = Date.now()
    const user = await createUser(db, { email: `crash.${now}@example.com`, user_name: 'crash' }, now)
    const token = await createSession(db, user.id, now, 86_400_000)
    const auth = { token }
    const staff = await insertStaff(db, { email: `crash.${now}@staff.test`, role: 'admin', createdBy: 'test' }, now)
    await updateStaff(db, staff.id, { status: 'active' }, now)
    const adminHeaders = { authorization: `Bearer ${(await createStaffSession(db, staff.id, now, 12 * 3_600_000)).token}` }
    expect((await call(port, '/v1/user/setPin', { pin: '204816' }, auth)).code).toBe(200)
    const card = await call(
      port,
      '/v1/bankCard/add',
      { bankCode: '058', accountNumber: '000000001' + nubanCheckDigit('058', '000000001'), accountName: 'Ada Obi', pin: '204816' },
      auth,
    )
    expect(card.code).toBe(200)
    const CREDIT = 40_000_000
    expect(
      (
        await call(
          port,
          '/admin/wallet/adjust',
          { userId: user.id, amount: CREDIT, reason: 'crash test', requestId: `credit${now}` },
          adminHeaders,
        )
      ).code,
    ).toBe(200)

    const acknowledged = new Set<string>()
    let attempted = 0
    for (let round = 0; round < 3; round++) {
      let stop = false
      const worker = async () => {
        while (!stop) {
          attempted++
          try {
            const res = await call(
              port,
              '/v1/withdraw/create',
              {
                bankCardId: card.data.id,
                amount: 100_000,
                pin: '204816',
                requestId: `crash${round}x${attempted}x${Math.random().toString(36).slice(2, 10)}`,
              },
              auth,
            )
            if (res.code === 200) acknowledged.add(res.data.id)
          } catch {
            return // the process is gone
          }
        }
      }
      const workers = Array.from({ length: 8 }, worker)
      await new Promise((r) => setTimeout(r, 1_200 + round * 300))
      const exited = new Promise((r) => api.once('exit', r))
      api.kill('SIGKILL')
      stop = true
      await Promise.all(workers)
      await exited
      api = await startApiProcess(port)
    }
    api.kill('SIGTERM')

    expect(acknowledged.size).toBeGreaterThan(0)
    const rows = await db.selectFrom('withdrawals').select(['id', 'amount']).where('user_id', '=', user.id).execute()
    const ids = new Set(rows.map((r) => r.id))
    for (const id of acknowledged) expect(ids.has(id), `acknowledged withdrawal ${id} is gone`).toBe(true)
    // Each withdrawal has exactly one hold in the log; no hold without its withdrawal.
    const holds = await db
      .selectFrom('balance_logs')
      .select(['ref_id'])
      .where('user_id', '=', user.id)
      .where('type', '=', 'withdraw')
      .execute()
    expect(holds.map((h) => h.ref_id).sort()).toEqual([...ids].sort())
    const wallet = await db.selectFrom('wallets').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow()
    expect(Number(wallet.frozen)).toBe(rows.reduce((s, r) => s + Number(r.amount), 0))
    expect(Number(wallet.balance) + Number(wallet.frozen)).toBe(CREDIT)
    expect(await auditBooks(db)).toEqual([])
    console.info(
      `[figures] ${database.kind}: 3 kill -9 rounds, ${attempted} withdrawals attempted, ${acknowledged.size} acknowledged, ${rows.length} stored, books balanced`,
    )
  }, 120_000)
})
