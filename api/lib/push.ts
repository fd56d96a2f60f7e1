import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import webpush from 'web-push'
import type { NotifyConfig } from '../config'
import type { Logger } from './logger'

/**
 * Web push (RFC 8030 with VAPID, RFC 8292, and aes128gcm payload encryption, RFC 8291) through
 * `web-push` (decision 046). The library builds the request (encrypts, signs the VAPID JWT); we send
 * it with fetch so each send has its own deadline and no push service can hold a worker slot.
 */

export type VapidKeys = { publicKey: string; privateKey: string }

/**
 * The keys from the settings; outside production, made once and kept in VAPID_KEY_FILE (like the
 * other secrets development makes for itself), so subscriptions survive a restart. Never logged.
 */
export function loadVapidKeys(config: NotifyConfig, logger: Logger): VapidKeys | undefined {
  if (config.vapid) return config.vapid
  if (config.production) {
    logger.warn('push notifications are off: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY')
    return undefined
  }
  const file = config.vapidKeyFile
  if (existsSync(file)) {
    const keys = JSON.parse(readFileSync(file, 'utf8')) as VapidKeys
    if (typeof keys.publicKey === 'string' && typeof keys.privateKey === 'string') return keys
  }
  const keys = webpush.generateVAPIDKeys()
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 })
  logger.info({ file }, 'made VAPID keys for push notifications (development)')
  return keys
}

export type PushTarget = { endpoint: string; keys: { p256dh: string; auth: string } }

/** What became of one push: accepted, the subscription is gone (404/410), or worth another try. */
export type PushOutcome = { kind: 'sent' } | { kind: 'gone'; status: number } | { kind: 'retry'; problem: string }

export type PushSender = {
  publicKey: string | undefined
  send(target: PushTarget, payload: string, opts: { topic: string; timeoutMs: number }): Promise<PushOutcome>
}

export function createPushSender(keys: VapidKeys | undefined, subject: string): PushSender {
  return {
    publicKey: keys?.publicKey,
    async send(target, payload, { topic, timeoutMs }) {
      if (!keys) return { kind: 'retry', problem: 'push is not set up (no VAPID keys)' }
      let req: ReturnType<typeof webpush.generateRequestDetails>
      try {
        req = webpush.generateRequestDetails(target, payload, {
          vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          // A day: a phone that is off for longer gets the news in the app instead.
          TTL: 86_400,
          urgency: 'high',
          // The same delivery sent again (after a crash) replaces the first at the push service.
          topic,
          contentEncoding: 'aes128gcm',
        })
      } catch (err) {
        // Keys the browser gave that do not make a key agreement: nothing to retry.
        return { kind: 'gone', status: 0, ...(err instanceof Error && { problem: err.message }) }
      }
      try {
        const res = await fetch(req.endpoint, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: req.body ?? undefined,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        })
        await res.arrayBuffer().catch(() => undefined)
        if (res.status === 404 || res.status === 410) return { kind: 'gone', status: res.status }
        if (res.ok) return { kind: 'sent' }
        return { kind: 'retry', problem: `push service answered ${res.status}` }
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')
        return { kind: 'retry', problem: timedOut ? `push service did not answer within ${timeoutMs} ms` : 'push service unreachable' }
      }
    },
  }
}
