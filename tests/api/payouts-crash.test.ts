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
import { FAKE_PAYSTACK_SECRET, startFakePaystack, type FakePaystack } from '../support/paystack-fake'
import { TEST_ADMIN_TOKEN } from '../support/wallet'

/**
 * kill -9 in the middle of payouts: the real api as its own process with PAYOUT_PROVIDER=paystack
 * (its worker on its own timer), SIGKILLed while transfers are on their way, then started again on
 * the same database. Every withdrawal is paid exactly once at the provider and in the books. On
 * SQLite and PostgreSQL (TEST_DB).
 */
const root = path.resolve(__dirname, '../..')
let bundle: string
let database: TestDatabase
let db: Db
let fake: FakePaystack

function startApiProcess(port: number): Promise<ChildProcess> {
  return startProcess({
    bundle,
    port,
    databaseUrl: database.url,
    env: {
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      OUTBOX_DIR: path.join(root, 'tmp', 'payouts-crash', 'outbox'),
      PAYOUT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET,
      PAYSTACK_BASE_URL: fake.url,
      PAYSTACK_TIMEOUT_MS: '1000',
      PAYOUT_LEASE_SECONDS: '5',
      PAYOUT_POLL_SECONDS: '1',
      AUTO_PAYOUT_MAX: '100000000',
      // A withdrawal killed between "sent" and the transfer call is found absent only after the
      // grace; this fake has no read-after-write lag, so the grace here is short.
      PAYOUT_NOT_FOUND_GRACE_SECONDS: '2',
    },
  })
}

const call = async (port: number, route: string, body: unknown, headers: Record<string, string>) => {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', clientType: 'h5', ...headers },
    body: JSON.stringify(body),
  })
  return (await res.json()) as { code: number; data: any; msg: string }
}

beforeAll(async () => {
  bundle = (await bundleProcesses('payouts-crash')).api
  database = await createTestDatabase()
  db = createDb(database.url).db
  fake = await startFakePaystack()
}, 120_000)

afterAll(async () => {
  await fake?.close()
  await db?.destroy()
  await database?.drop()
})

describe('kill -9 in the middle of payouts', () => {
  it('pays every withdrawal exactly once after a restart, and the books balance', async () => {
    const N = 30
    const AMOUNT = 100_000
    const port = await freePort()
    fake.webhookUrl = `http://127.0.0.1:${port}/v1/webhooks/paystack`
    // Slow transfers that succeed: a kill lands while some are on their way.
    fake.answerWith = 'success'
    fake.trouble('transfer', ...Array.from({ length: 4 * N }, () => ({ kind: 'slow' as const, ms: 250 })))
    let api = await startApiProcess(port)
    const now = Date.now()
    const user = await createUser(db, { email: `payout-crash.${now}@example.com`, user_name: 'Adaeze Obi' }, now)
    const token = await createSession(db, user.id, now, 86_400_000)
    expect((await call(port, '/v1/user/setPin', { pin: '204816' }, { token })).code).toBe(200)
    const card = await call(
      port,
      '/v1/bankCard/add',
      { bankCode: '058', accountNumber: '000000001' + nubanCheckDigit('058', '000000001'), pin: '204816' },
      { token },
    )
    expect(card.code, card.msg).toBe(200)
    // The credit is a staff admin's (ADMIN_TOKEN may not move money), made straight in the database.
    const staff = await insertStaff(db, { email: `crash-admin.${now}@staff.test`, role: 'admin', createdBy: 'test' }, now)
    await updateStaff(db, staff.id, { status: 'active' }, now)
    const staffToken = (await createStaffSession(db, staff.id, now, 3_600_000)).token
    const credit = await call(
      port,
      '/admin/wallet/adjust',
      { userId: user.id, amount: 10_000_000, reason: 'crash test', requestId: `credit${now}` },
      { authorization: `Bearer ${staffToken}` },
    )
    expect(credit.code).toBe(200)
    const ids: string[] = []
    for (let i = 0; i < N; i++) {
      const w = await call(
        port,
        '/v1/withdraw/create',
        { bankCardId: card.data.id, amount: AMOUNT, pin: '204816', requestId: `pc${now}x${i}` },
        { token },
      )
      expect(w.code, w.msg).toBe(200)
      ids.push(w.data.id)
    }

    // Kill while the worker is in the middle of them.
    const made = () => ids.filter((id) => fake.transfers.has(id)).length
    for (let i = 0; i < 600 && made() < 3; i++) await new Promise((r) => setTimeout(r, 20))
    const exited = new Promise((r) => api.once('exit', r))
    api.kill('SIGKILL')
    await exited
    const madeAtKill = made()
    expect(madeAtKill).toBeLessThan(N)

    api = await startApiProcess(port)
    const paid = async () =>
      (await db.selectFrom('withdrawals').select('id').where('id', 'in', ids).where('status', '=', 'success').execute()).length
    for (let i = 0; i < 600 && (await paid()) < N; i++) await new Promise((r) => setTimeout(r, 100))
    api.kill('SIGTERM')
    await new Promise((r) => api.once('exit', r))

    expect(await paid()).toBe(N)
    for (const id of ids)
      expect(
        fake.transferCalls.filter((c) => c.reference === id && c.made),
        id,
      ).toHaveLength(1)
    const paidEntries = await db
      .selectFrom('balance_logs')
      .select('ref_id')
      .where('type', '=', 'withdraw_paid')
      .where('ref_id', 'in', ids)
      .execute()
    expect(paidEntries.map((e) => e.ref_id).sort()).toEqual([...ids].sort())
    const wallet = await db.selectFrom('wallets').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow()
    expect({ balance: Number(wallet.balance), frozen: Number(wallet.frozen) }).toEqual({ balance: 10_000_000 - N * AMOUNT, frozen: 0 })
    expect(await auditBooks(db)).toEqual([])
    const attempts = fake.transferCalls.filter((c) => ids.includes(c.reference)).length
    console.info(
      `[figures] ${database.kind}: kill -9 with ${madeAtKill}/${N} transfers made; after the restart all ${N} paid once (${attempts} transfer calls, ${attempts - N} refused as duplicates)`,
    )
  }, 120_000)
})
