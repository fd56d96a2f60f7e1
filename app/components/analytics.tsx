// <Analytics />: the collector's eyes (app/utils/analytics.client.ts). Rendered once by the root,
// it draws nothing. It sends a page view on each route change (the screen's pattern from the routes
// table, never a query string), and the key events from the flash toasts the success screens
// already get: register (the welcome after sign-up or a first Google sign-in), login, order
// submitted and withdrawal created; with the first order, once per person, the first successful
// order. A toast has an id, so a revisit or a reload never counts twice. Do Not Track or Global
// Privacy Control: nothing is sent (the collector checks, the web route checks again).
import { useLocation, useRouteLoaderData } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { AnalyticsEvent, type AnalyticsEventName } from '#contract/analytics-events'
import type { loader as rootLoader } from '~/root'
import { sendEvent, sendFirstSuccessfulOrderOnce } from '~/utils/analytics.client'
import { screenFor } from '~/utils/routes'
import { successMessages } from '~/utils/shell-messages'
import { useOptionalUser } from '~/utils/user'

/** Which success toast, on which screen, is which key event. */
const KEY_EVENTS: { message: string; name: AnalyticsEventName; path?: string }[] = [
  { message: successMessages.registered, name: AnalyticsEvent.REGISTER },
  { message: successMessages.googleNew, name: AnalyticsEvent.REGISTER },
  { message: successMessages.loggedIn, name: AnalyticsEvent.LOGIN },
  { message: successMessages.orderSubmitted, name: AnalyticsEvent.ORDER_SUBMITTED, path: '/order/submit-success' },
  { message: successMessages.withdrawn, name: AnalyticsEvent.WITHDRAWAL_CREATED, path: '/wallet/withdraw-success' },
]

/** The screen's pattern (`/order/:id`): ids, and whatever was typed into an unknown path, stay out. */
const pathOf = (pathname: string) => screenFor(pathname)?.path ?? '/not-found'

export function Analytics() {
  const location = useLocation()
  const user = useOptionalUser()
  const toast = useRouteLoaderData<typeof rootLoader>('root')?.toast ?? null
  const person = user ? { userId: user.userId, email: user.email } : null
  // Latest values for the effects below, which run on their own triggers only.
  const personRef = useRef(person)
  personRef.current = person
  const lastView = useRef<string | null>(null)
  const lastToast = useRef<string | null>(null)

  useEffect(() => {
    // One view per navigation (React's development double effects included).
    if (lastView.current === location.key) return
    lastView.current = location.key
    sendEvent(AnalyticsEvent.PAGE_VIEW, personRef.current, { path: pathOf(location.pathname) })
  }, [location.key, location.pathname])

  useEffect(() => {
    if (!toast || toast.type !== 'success' || lastToast.current === toast.id) return
    lastToast.current = toast.id
    const match = KEY_EVENTS.find((e) => e.message === toast.message && (!e.path || e.path === location.pathname))
    if (!match) return
    const who = personRef.current
    sendEvent(match.name, who)
    if (match.name === AnalyticsEvent.ORDER_SUBMITTED && who) sendFirstSuccessfulOrderOnce(who)
  }, [toast, location.pathname])

  return null
}
