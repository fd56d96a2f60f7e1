import type { Db, DbKind } from '../db/connect'
import type { BankCardRow } from '../db/schema'

export const liveBankCards = (db: Db, userId: string): Promise<BankCardRow[]> =>
  db
    .selectFrom('bank_cards')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'asc')
    .execute()

/** The person's own live card; undefined for another person's id or a deleted card. */
export const findOwnBankCard = (db: Db, userId: string, id: string): Promise<BankCardRow | undefined> =>
  db
    .selectFrom('bank_cards')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()

/**
 * Inside a write transaction: the person's own live card, locked until the commit (PostgreSQL), so
 * its removal cannot slip in between this check and what the transaction writes. SQLite's
 * BEGIN IMMEDIATE already holds every writer.
 */
export const lockOwnBankCard = (db: Db, kind: DbKind, userId: string, id: string): Promise<BankCardRow | undefined> =>
  db
    .selectFrom('bank_cards')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .$if(kind === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst()

/** Any card by id, deleted too: withdrawals keep showing where they went. */
export const findBankCard = (db: Db, id: string): Promise<BankCardRow | undefined> =>
  db.selectFrom('bank_cards').selectAll().where('id', '=', id).executeTakeFirst()

export async function insertBankCard(db: Db, row: BankCardRow): Promise<void> {
  await db.insertInto('bank_cards').values(row).execute()
}

export async function softDeleteBankCard(db: Db, userId: string, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('bank_cards')
    .set({ deleted_at: now, is_default: 0 })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Makes `id` the one default among the person's live cards. */
export async function setDefaultBankCard(db: Db, userId: string, id: string): Promise<void> {
  await db.updateTable('bank_cards').set({ is_default: 0 }).where('user_id', '=', userId).where('id', '!=', id).execute()
  await db.updateTable('bank_cards').set({ is_default: 1 }).where('user_id', '=', userId).where('id', '=', id).execute()
}
