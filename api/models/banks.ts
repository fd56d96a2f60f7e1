import type { Db, DbKind } from '../db/connect'
import type { BankRow } from '../db/schema'
import { writeTransaction } from '../db/transaction'
import type { ProviderBank } from '../lib/payouts/banking'

export const readBanks = (db: Db, currency: string): Promise<BankRow[]> =>
  db.selectFrom('banks').selectAll().where('currency', '=', currency).execute()

/** The provider's list in force: every listed bank upserted, every other one of the currency made inactive. */
export async function upsertBanks(db: Db, kind: DbKind, currency: string, banks: ProviderBank[], now: number): Promise<void> {
  const unique = [...new Map(banks.map((b) => [b.code, b])).values()]
  await writeTransaction(db, kind, async (trx) => {
    for (let i = 0; i < unique.length; i += 100) {
      const rows = unique.slice(i, i + 100).map((b) => ({
        currency,
        code: b.code,
        name: b.name,
        slug: b.slug,
        type: b.type,
        active: b.active ? 1 : 0,
        refreshed_at: now,
      }))
      await trx
        .insertInto('banks')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['currency', 'code']).doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            slug: eb.ref('excluded.slug'),
            type: eb.ref('excluded.type'),
            active: eb.ref('excluded.active'),
            refreshed_at: eb.ref('excluded.refreshed_at'),
          })),
        )
        .execute()
    }
    const listed = new Set(unique.map((b) => b.code))
    const gone = (await trx.selectFrom('banks').select('code').where('currency', '=', currency).execute())
      .map((r) => r.code)
      .filter((c) => !listed.has(c))
    for (let i = 0; i < gone.length; i += 100)
      await trx
        .updateTable('banks')
        .set({ active: 0 })
        .where('currency', '=', currency)
        .where('code', 'in', gone.slice(i, i + 100))
        .execute()
  })
}

export async function saveRecipientCode(db: Db, cardId: string, code: string): Promise<void> {
  await db.updateTable('bank_cards').set({ recipient_code: code }).where('id', '=', cardId).execute()
}

/** Forgets a recipient the provider no longer knows; the next payout makes a new one. */
export async function forgetRecipientCode(db: Db, cardId: string): Promise<void> {
  await db.updateTable('bank_cards').set({ recipient_code: null }).where('id', '=', cardId).execute()
}
