import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { useTestApi } from '../support/kit'
import { seedStaff } from '../support/staff'
import { walletUser, withdraw } from '../support/wallet'

/** `npm run ops -- pay <id>`: what a payouts person needs to pay by hand, against the real api over HTTP. */
const api = useTestApi()
const script = path.resolve(__dirname, '../../scripts/ops.mjs')
const home = mkdtempSync(path.join(tmpdir(), 'ops-cli-pay-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

async function ops(args: string[], token: string) {
  const child = spawn(process.execPath, [script, ...args], {
    env: {
      PATH: process.env.PATH,
      OPS_API_URL: api.url,
      OPS_TOKEN: token,
      OPS_TOKEN_FILE: path.join(home, 'no-session'),
      ADMIN_TOKEN: '',
    } as unknown as NodeJS.ProcessEnv,
    timeout: 20_000,
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  child.stdin.end()
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)))
  return { code, stdout, stderr }
}

describe('npm run ops -- pay', { timeout: 60_000 }, () => {
  it('prints bank, holder, the full account number and the amount to send (net of fee), the same figure as the queue; audited', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 300_000)).body.data
    const number = (await api.db.selectFrom('bank_cards').select('account_number').where('id', '=', u.card!.id).executeTakeFirstOrThrow())
      .account_number
    const staff = await seedStaff(api, { role: 'payouts' })

    const queue = await ops(['withdrawals', '--status', 'pending'], staff.token)
    const line = queue.stdout.split('\n').find((l) => l.startsWith(w.id))!
    expect(line).toContain('send      ₦2,950.00')
    expect(line).not.toContain(number)

    const pay = await ops(['pay', w.id], staff.token)
    expect(pay.stderr).toBe('')
    expect(pay.code).toBe(0)
    expect(pay.stdout).toContain(`Withdrawal ${w.id}: send exactly ₦2,950.00 (2950.00)`)
    expect(pay.stdout).toContain('bank            Guaranty Trust Bank (code 058)')
    expect(pay.stdout).toContain('holder          Ada Obi')
    expect(pay.stdout).toContain(`account number  ${number}`)
    const audited = await api.db
      .selectFrom('audit_log')
      .select('actor')
      .where('action', '=', 'withdrawal.reveal_account')
      .where('target_id', '=', w.id)
      .execute()
    expect(audited).toEqual([{ actor: `staff:${staff.email}` }])
  })

  it('a reviewer is refused and sees no number; a missing id is a usage line', async () => {
    const u = await walletUser(api, { balance: 1_000_000 })
    const w = (await withdraw(api, u, 200_000)).body.data
    const reviewer = await seedStaff(api, { role: 'reviewer' })
    const refused = await ops(['pay', w.id], reviewer.token)
    expect(refused.code).toBe(2)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toMatch(/^ops: /)
    const usage = await ops(['pay'], reviewer.token)
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('usage: pay <withdrawal id>')
  })
})
