import { createHmac } from 'node:crypto'
import type { Db } from '../db/connect'

/**
 * Which account earned task rewards with which bank account (migration 0007): a bank account is a
 * person's, so it earns rewards for one account only. `bank_account` is a keyed digest of `<bank
 * code>:<number>` (the installation's secret `key`), never the number: it outlives a deleted
 * account, whose bank accounts are erased, so that deleting and signing up again farms nothing.
 */

export const bankAccountKey = (key: string, row: { bank_code: string; account_number: string }) =>
  createHmac('sha256', key)
    .update(`bank-account:${keyCode(row.bank_code)}:${row.account_number}`)
    .digest('base64url')

/** Globus Bank's accounts were saved as `103` before Paystack's `00103` (migration 0017): one key for both. */
const keyCode = (code: string) => (code === '00103' ? '103' : code)

/** Every bank account this person ever saved (removed ones too: removing one does not make it new). */
export async function bankAccountsEverSaved(db: Db, key: string, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('bank_cards')
    .select(['bank_code', 'account_number'])
    .where('user_id', '=', userId)
    .where('account_number', '!=', '')
    .execute()
  return [...new Set(rows.map((r) => bankAccountKey(key, r)))]
}

/**
 * Claims these bank accounts for `userId`'s rewards, where no account holds them yet; answers
 * whether any of them is held by another account. On PostgreSQL a parallel claim of the same bank
 * account waits here for the other transaction, then sees its row.
 */
export async function claimForRewards(db: Db, userId: string, bankAccounts: string[], now: number): Promise<{ heldByOther: boolean }> {
  if (bankAccounts.length === 0) return { heldByOther: false }
  await db
    .insertInto('reward_bank_accounts')
    .values(bankAccounts.map((bank_account) => ({ bank_account, user_id: userId, created_at: now })))
    .onConflict((oc) => oc.column('bank_account').doNothing())
    .execute()
  const others = await db
    .selectFrom('reward_bank_accounts')
    .select('user_id')
    .where('bank_account', 'in', bankAccounts)
    .where('user_id', '!=', userId)
    .executeTakeFirst()
  return { heldByOther: others !== undefined }
}

/** What this person's task rewards credited in all (minor units). */
export async function rewardsCredited(db: Db, userId: string): Promise<number> {
  const r = await db
    .selectFrom('task_claims')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return Number(r.total)
}

/**
 * Bank accounts saved by more than one account, each with those accounts: what an operator looks
 * at for throw-away accounts (one person, many sign-ups, one bank account to be paid to).
 */
export async function sharedBankAccounts(db: Db, key: string, limit: number) {
  const shared = await db
    .selectFrom('bank_cards')
    .select(['bank_code', 'account_number'])
    .select((eb) => eb.fn.count<number>('user_id').distinct().as('accounts'))
    .where('account_number', '!=', '')
    .groupBy(['bank_code', 'account_number'])
    .having((eb) => eb.fn.count('user_id').distinct(), '>', 1)
    .orderBy('accounts', 'desc')
    .limit(limit)
    .execute()
  if (shared.length === 0) return []
  const holders = await db
    .selectFrom('bank_cards')
    .innerJoin('users', 'users.id', 'bank_cards.user_id')
    .select([
      'bank_cards.bank_code',
      'bank_cards.account_number',
      'users.id as user_id',
      'users.email',
      'users.signup_address',
      'users.created_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('task_claims')
        .select((q) => q.fn.coalesce(q.fn.sum<number>('amount'), q.lit(0)).as('t'))
        .whereRef('task_claims.user_id', '=', 'users.id')
        .as('rewards'),
    )
    .where((eb) =>
      eb.or(
        shared.map((s) => eb.and([eb('bank_cards.bank_code', '=', s.bank_code), eb('bank_cards.account_number', '=', s.account_number)])),
      ),
    )
    .orderBy('users.created_at')
    .execute()
  const owners = await db
    .selectFrom('reward_bank_accounts')
    .selectAll()
    .where(
      'bank_account',
      'in',
      shared.map((r) => bankAccountKey(key, r)),
    )
    .execute()
  return shared.map((s) => ({
    bank_code: s.bank_code,
    account_number: s.account_number,
    rewardOwner: owners.find((o) => o.bank_account === bankAccountKey(key, s))?.user_id ?? null,
    accounts: holders
      .filter((h) => h.bank_code === s.bank_code && h.account_number === s.account_number)
      .filter((h, i, all) => all.findIndex((x) => x.user_id === h.user_id) === i),
  }))
}
