import { sql, type Expression, type SqlBool } from 'kysely'
import type { Db } from '../../db/connect'

/** What a console search found a person by: part of their e-mail or name, their id, an order's or a withdrawal's number. */
export type FoundBy = 'email' | 'name' | 'id' | 'order' | 'withdrawal'
export type PersonHit = { userId: string; email: string; userName: string; createdAt: number; foundBy: FoundBy; orderNo: string | null }

/** `%` and `_` typed by a person are letters, not wildcards: escaped with `\`, named in every LIKE below. */
export const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** lower(column) LIKE pattern, the same on SQLite and PostgreSQL (whose LIKE minds case). */
const contains = (column: string, pattern: string): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`

/**
 * People matching `q`, each once, at most `limit`: by e-mail, name or id first, then by an order's
 * number, then by a withdrawal's id or reference (ours at the provider, or the bank's).
 */
export async function searchPeople(db: Db, q: string, limit: number): Promise<PersonHit[]> {
  const p = likePattern(q)
  const [people, orders, withdrawals] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'email', 'user_name', 'created_at'])
      .where((eb) => eb.or([eb('id', '=', q), contains('email', p), contains('user_name', p)]))
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('orders')
      .innerJoin('users', 'users.id', 'orders.user_id')
      .select(['users.id', 'users.email', 'users.user_name', 'users.created_at', 'orders.order_no'])
      .where(contains('orders.order_no', p))
      .orderBy('orders.created_at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('withdrawals')
      .innerJoin('users', 'users.id', 'withdrawals.user_id')
      .select(['users.id', 'users.email', 'users.user_name', 'users.created_at'])
      .where((eb) =>
        eb.or([contains('withdrawals.id', p), contains('withdrawals.reference', p), contains('withdrawals.payout_reference', p)]),
      )
      .orderBy('withdrawals.created_at', 'desc')
      .limit(limit)
      .execute(),
  ])
  const hits = new Map<string, PersonHit>()
  const add = (
    r: { id: string; email: string; user_name: string; created_at: number },
    foundBy: FoundBy,
    orderNo: string | null = null,
  ) => {
    if (hits.size < limit && !hits.has(r.id))
      hits.set(r.id, { userId: r.id, email: r.email, userName: r.user_name, createdAt: Number(r.created_at), foundBy, orderNo })
  }
  const lower = q.toLowerCase()
  for (const r of people) add(r, r.id === q ? 'id' : r.email.includes(lower) ? 'email' : 'name')
  for (const r of orders) add(r, 'order', r.order_no)
  for (const r of withdrawals) add(r, 'withdrawal')
  return [...hits.values()]
}
