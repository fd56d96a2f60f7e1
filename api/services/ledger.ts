import { createHash } from 'node:crypto'
import { PostgresAdapter, sql } from 'kysely'
import { Refusals } from '#contract/refusals'
import { type BalanceLogType, type BalanceLogEntry, type RefType } from '#contract/wallet'
import type { Db, DbKind } from '../db/connect'
import type { BalanceLogRow, WalletRow } from '../db/schema'
import { refuse } from '../lib/envelope'
import { newId } from '../lib/tokens'

/**
 * The ledger: the ONLY code that writes the `wallets` and `balance_logs` tables
 * (tests/api/ledger-ownership.test.ts fails if another file does). Its SQL lives here, not in
 * api/models, so that one file is the whole story of how money moves:
 *
 * - a movement changes `balance` (available) and/or `frozen` (on hold) and appends one entry
 *   with the balances after it, in the caller's write transaction (db/transaction.ts);
 * - a guarded UPDATE (`balance + amount >= 0`) plus CHECK constraints: never below zero;
 * - every movement has an idempotency key, unique in the table: the same key again returns the
 *   first entry and moves nothing; the same key with another movement is refused;
 * - entries are never updated or deleted.
 */
export type Movement = {
  userId: string
  type: BalanceLogType
  /** Signed change of the available balance. */
  amount: number
  /** Signed change of the amount on hold. */
  frozenChange?: number
  refType?: RefType | null
  refId?: string | null
  note?: string | null
  /** One per movement, e.g. `withdraw:<id>:hold`, `order:<id>:payout`, `adjust:<requestId>`. */
  key: string
}

/** Thrown inside a transaction when a movement would take a balance below zero. */
export class InsufficientFunds extends Error {
  constructor() {
    super('insufficient funds')
    this.name = 'InsufficientFunds'
  }
}

export function toBalanceLogEntry(row: BalanceLogRow): BalanceLogEntry {
  return {
    id: row.id,
    type: row.type as BalanceLogType,
    amount: Number(row.amount),
    balanceAfter: Number(row.balance_after),
    frozenChange: Number(row.frozen_change),
    frozenAfter: Number(row.frozen_after),
    refType: (row.ref_type as RefType | null) ?? null,
    refId: row.ref_id,
    note: row.note,
    createdAt: Number(row.created_at),
    withdrawal: null,
  }
}

const sameMovement = (row: BalanceLogRow, m: Movement) =>
  row.user_id === m.userId && row.type === m.type && Number(row.amount) === m.amount && Number(row.frozen_change) === (m.frozenChange ?? 0)

/** A person's wallet is made empty on first use: the row to insert. */
const emptyWallet = (userId: string, currency: string, now: number) => ({
  user_id: userId,
  currency,
  balance: 0,
  frozen: 0,
  updated_at: now,
})

/**
 * Locks the person's wallet row for the rest of the transaction, making it first if needed, and
 * answers it. Everything a money decision reads (balance, today's withdrawals) is read after this.
 * A read that locks (PostgreSQL: FOR UPDATE; SQLite's BEGIN IMMEDIATE already holds the write
 * lock), so a wallet that exists is not written again only to be locked; the first time, an upsert
 * whose update changes nothing, which also takes the row lock when another transaction made the
 * row just now (waiting for it, then answering the row as that one committed it).
 */
export async function lockWallet(trx: Db, kind: DbKind, userId: string, currency: string, now: number): Promise<WalletRow> {
  const read = trx.selectFrom('wallets').selectAll().where('user_id', '=', userId)
  const row = await (kind === 'postgres' ? read.forUpdate() : read).executeTakeFirst()
  if (row) return row
  return trx
    .insertInto('wallets')
    .values(emptyWallet(userId, currency, now))
    .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ user_id: eb.ref('excluded.user_id') })))
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * Applies one movement inside the caller's write transaction. Answers the entry (the first one,
 * when the key was seen before). Throws InsufficientFunds when it would go below zero, and the
 * IDEMPOTENCY_KEY_REUSED refusal when the key belongs to a different movement.
 */
export async function move(trx: Db, m: Movement, currency: string, now: number): Promise<{ entry: BalanceLogRow; repeated: boolean }> {
  if (!Number.isSafeInteger(m.amount) || !Number.isSafeInteger(m.frozenChange ?? 0)) throw new Error('ledger: amounts are integers')
  const once = trx.getExecutor().adapter instanceof PostgresAdapter ? moveInOneStatement : moveStepByStep
  let moved = await once(trx, m, now)
  if (!moved) {
    // No wallet yet (it starts empty; another transaction may be making it just now), or the
    // movement would take it below zero: asked again once the row surely exists.
    await trx
      .insertInto('wallets')
      .values(emptyWallet(m.userId, currency, now))
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute()
    moved = await once(trx, m, now)
    if (!moved) throw new InsufficientFunds()
  }
  if (moved.repeated && !sameMovement(moved.entry, m)) throw refuse(Refusals.IDEMPOTENCY_KEY_REUSED)
  return moved
}

type Moved = { entry: BalanceLogRow; repeated: boolean } | undefined

const newEntry = (m: Movement, now: number) => ({
  id: newId(),
  user_id: m.userId,
  type: m.type,
  amount: m.amount,
  frozen_change: m.frozenChange ?? 0,
  ref_type: m.refType ?? null,
  ref_id: m.refId ?? null,
  note: m.note ?? null,
  idempotency_key: m.key,
  created_at: now,
})

/**
 * SQLite, where a statement is a call within the process: the entry of the key if it was seen,
 * else the guarded UPDATE (which raises the wallet's `last_seq`, the new entry's number) and the
 * entry. Nothing when the wallet is missing or would go below zero.
 */
async function moveStepByStep(trx: Db, m: Movement, now: number): Promise<Moved> {
  const seen = await trx.selectFrom('balance_logs').selectAll().where('idempotency_key', '=', m.key).executeTakeFirst()
  if (seen) return { entry: seen, repeated: true }
  const frozenChange = m.frozenChange ?? 0
  const updated = await trx
    .updateTable('wallets')
    .set((eb) => ({
      balance: eb('balance', '+', m.amount),
      frozen: eb('frozen', '+', frozenChange),
      last_seq: eb('last_seq', '+', 1),
      updated_at: now,
    }))
    .where('user_id', '=', m.userId)
    .where((eb) => eb.and([eb(eb('balance', '+', m.amount), '>=', 0), eb(eb('frozen', '+', frozenChange), '>=', 0)]))
    .returning(['balance', 'frozen', 'last_seq'])
    .executeTakeFirst()
  if (!updated) return undefined
  const entry: BalanceLogRow = {
    ...newEntry(m, now),
    seq: Number(updated.last_seq),
    balance_after: Number(updated.balance),
    frozen_after: Number(updated.frozen),
  }
  await trx.insertInto('balance_logs').values(entry).execute()
  return { entry, repeated: false }
}

/**
 * PostgreSQL, where every statement is a round trip to the server: the same steps in one
 * statement. The UPDATE is skipped when the key was seen, and the entry is written only from the
 * row it changed, so a refused movement writes nothing; the statement answers the entry seen
 * before (`repeated`) or the one written, or nothing when the wallet is missing or would go below
 * zero. The entry's number comes from the locked row itself (`last_seq`), not from a read of the
 * entries, which could be older than the lock when the UPDATE had to wait for it.
 */
async function moveInOneStatement(trx: Db, m: Movement, now: number): Promise<Moved> {
  const e = newEntry(m, now)
  const { rows } = await sql<BalanceLogRow & { repeated: boolean }>`
    with seen as (
      select * from balance_logs where idempotency_key = ${e.idempotency_key}
    ), moved as (
      update wallets
      set balance = balance + ${e.amount}::bigint, frozen = frozen + ${e.frozen_change}::bigint,
        last_seq = last_seq + 1, updated_at = ${now}::bigint
      where user_id = ${e.user_id} and balance + ${e.amount}::bigint >= 0 and frozen + ${e.frozen_change}::bigint >= 0
        and not exists (select from seen)
      returning balance, frozen, last_seq
    ), entry as (
      insert into balance_logs (id, user_id, seq, type, amount, balance_after, frozen_change, frozen_after,
        ref_type, ref_id, note, idempotency_key, created_at)
      select ${e.id}, ${e.user_id}, last_seq, ${e.type}, ${e.amount}::bigint, balance, ${e.frozen_change}::bigint, frozen,
        ${e.ref_type}, ${e.ref_id}, ${e.note}, ${e.idempotency_key}, ${now}::bigint
      from moved
      returning *
    )
    select *, true as repeated from seen
    union all
    select *, false as repeated from entry
  `.execute(trx)
  const row = rows[0]
  if (!row) return undefined
  const { repeated, ...entry } = row
  return { entry, repeated }
}

/** The credit path for order payouts, task rewards and operator adjustments. */
export function credit(
  trx: Db,
  c: { userId: string; amount: number; type: BalanceLogType; refType: RefType; refId: string; note?: string; key: string },
  currency: string,
  now: number,
) {
  if (!(c.amount > 0)) throw new Error('ledger: a credit is positive')
  return move(trx, { ...c, frozenChange: 0 }, currency, now)
}

export async function findWallet(db: Db, userId: string): Promise<WalletRow | undefined> {
  return db.selectFrom('wallets').selectAll().where('user_id', '=', userId).executeTakeFirst()
}

export async function pageBalanceLog(db: Db, userId: string, pageNum: number, pageSize: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('balance_logs')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('seq', 'desc')
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
      .execute(),
    db
      .selectFrom('balance_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ])
  // A withdrawal's entries carry its fee and what reached the bank: one payout reads as one thing.
  const withdrawalIds = Array.from(new Set(rows.filter((r) => r.ref_type === 'withdrawal' && r.ref_id).map((r) => r.ref_id!)))
  const withdrawals = withdrawalIds.length
    ? await db
        .selectFrom('withdrawals')
        .select(['id', 'amount', 'fee'])
        .where('user_id', '=', userId)
        .where('id', 'in', withdrawalIds)
        .execute()
    : []
  const byId = new Map(withdrawals.map((w) => [w.id, { fee: Number(w.fee), received: Number(w.amount) - Number(w.fee) }]))
  const list = rows.map((r) => ({ ...toBalanceLogEntry(r), withdrawal: (r.ref_type === 'withdrawal' && byId.get(r.ref_id!)) || null }))
  return { list, total: Number(count.n), pageNum, pageSize }
}

/** A stable digest of a request's money fields, for "same key, other body" checks. */
export function requestDigest(fields: Record<string, string | number>): string {
  const canonical = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&')
  return createHash('sha256').update(canonical).digest('base64url')
}

/**
 * The books balance: for every wallet, the entries sum to its balances and to the totals the
 * database keeps of them (`entries_amount`, `entries_frozen`, which the dashboard compares). For
 * tests and `npm run ops -- books`; answers the wallets that do not.
 */
export async function auditBooks(
  db: Db,
): Promise<{ userId: string; balance: number; frozen: number; sumAmount: number; sumFrozen: number }[]> {
  const rows = await db
    .selectFrom('wallets')
    .leftJoin('balance_logs', 'balance_logs.user_id', 'wallets.user_id')
    .select((eb) => [
      'wallets.user_id as userId',
      'wallets.balance as balance',
      'wallets.frozen as frozen',
      'wallets.entries_amount as keptAmount',
      'wallets.entries_frozen as keptFrozen',
      eb.fn.coalesce(eb.fn.sum<number>('balance_logs.amount'), eb.lit(0)).as('sumAmount'),
      eb.fn.coalesce(eb.fn.sum<number>('balance_logs.frozen_change'), eb.lit(0)).as('sumFrozen'),
    ])
    .groupBy(['wallets.user_id', 'wallets.balance', 'wallets.frozen', 'wallets.entries_amount', 'wallets.entries_frozen'])
    .execute()
  return rows
    .filter(
      (r) =>
        Number(r.balance) !== Number(r.sumAmount) ||
        Number(r.frozen) !== Number(r.sumFrozen) ||
        Number(r.keptAmount) !== Number(r.sumAmount) ||
        Number(r.keptFrozen) !== Number(r.sumFrozen),
    )
    .map((r) => ({
      userId: r.userId,
      balance: Number(r.balance),
      frozen: Number(r.frozen),
      sumAmount: Number(r.sumAmount),
      sumFrozen: Number(r.sumFrozen),
    }))
}
