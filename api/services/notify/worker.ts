import { randomInt } from 'node:crypto'
import { isDbUnavailable } from '../../db/connect'
import type { DeliveryRow } from '../../db/schema'
import type { ApiDeps } from '../../deps'
import { claimDelivery, devicesThatTook, deviceTook, dueDeliveries, finishDelivery } from '../../models/deliveries'
import { dropSubscription, markSubscriptionUsed, subscriptionsFor } from '../../models/notify-settings'
import { findUserById } from '../../models/users'
import { notificationMail, pushPayload } from './compose'
import { unsubscribeToken } from './unsubscribe-token'

/**
 * The delivery worker (decision 046), on the payout worker's pattern: the outbox row is the job. A
 * worker claims a due row with a conditional UPDATE (one wins; the lease ends by itself if the
 * worker dies), sends, and marks it sent under its lease. Only a worker that died between sending
 * and marking lets a row be sent again, once, after the lease: a push carries the same `Topic`
 * (the push service replaces the first) and `tag` (the device replaces the first), an e-mail the
 * same Message-ID. Each send has its own deadline and a slot of its own: a push service that hangs
 * holds one slot until its deadline and nothing else.
 */

const MAX_ATTEMPTS = 8

/** 30 s, 1, 2, 4 … minutes, at most an hour, with jitter. */
const backOff = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1)) + randomInt(0, 5_000)

/** `reached`: some device took the push, so a delivery that gives up on the rest still counts as sent. */
type Result = { status: 'sent' | 'dropped' | 'due'; error?: string; reached?: boolean }

const withDeadline = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms).unref())])

async function deliverOne(deps: ApiDeps, d: DeliveryRow): Promise<Result> {
  const n = await deps.db
    .selectFrom('notifications')
    .select(['id', 'kind', 'title', 'content', 'ref_id'])
    .where('id', '=', d.notification_id)
    .executeTakeFirst()
  const user = await findUserById(deps.db, d.user_id)
  if (!n || !user) return { status: 'dropped', error: 'the notification or the person is gone' }
  const { notify } = deps.config
  if (d.channel === 'email') {
    const host = new URL(notify.publicUrl).hostname
    const mail = notificationMail({
      to: user.email,
      n,
      kind: d.kind as Parameters<typeof notificationMail>[0]['kind'],
      brandName: deps.config.brandName,
      publicUrl: notify.publicUrl,
      unsubscribeToken: unsubscribeToken(deps.config.selling.codesKey, user.id, d.kind as 'order_paid'),
      messageId: `<${d.id}@${host}>`,
    })
    await withDeadline(deps.notify.mailer.send(mail), notify.sendTimeoutMs, 'the mail server')
    return { status: 'sent' }
  }
  // Each device once: a retry goes only to the devices that have not taken it yet.
  const took = await devicesThatTook(deps.db, d.id)
  const subs = (await subscriptionsFor(deps.db, d.user_id)).filter((s) => !took.has(s.id))
  if (subs.length === 0) return took.size > 0 ? { status: 'sent' } : { status: 'dropped', error: 'no push subscription' }
  const payload = pushPayload(n, d.summary, Number(user.push_amounts) === 1)
  const topic = d.id.replace(/-/g, '')
  const outcomes = await Promise.all(
    subs.map(async (s) => {
      const out = await deps.notify.push.send({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, payload, {
        topic,
        timeoutMs: notify.sendTimeoutMs,
      })
      if (out.kind === 'gone') await dropSubscription(deps.db, s.id)
      if (out.kind === 'sent') {
        const at = deps.now()
        await deviceTook(deps.db, d.id, s.id, at)
        await markSubscriptionUsed(deps.db, s.id, at)
      }
      return out
    }),
  )
  const reached = took.size > 0 || outcomes.some((o) => o.kind === 'sent')
  const retry = outcomes.find((o) => o.kind === 'retry')
  if (retry) return { status: 'due', error: retry.problem, reached }
  if (reached) return { status: 'sent' }
  return { status: 'dropped', error: 'every push subscription is gone' }
}

/** Claims and sends due deliveries, at most `concurrency` at once; in-flight sends are not waited for by the next pass. */
export function createDeliveryRunner(deps: ApiDeps) {
  const inFlight = new Set<Promise<void>>()
  let stopping = false
  const run = async (id: string) => {
    const now = deps.now()
    const lease = now + deps.config.notify.leaseMs
    const d = await claimDelivery(deps.db, id, now, lease)
    if (!d) return
    let result: Result
    try {
      result = await deliverOne(deps, d)
    } catch (err) {
      if (isDbUnavailable(err)) throw err
      result = { status: 'due', error: err instanceof Error ? err.message : 'send failed' }
    }
    if (result.status === 'due' && Number(d.attempts) >= MAX_ATTEMPTS)
      result = { status: result.reached ? 'sent' : 'dropped', error: result.error }
    const at = deps.now()
    await finishDelivery(deps.db, d.id, lease, {
      status: result.status,
      at,
      ...(result.status === 'due' && { nextAt: at + backOff(Number(d.attempts)) }),
      error: result.error ?? null,
    })
    if (result.status !== 'sent')
      deps.logger.warn(
        { deliveryId: d.id, channel: d.channel, status: result.status, problem: result.error },
        'notification delivery not sent',
      )
  }
  return {
    /** Starts what is due, up to the free slots; answers how many it started. */
    async pass(): Promise<number> {
      const free = deps.config.notify.concurrency - inFlight.size
      if (free <= 0 || stopping) return 0
      const due = await dueDeliveries(deps.db, deps.now(), free)
      for (const { id } of due) {
        const p: Promise<void> = run(id)
          .catch((err: unknown) => {
            if (isDbUnavailable(err)) deps.dbHealth.failed(err)
            else deps.logger.warn({ err, deliveryId: id }, 'notification delivery failed; its claim runs out and another pass takes it')
          })
          .finally(() => inFlight.delete(p))
        inFlight.add(p)
      }
      return due.length
    },
    /** Waits for the sends in flight. */
    async idle(): Promise<void> {
      while (inFlight.size) await Promise.allSettled([...inFlight])
    },
    stop() {
      stopping = true
    },
  }
}

/** One pass, waiting for its sends (tests; the running api uses startDeliveryWorker). */
export async function runDeliveriesOnce(deps: ApiDeps): Promise<{ started: number }> {
  const runner = createDeliveryRunner(deps)
  const started = await runner.pass()
  await runner.idle()
  return { started }
}

/** A pass every `everyMs` in the api process; stop() starts nothing more and waits for the sends in flight (at most `withinMs`). */
export function startDeliveryWorker(deps: ApiDeps, everyMs = 1_000): { stop(withinMs?: number): Promise<void> } {
  const runner = createDeliveryRunner(deps)
  let busy = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    runner
      .pass()
      .catch((err: unknown) => {
        if (isDbUnavailable(err)) deps.dbHealth.failed(err)
        else deps.logger.warn({ err }, 'notification delivery pass failed')
      })
      .finally(() => {
        busy = false
      })
  }, everyMs)
  timer.unref()
  return {
    async stop(withinMs = 20_000) {
      clearInterval(timer)
      runner.stop()
      await Promise.race([runner.idle(), new Promise((resolve) => setTimeout(resolve, withinMs).unref())])
    },
  }
}
