import { describe, expect, it } from 'vitest'
import { auditChanges } from '~/ops/audit-changes'
import * as audit from '~/ops/routes/ops.audit'
import { staffJar } from '../support/console'
import { useTestApi } from '../support/kit'
import { bearer, seedStaff } from '../support/staff'
import { walletUser, withdraw } from '../support/wallet'
import { jsonOf, load } from '../support/web'

/** /ops/audit shows what changed as fields and values a person reads, not the entry's JSON. */
const api = useTestApi({ web: true })

describe('/ops/audit', () => {
  it('a withdrawal marked processing reads "Status: pending → processing", with no raw JSON and no account number', async () => {
    const payer = await walletUser(api, { balance: 5_000_000 })
    const w = (await withdraw(api, payer, 1_000_000)).body.data
    const payouts = await seedStaff(api, { role: 'payouts' })
    const moved = await api.post('/admin/withdraw/update', { id: w.id, status: 'processing' }, { headers: bearer(payouts.token) })
    expect(moved.body.code, moved.text).toBe(200)
    const { jar } = await staffJar(api, 'admin')
    const page = await jsonOf(await load(audit.loader, `/ops/audit?targetId=${w.id}`, jar))
    const entry = page.page.list.find((e: { action: string }) => e.action === 'withdrawal.processing')
    const changes = page.changes[entry.id]
    expect(changes).toContainEqual({ field: 'Status', before: 'pending', after: 'processing' })
    for (const c of changes) {
      expect(c.field).not.toMatch(/[_{}"]/)
      expect(`${c.before} ${c.after}`).not.toMatch(/^\{|":/)
    }
  })
})

describe('auditChanges', () => {
  it('names fields in words, writes times and amounts as the console does, and lists only what changed', () => {
    const before = { status: 'pending', amount: 1_000_000, fee: 5_000, currency: 'NGN', updated_at: 1_764_000_000_000 }
    const after = { ...before, status: 'success', reference: 'NIP-1', updated_at: 1_764_000_060_000 }
    expect(auditChanges(before, after)).toEqual([
      { field: 'Status', before: 'pending', after: 'success' },
      { field: 'Updated at', before: expect.stringMatching(/UTC$/), after: expect.stringMatching(/UTC$/) },
      { field: 'Reference', before: '—', after: 'NIP-1' },
    ])
  })

  it('a new thing lists its fields; nested ones by path; secrets never appear', () => {
    const changes = auditChanges(null, {
      email: 'ada@example.com',
      password_hash: 'argon2id$…',
      totpSecret: 'JBSWY3DP',
      bankCard: { bankName: 'Access Bank', account_number: '0123456789' },
      amount: 250_000,
      currency: 'NGN',
    })
    expect(changes.map((c) => c.field)).toEqual(['Email', 'Bank card › Bank name', 'Amount', 'Currency'])
    expect(changes.find((c) => c.field === 'Amount')?.after).toMatch(/2,500\.00/)
    expect(JSON.stringify(changes)).not.toMatch(/argon2|JBSWY|0123456789/)
  })
})
