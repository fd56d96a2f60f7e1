import type { Kysely } from 'kysely'

/**
 * The console's dashboard reads its figures from indexes alone (decision 056): each index it ranges
 * over also carries the columns the figure needs, so the database never looks up the rows
 * themselves. Each keeps its name and its leading columns, so every other query it served it serves
 * as before.
 */
const widened: { name: string; table: string; before: string[]; after: string[] }[] = [
  // The week's reviews: when decided, after how long, against which ETA.
  { name: 'orders_decided_idx', table: 'orders', before: ['decided_at'], after: ['decided_at', 'created_at', 'eta_minutes'] },
  // What waits: since when, and whether past its ETA.
  { name: 'orders_status_idx', table: 'orders', before: ['status', 'created_at'], after: ['status', 'created_at', 'eta_minutes'] },
  {
    name: 'withdrawals_status_idx',
    table: 'withdrawals',
    before: ['status', 'created_at'],
    after: ['status', 'created_at', 'expected_by'],
  },
  // Today's credits and payments: how much, and which withdrawal.
  {
    name: 'balance_logs_ref_created_idx',
    table: 'balance_logs',
    before: ['ref_type', 'created_at'],
    after: ['ref_type', 'created_at', 'amount'],
  },
  {
    name: 'withdrawal_events_status_at_idx',
    table: 'withdrawal_events',
    before: ['status', 'at'],
    after: ['status', 'at', 'withdrawal_id'],
  },
]

async function indexWith(db: Kysely<any>, side: 'before' | 'after') {
  for (const index of widened) {
    await db.schema.dropIndex(index.name).execute()
    await db.schema.createIndex(index.name).on(index.table).columns(index[side]).execute()
  }
}

export const up = (db: Kysely<any>) => indexWith(db, 'after')
export const down = (db: Kysely<any>) => indexWith(db, 'before')
