import type { Db } from '../db/connect'
import { newId } from '../lib/tokens'

/** A message to the person (the Notifications screen reads them). Inside the caller's transaction. */
export async function addMessage(
  db: Db,
  m: { userId: string; kind: string; title: string; content: string; refId?: string | null },
  now: number,
): Promise<void> {
  await db
    .insertInto('messages')
    .values({
      id: newId(),
      user_id: m.userId,
      kind: m.kind,
      title: m.title,
      content: m.content,
      ref_id: m.refId ?? null,
      read_at: null,
      created_at: now,
    })
    .execute()
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const r = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}
