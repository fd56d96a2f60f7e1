import type { Db } from '../db/connect'

/**
 * The SQL of deleting an account (api/services/account-deletion.ts has the rules). What identifies
 * a person is erased; what the books need (wallets, balance_logs, orders, withdrawals, their
 * events) is kept under the user id, which then leads to no one.
 */

/** The name every deleted account shows (operators see it on kept orders and withdrawals). */
const DELETED_USER_NAME = 'Deleted user'

/**
 * What replaces the e-mail: unique (the column is), never a valid address (no `@`), so no code,
 * sign-in or Google match can reach it, and the real address is free to register again. It also
 * marks the row as a deleted account; when is in the audit log (`account.delete`).
 */
const tombstoneEmail = (userId: string) => `deleted:${userId}`

/** Orders still waiting for someone: the queue, the review, or the person's answer to an offer. */
const OPEN_ORDER_STATUSES = ['pending', 'reviewing', 'proposed'] as const
/** Withdrawals not yet paid or failed. */
const OPEN_WITHDRAWAL_STATUSES = ['pending', 'processing'] as const

export async function countOpenItems(db: Db, userId: string): Promise<{ openOrders: number; openWithdrawals: number }> {
  const [orders, withdrawals] = await Promise.all([
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', 'in', OPEN_ORDER_STATUSES)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('withdrawals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', 'in', OPEN_WITHDRAWAL_STATUSES)
      .executeTakeFirstOrThrow(),
  ])
  return { openOrders: Number(orders.n), openWithdrawals: Number(withdrawals.n) }
}

type Erased = { bankCards: number; notifications: number; codes: number; uploadKeys: string[] }

/**
 * Erases the person's data, inside the caller's write transaction. Sessions are revoked by the
 * caller (models/sessions.ts). Photos not part of an order (avatars, card photos never submitted)
 * lose their rows here; their bytes are removed by the caller after the commit (`uploadKeys`).
 */
export async function eraseAccount(trx: Db, userId: string, email: string, now: number): Promise<Erased> {
  // Codes of every type waiting at the old address: none may be used once it is free again.
  const codes = await trx.deleteFrom('email_codes').where('email', '=', email).executeTakeFirst()
  await trx
    .updateTable('users')
    .set({
      email: tombstoneEmail(userId),
      user_name: DELETED_USER_NAME,
      head_img: null,
      password_hash: null,
      google_sub: null,
      google_email: null,
      signup_address: null,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute()
  // Withdrawals keep pointing at their bank card; the card keeps only its bank.
  const cards = await trx
    .updateTable('bank_cards')
    .set((eb) => ({ account_number: '', account_name: '', is_default: 0, deleted_at: eb.fn.coalesce('deleted_at', eb.val(now)) }))
    .where('user_id', '=', userId)
    .executeTakeFirst()
  await trx.deleteFrom('withdrawal_pins').where('user_id', '=', userId).execute()
  await trx.deleteFrom('sign_in_places').where('user_id', '=', userId).execute()
  const notifications = await trx.deleteFrom('notifications').where('user_id', '=', userId).executeTakeFirst()
  // Analytics events keep their name and time for the counts; the context held the e-mail and the
  // device, the visitor id tied them to the browser's page views.
  await trx.updateTable('analytics_events').set({ context_json: null, visitor_id: null }).where('user_id', '=', userId).execute()

  const loose = await trx
    .selectFrom('uploads')
    .select(['id', 'storage_key'])
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.and([
        eb.not(
          eb.exists(eb.selectFrom('order_card_images').select('upload_id').whereRef('order_card_images.upload_id', '=', 'uploads.id')),
        ),
        eb.not(eb.exists(eb.selectFrom('orders').select('id').whereRef('orders.proof_image_id', '=', 'uploads.id'))),
      ]),
    )
    .execute()
  const looseIds = loose.map((u) => u.id)
  if (looseIds.length > 0) await trx.deleteFrom('uploads').where('id', 'in', looseIds).execute()

  return {
    bankCards: Number(cards.numUpdatedRows),
    notifications: Number(notifications.numDeletedRows),
    codes: Number(codes.numDeletedRows),
    uploadKeys: loose.map((u) => u.storage_key),
  }
}
