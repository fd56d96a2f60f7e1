import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { useTestApi } from '../support/kit'

/** SQLite settings the ledger relies on: WAL, a busy timeout, and fsync on every commit. */
const api = useTestApi({ web: false })

describe.skipIf(process.env.TEST_DB === 'postgres')('SQLite durability', () => {
  it('runs in WAL mode with synchronous=FULL and a busy timeout', async () => {
    const pragma = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(api.db)).rows[0] as object)[0]
    expect(await pragma('journal_mode')).toBe('wal')
    expect(await pragma('synchronous')).toBe(2) // FULL
    expect(await pragma('busy_timeout')).toBe(5000)
    expect(await pragma('foreign_keys')).toBe(1)
  })
})
