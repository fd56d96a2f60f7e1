import { useLocation, useNavigation } from '@remix-run/react'
import { useEffect, useRef } from 'react'

/** SPEC §2 shell behaviour, in the browser only. */

export const DOUBLE_TAP_MS = 300

/** `--vh`: 1% of the real viewport height, recalculated on every resize (mobile URL bars). */
export function useViewportHeight() {
  useEffect(() => {
    const set = () => document.documentElement.style.setProperty('--vh', `${window.innerHeight * 0.01}px`)
    set()
    window.addEventListener('resize', set)
    return () => window.removeEventListener('resize', set)
  }, [])
}

/**
 * A second tap within 300 ms, anywhere, is suppressed: no double submits or double navigations,
 * and no tap on what a first tap just brought under the finger. Only real taps count (isTrusted):
 * a click our own code dispatches (a button opening the file picker) is not a tap, and neither is
 * the click a label passes on to its own control. Capture phase, so it runs before React's and the
 * browser's own handling.
 */
export function useDoubleTapGuard(windowMs = DOUBLE_TAP_MS) {
  useEffect(() => {
    let last = { at: -Infinity, target: null as EventTarget | null }
    const onClick = (event: MouseEvent) => {
      if (!event.isTrusted) return
      const label = last.target instanceof HTMLLabelElement ? last.target : null
      if (label && label.control === event.target) return
      const now = event.timeStamp || performance.now()
      if (now - last.at < windowMs) {
        event.preventDefault()
        event.stopImmediatePropagation()
        return
      }
      last = { at: now, target: event.target instanceof Element ? (event.target.closest('label') ?? event.target) : null }
    }
    document.addEventListener('click', onClick, true)
    return () => document.removeEventListener('click', onClick, true)
  }, [windowMs])
}

/**
 * Every navigation scrolls to the top (SPEC §2). Not a form posted that stays on its page (its URL
 * may gain the form's query): the answer is there, and the form brings its error into view itself.
 */
export function useScrollToTopOnNavigation() {
  const location = useLocation()
  const navigation = useNavigation()
  const postedFrom = useRef<string | null>(null)
  if (navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() !== 'GET') postedFrom.current = location.pathname
  useEffect(() => {
    const stayed = postedFrom.current === location.pathname
    postedFrom.current = null
    if (!stayed) window.scrollTo(0, 0)
  }, [location.pathname, location.search])
  // A post that ended without moving: forget it (declared after, so it runs after the one above).
  useEffect(() => {
    if (navigation.state === 'idle') postedFrom.current = null
  }, [navigation.state])
}
