import type { AnalyticsEventBody } from '#contract/analytics'
import { analyticsStorageKey, type AnalyticsEventName } from '#contract/analytics-events'

/**
 * The analytics collector (SPEC §3 "Analytics event"), browser only: each event carries the time,
 * user agent, platform, screen resolution, language, time zone, user id and e-mail, and leaves by
 * `navigator.sendBeacon` for the web's /analytics route, which forwards it to the api. The api
 * takes the person and their e-mail from the session's token, so neither can be forged from here.
 * A browser with Do Not Track or Global Privacy Control sends nothing at all; failures are only
 * logged to the console, never shown (SPEC §1, §8).
 */

export const ANALYTICS_PATH = '/analytics'
const VISITOR_KEY = 'cl-visitor'

type Person = { userId: string; email: string } | null

type PrivacySignals = Navigator & { globalPrivacyControl?: boolean; msDoNotTrack?: string }

/** Do Not Track ("1", or "yes" in old Firefox) or Global Privacy Control: the person said no. */
export function trackingAllowed(): boolean {
  const nav = navigator as PrivacySignals
  const dnt = nav.doNotTrack ?? (window as Window & { doNotTrack?: string }).doNotTrack ?? nav.msDoNotTrack
  return !(dnt === '1' || dnt === 'yes' || nav.globalPrivacyControl === true)
}

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null // storage blocked (some private modes): events still go, visits count page loads
  }
}

let pageVisitorId: string | null = null

/** A random id this browser keeps, so visits count people, not page loads. Nothing else is in it. */
function visitorId(): string {
  const store = storage()
  try {
    const kept = store?.getItem(VISITOR_KEY)
    if (kept && /^[A-Za-z0-9_-]{16,64}$/.test(kept)) return kept
  } catch {
    // fall through to a new id
  }
  pageVisitorId ??= crypto.randomUUID().replace(/-/g, '')
  try {
    store?.setItem(VISITOR_KEY, pageVisitorId)
  } catch {
    // full or blocked: this page's id is used
  }
  return pageVisitorId
}

const clip = (value: string | undefined, max: number) => (value ? value.slice(0, max) : undefined)

/** What the browser says about the device; every field within the contract's bounds. */
function device(): Pick<AnalyticsEventBody, 'userAgent' | 'platform' | 'screenResolution' | 'language' | 'timezone'> {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } }
  let timezone: string | undefined
  try {
    timezone = Intl.DateTimeFormat().resolvedOptions().timeZone
  } catch {
    timezone = undefined
  }
  return {
    userAgent: clip(nav.userAgent, 512),
    platform: clip(nav.userAgentData?.platform || nav.platform, 64),
    screenResolution: clip(`${window.screen.width}x${window.screen.height}`, 32),
    language: clip(nav.language, 35),
    timezone: clip(timezone, 64),
  }
}

/** Sends one event. Never throws: analytics is never the person's problem. */
export function sendEvent(name: AnalyticsEventName, person: Person, extra: { path?: string } = {}): void {
  try {
    if (!trackingAllowed()) return
    const event: AnalyticsEventBody = {
      name,
      timestamp: Date.now(),
      ...device(),
      ...extra,
      visitorId: visitorId(),
      userId: person ? clip(person.userId, 64) : undefined,
      userEmail: person?.email ? clip(person.email, 254) : undefined,
    }
    const body = JSON.stringify(event)
    // A string goes as text/plain: no preflight, and the beacon survives the page being left.
    if (navigator.sendBeacon?.(ANALYTICS_PATH, body)) return
    void fetch(ANALYTICS_PATH, { method: 'POST', body, keepalive: true, credentials: 'same-origin' }).catch((error: unknown) =>
      console.warn('analytics event not sent', error),
    )
  } catch (error) {
    console.warn('analytics event not sent', error)
  }
}

/**
 * The first successful order, once per person on this browser (SPEC §4, §5): the storage key is
 * made of the user id reduced to letters, digits and `-_.`. The api stores it once per person
 * whoever sends it, so a cleared storage costs one extra beacon, never a second event.
 */
export function sendFirstSuccessfulOrderOnce(person: NonNullable<Person>): void {
  if (!trackingAllowed()) return
  const key = analyticsStorageKey(person.userId)
  const store = storage()
  try {
    if (store?.getItem(key)) return
    store?.setItem(key, String(Date.now()))
  } catch {
    // storage blocked: send it; the api keeps one
  }
  sendEvent('first_successful_order', person)
}
