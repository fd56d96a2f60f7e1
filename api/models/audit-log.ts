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
