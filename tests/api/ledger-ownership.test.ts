import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/** The ledger is the only code that moves money (issue: one ledger module). */
const root = path.resolve(__dirname, '../../api')
const LEDGER = path.join(root, 'services/ledger.ts')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name)
    return statSync(p).isDirectory() ? files(p) : /\.ts$/.test(name) ? [p] : []
  })
}

describe('money moves only through api/services/ledger.ts', () => {
  it('no other api file inserts, updates or deletes wallets or balance_logs', () => {
    const writes =
      /(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`](wallets|balance_logs)['"`]|\b(insert\s+into|update|delete\s+from)\s+(wallets|balance_logs)\b/i
    const offenders = files(root)
      .filter((f) => f !== LEDGER && !f.includes(`${path.sep}migrations${path.sep}`))
      .filter((f) => writes.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f))
    expect(offenders).toEqual([])
  })

  it('the ledger never updates or deletes a balance-log entry', () => {
    const src = readFileSync(LEDGER, 'utf8')
    expect(src).not.toMatch(/(updateTable|deleteFrom)\(\s*['"`]balance_logs/)
  })

  it('the check itself catches a write elsewhere', () => {
    const writes = /(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`](wallets|balance_logs)['"`]/
    expect(writes.test(`await db.updateTable('wallets').set({ balance: 0 })`)).toBe(true)
  })
})
