import { accountsApi } from '#contract/accounts'
import { logger } from '~/utils/logger.server'
import { upstream, UpstreamError } from './client.server'

/**
 * Sign-outs the api could not hear (it was away): the person is signed out on this device at once,
 * and the token is revoked here as soon as the api answers again. The queue lives in this web
 * process's memory: bounded (the oldest goes first when it is full), retried with a growing wait,
 * given up after a day. A restart forgets it; the token then ends when it expires. Tokens are never
 * logged, only how many wait.
 */

const MAX_WAITING = 1000
const FIRST_WAIT_MS = 2_000
const LONGEST_WAIT_MS = 10 * 60_000
const GIVE_UP_AFTER_MS = 24 * 3_600_000

type Waiting = { since: number; tries: number; dueAt: number; clientIp?: string }

const waiting = new Map<string, Waiting>()
let timer: ReturnType<typeof setTimeout> | null = null
let draining: Promise<void> | null = null

/** Revoke `token` once the api answers. */
export function queueRevoke(token: string, clientIp?: string, now = Date.now(), requestId?: string) {
  waiting.delete(token)
  if (waiting.size >= MAX_WAITING) waiting.delete(waiting.keys().next().value!)
  waiting.set(token, { since: now, tries: 0, dueAt: now + FIRST_WAIT_MS, clientIp })
  logger.warn({ waiting: waiting.size, requestId }, 'sign-out queued: the api did not answer')
  schedule()
}

/** The api did not hear the call: unreachable, too slow, busy or broken (not an answer about the token). */
export function unheard(failure: { kind?: string; status?: number }): boolean {
  if (failure.kind === 'network' || failure.kind === 'timeout' || failure.kind === 'connection-refused') return true
  return failure.kind === 'http' && (failure.status === 429 || (failure.status ?? 0) >= 500)
}

/** How many sign-outs wait for the api. */
export const revokesWaiting = () => waiting.size

function schedule() {
  if (timer || waiting.size === 0) return
  const next = Math.min(...Array.from(waiting.values(), (w) => w.dueAt))
  timer = setTimeout(
    () => {
      timer = null
      void drainRevokes().finally(schedule)
    },
    Math.max(0, next - Date.now()),
  )
  timer.unref?.()
}

/** Tries every sign-out that is due (all of them with `all`); the ones the api still cannot hear wait longer. */
export function drainRevokes({ all = false }: { all?: boolean } = {}): Promise<void> {
  draining ??= (async () => {
    const now = Date.now()
    for (const [token, w] of Array.from(waiting)) {
      if (!all && w.dueAt > now) continue
      try {
        await upstream.call(accountsApi.logout, {}, { token, clientIp: w.clientIp })
        waiting.delete(token)
      } catch (error) {
        // An answer (the token already gone, a refusal) ends it; only silence is tried again.
        const silent = error instanceof UpstreamError && unheard(error)
        if (!silent || now - w.since > GIVE_UP_AFTER_MS) {
          waiting.delete(token)
          continue
        }
        w.tries += 1
        w.dueAt = now + Math.min(FIRST_WAIT_MS * 2 ** w.tries, LONGEST_WAIT_MS)
      }
    }
    logger.info({ waiting: waiting.size }, 'queued sign-outs tried')
  })().finally(() => {
    draining = null
  })
  return draining
}
