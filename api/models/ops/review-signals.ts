import type { Db } from '../../db/connect'

/** The queries behind the review desk's signals (services/order-signals.ts). */

/** A seller's orders by status (all of them, this one included). */
export async function ordersByStatus(db: Db, userId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('orders')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .groupBy('status')
    .execute()
  return new Map(rows.map((r) => [r.status, Number(r.n)]))
}

export async function ordersBefore(db: Db, userId: string, createdAt: number, id: string): Promise<number> {
  const r = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** The perceptual hashes of this order's card photos. */
export const photoHashesOf = (db: Db, orderId: string) =>
  db
    .selectFrom('order_card_images')
    .innerJoin('order_cards', 'order_cards.id', 'order_card_images.order_card_id')
    .innerJoin('uploads', 'uploads.id', 'order_card_images.upload_id')
    .select(['order_cards.id as card_id', 'uploads.id as upload_id', 'uploads.phash'])
    .where('order_cards.order_id', '=', orderId)
    .where('uploads.phash', 'is not', null)
    .execute()

/** Every card photo another person uploaded, by its hash (operators' proofs are nobody's). */
export const otherPhotoHashes = (db: Db, userId: string) =>
  db
    .selectFrom('uploads')
    .select(['id', 'user_id', 'phash'])
    .where('purpose', '=', 'card')
    .where('user_id', 'is not', null)
    .where('user_id', '!=', userId)
    .where('phash', 'is not', null)
    .execute()

/** Where these uploads were sold: the order and its seller's e-mail (an upload never sold has no order). */
export const uploadsWhere = (db: Db, uploadIds: string[]) =>
  uploadIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('uploads')
        .innerJoin('users', 'users.id', 'uploads.user_id')
        .leftJoin('order_card_images', 'order_card_images.upload_id', 'uploads.id')
        .leftJoin('order_cards', 'order_cards.id', 'order_card_images.order_card_id')
        .leftJoin('orders', 'orders.id', 'order_cards.order_id')
        .select(['uploads.id as upload_id', 'users.email', 'orders.id as order_id', 'orders.order_no'])
        .where('uploads.id', 'in', uploadIds)
        .execute()

/** Cards of other people's orders with the same keyed hash of an e-code as this order's cards. */
export const sameCodes = (db: Db, orderId: string, userId: string) =>
  db
    .selectFrom('order_cards as mine')
    .innerJoin('order_cards as theirs', 'theirs.code_hmac', 'mine.code_hmac')
    .innerJoin('orders', 'orders.id', 'theirs.order_id')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .select(['mine.id as card_id', 'users.email', 'orders.id as order_id', 'orders.order_no'])
    .where('mine.order_id', '=', orderId)
    .where('mine.code_hmac', 'is not', null)
    .where('orders.user_id', '!=', userId)
    .execute()

/** This seller's saved bank accounts that another account saved too, with those accounts' e-mails. */
export const sharedBankOf = (db: Db, userId: string) =>
  db
    .selectFrom('bank_cards as mine')
    .innerJoin('bank_cards as theirs', (j) =>
      j.onRef('theirs.bank_code', '=', 'mine.bank_code').onRef('theirs.account_number', '=', 'mine.account_number'),
    )
    .innerJoin('users', 'users.id', 'theirs.user_id')
    .select(['mine.bank_code', 'mine.account_number', 'users.email'])
    .where('mine.user_id', '=', userId)
    .where('mine.account_number', '!=', '')
    .where('theirs.user_id', '!=', userId)
    .distinct()
    .execute()
