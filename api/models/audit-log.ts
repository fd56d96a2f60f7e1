import type { Db } from '../db/connect'
import { newId } from '../lib/tokens'

/** One operator action: who, what, on what, the state before and after. Inside the action's transaction. */
export async function audit(
  db: Db,
  a: { actor: string; action: string; targetType: string; targetId: string; before: unknown; after: unknown },
  now: number,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      actor: a.actor,
      action: a.action,
      target_type: a.targetType,
      target_id: a.targetId,
      before_json: a.before === undefined ? null : JSON.stringify(a.before),
      after_json: a.after === undefined ? null : JSON.stringify(a.after),
      created_at: now,
    })
    .execute()
}

/** The audit log, newest first, filtered by actor, action, target and a time range (both ends included). */
export async function pageAudit(
  db: Db,
  f: { actor?: string; action?: string; targetType?: string; targetId?: string; from?: number; to?: number },
  pageNum: number,
  pageSize: number,
) {
  let q = db.selectFrom('audit_log')
  if (f.actor) q = q.where('actor', '=', f.actor)
  if (f.action) q = q.where('action', '=', f.action)
  if (f.targetType) q = q.where('target_type', '=', f.targetType)
  if (f.targetId) q = q.where('target_id', '=', f.targetId)
  if (f.from !== undefined) q = q.where('created_at', '>=', f.from)
  if (f.to !== undefined) q = q.where('created_at', '<=', f.to)
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.n) }
}
