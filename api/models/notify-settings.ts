import type { NotifyKind } from '#contract/notify'
import type { Db } from '../db/connect'
import { newId } from '../lib/tokens'

/** A person's channels for each kind of event (decision 046); a kind without a row has both on. */
export async function preferencesOf(db: Db, userId: string): Promise<Map<string, { push: boolean; email: boolean }>> {
  const rows = await db.selectFrom('notification_preferences').selectAll().where('user_id', '=', userId).execute()
  return new Map(rows.map((r) => [r.kind, { push: Number(r.push) === 1, email: Number(r.email) === 1 }]))
}

export async function preferenceOf(db: Db, userId: string, kind: string): Promise<{ push: boolean; email: boolean }> {
  const r = await db
    .selectFrom('notification_preferences')
    .select(['push', 'email'])
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirst()
  return r ? { push: Number(r.push) === 1, email: Number(r.email) === 1 } : { push: true, email: true }
}

export async function setPreference(db: Db, userId: string, kind: NotifyKind, p: { push: boolean; email: boolean }, now: number) {
  const values = { push: p.push ? 1 : 0, email: p.email ? 1 : 0, updated_at: now }
  await db
    .insertInto('notification_preferences')
    .values({ user_id: userId, kind, ...values })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet(values))
    .execute()
}

export async function setPushAmounts(db: Db, userId: string, on: boolean, now: number) {
  await db
    .updateTable('users')
    .set({ push_amounts: on ? 1 : 0, updated_at: now })
    .where('id', '=', userId)
    .execute()
}

export const ownSubscriptions = (db: Db, userId: string) =>
  db
    .selectFrom('push_subscriptions')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute()

export const subscriptionsFor = (db: Db, userId: string) =>
  db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').execute()

export async function hasSubscription(db: Db, userId: string): Promise<boolean> {
  const r = await db.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()
  return r !== undefined
}

/**
 * A browser's subscription, kept under this person: an endpoint belongs to one browser, so the
 * same endpoint sent again (a refresh, or another person signed in on that browser) replaces the
 * old row and its keys. Answers the row's id.
 */
export async function saveSubscription(
  db: Db,
  s: { userId: string; endpoint: string; p256dh: string; auth: string; name: string },
  now: number,
): Promise<string> {
  const id = newId()
  await db
    .insertInto('push_subscriptions')
    .values({
      id,
      user_id: s.userId,
      endpoint: s.endpoint,
      p256dh: s.p256dh,
      auth: s.auth,
      name: s.name,
      created_at: now,
      last_used_at: null,
    })
    .onConflict((oc) =>
      oc
        .column('endpoint')
        .doUpdateSet({ user_id: s.userId, p256dh: s.p256dh, auth: s.auth, name: s.name, created_at: now, last_used_at: null }),
    )
    .execute()
  const row = await db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', s.endpoint).executeTakeFirstOrThrow()
  return row.id
}

export async function removeSubscription(db: Db, userId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('push_subscriptions').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  return Number(r.numDeletedRows) > 0
}

/** The push service said the subscription is gone (404/410). */
export async function dropSubscription(db: Db, id: string) {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute()
}

export async function markSubscriptionUsed(db: Db, id: string, now: number) {
  await db.updateTable('push_subscriptions').set({ last_used_at: now }).where('id', '=', id).execute()
}
