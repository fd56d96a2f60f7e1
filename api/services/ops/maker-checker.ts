import type { Refusal } from '#contract/refusals'
import { Refusals } from '#contract/refusals'
import type { Db, DbKind } from '../../db/connect'
import type { StaffRow } from '../../db/schema'
import { ADMIN_TOKEN_ACTOR, staffActor, type StaffCaller } from '../../middleware/staff'
import { audit } from '../../models/audit-log'
import { type CheckedRow, decideCheckedRequest, lapseCheckedRequestsOf, lockCheckedRequest } from '../../models/ops/checked-requests'
import { findStaffByEmail } from '../../models/ops/staff'

/**
 * Who may check whom (decision 041): the rules a second admin must meet to approve a wallet
 * adjustment or a rate change, and to confirm a new admin account. One person with two accounts
 * must not pass for two people: an account is tied to the admins who invited it, reset it (they
 * were handed its set-up link) or made it admin, and an admin approves nothing until an admin
 * it is not tied to has confirmed it.
 */

/** The actors who held this account's set-up link or made it admin. */
const handlersOf = (s: StaffRow) => [s.created_by, s.setup_by, s.promoted_by].filter((a): a is string => a !== null)

/** Two accounts tied by an invite, a reset or a promotion, either way. */
const linked = (a: StaffRow, b: StaffRow) => handlersOf(b).includes(staffActor(a)) || handlersOf(a).includes(staffActor(b))

/** An account the maker's requests still stand on: active, not locked, still admin. */
const standsAsMaker = (maker: StaffRow | undefined): maker is StaffRow =>
  maker !== undefined && maker.status === 'active' && maker.locked_at === null && maker.role === 'admin'

const makerOf = (db: Db, actor: string) =>
  actor.startsWith('staff:') ? findStaffByEmail(db, actor.slice('staff:'.length)) : Promise.resolve(undefined)

/**
 * Why `checker` may not decide a request `maker` made at `askedAt`, or undefined when they may.
 * `lapsed`: the maker no longer stands, and the request is void whoever asks.
 */
export async function checkerProblem(
  db: Db,
  checker: StaffRow | undefined,
  makerActor: string,
  askedAt: number,
  own: Refusal,
): Promise<{ refusal: Refusal; lapsed?: true } | undefined> {
  if (!checker || staffActor(checker) === makerActor) return { refusal: own }
  const maker = await makerOf(db, makerActor)
  if (!standsAsMaker(maker)) return { refusal: Refusals.REQUEST_LAPSED, lapsed: true }
  if (checker.confirmed_at === null) return { refusal: Refusals.CHECKER_NOT_CONFIRMED }
  if (Number(checker.confirmed_at) > askedAt || Number(checker.activated_at ?? 0) > askedAt) return { refusal: Refusals.CHECKER_TOO_NEW }
  if (linked(checker, maker)) return { refusal: Refusals.CHECKER_LINKED }
  return undefined
}

/**
 * Why `by` may not confirm `target`, or undefined. Only a confirmed admin confirms, except while
 * no admin is confirmed at all: then the admins added with ADMIN_TOKEN (`staff add`) confirm each other.
 */
export function confirmProblem(by: StaffRow, target: StaffRow, anyConfirmed: boolean): Refusal | undefined {
  if (target.role !== 'admin' || target.status !== 'active' || target.locked_at !== null || target.confirmed_at !== null)
    return Refusals.STAFF_NOT_CONFIRMABLE
  if (linked(by, target)) return Refusals.STAFF_CONFIRM_LINKED
  if (by.confirmed_at !== null) return undefined
  const bootstrap = !anyConfirmed && by.created_by === ADMIN_TOKEN_ACTOR && target.created_by === ADMIN_TOKEN_ACTOR
  return bootstrap ? undefined : Refusals.STAFF_CONFIRM_UNCONFIRMED
}

/** The two things a second admin checks: their table, their refusals and their audit words. */
export const CHECKED = {
  adjustment: {
    table: 'adjustment_requests',
    own: Refusals.ADJUSTMENT_OWN,
    notPending: Refusals.ADJUSTMENT_NOT_PENDING,
    lapse: { action: 'wallet.adjust.lapse', targetType: 'adjustment' },
  },
  rateChange: {
    table: 'rate_change_requests',
    own: Refusals.RATE_CHANGE_OWN,
    notPending: Refusals.RATE_CHANGE_NOT_PENDING,
    lapse: { action: 'rate.change.lapse', targetType: 'rate_change' },
  },
} as const
type Checked = keyof typeof CHECKED
type RowOf<K extends Checked> = CheckedRow<(typeof CHECKED)[K]['table']>

/**
 * A second admin approves a waiting request, in the caller's (write) transaction: the row, and
 * `again` when it was approved before (the caller answers the same outcome, and moves nothing twice);
 * or the refusal. The checker must be another person (checkerProblem); a request whose maker no
 * longer stands lapses, audited, and stays refused.
 */
export async function approveAsChecker<K extends Checked>(
  trx: Db,
  kind: DbKind,
  caller: StaffCaller,
  which: K,
  id: string,
  now: number,
): Promise<{ refusal: Refusal } | { row: RowOf<K>; again: boolean }> {
  const { table, own, notPending, lapse } = CHECKED[which]
  const row = (await lockCheckedRequest(trx, kind, table, id)) as RowOf<K> | undefined
  if (!row || (row.status !== 'pending' && row.status !== 'approved')) return { refusal: notPending }
  if (row.status === 'approved') return { row, again: true }
  const problem = await checkerProblem(trx, caller.staff, row.maker, Number(row.created_at), own)
  if (problem?.lapsed) {
    await decideCheckedRequest(trx, table, id, 'lapsed', null, now)
    await audit(trx, { actor: caller.actor, ...lapse, targetId: id, before: null, after: { why: 'maker' } }, now)
  }
  if (problem) return { refusal: problem.refusal }
  if (!(await decideCheckedRequest(trx, table, id, 'approved', caller.actor, now))) return { refusal: notPending }
  return { row, again: false }
}

/** A second admin declines a waiting request, in the caller's transaction: the row as it was, or the refusal. */
export async function declineAsChecker<K extends Checked>(
  trx: Db,
  kind: DbKind,
  actor: string,
  which: K,
  id: string,
  now: number,
): Promise<{ refusal: Refusal } | { row: RowOf<K> }> {
  const { table, notPending } = CHECKED[which]
  const row = (await lockCheckedRequest(trx, kind, table, id)) as RowOf<K> | undefined
  if (!row || !(await decideCheckedRequest(trx, table, id, 'declined', actor, now))) return { refusal: notPending }
  return { row }
}

/** Everything a maker asked that still waits lapses, audited, in the caller's transaction. */
export async function lapseRequestsOf(db: Db, maker: StaffRow, why: string, now: number): Promise<void> {
  const actor = staffActor(maker)
  for (const { table, lapse } of Object.values(CHECKED)) {
    for (const id of await lapseCheckedRequestsOf(db, table, actor, now))
      await audit(db, { actor, ...lapse, targetId: id, before: null, after: { why } }, now)
  }
}
