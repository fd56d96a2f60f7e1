import { useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'

/** SPEC §2 shell behaviour, in the browser only. Scrolling on navigation is <ScrollRestoration>'s (root.tsx). */

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
 * A second tap within 300 ms is suppressed wherever it lands: no double submits, no double
 * navigations, and no second link tapped by a bouncing finger. Only controls count (links,
 * buttons, toggles, labels, disclosure summaries); tapping or typing in a field is never held.
 * The click a label hands to its own control is the same tap, so it goes through.
 * Capture phase, so it runs before React's and the browser's own handling.
 */
export function useDoubleTapGuard(windowMs = DOUBLE_TAP_MS) {
  const last = useRef({ at: -Infinity, handsTo: null as Element | null })
  // A screen that has arrived starts afresh: the guard holds taps while a tap's navigation is under
  // way, not the first tap on what it brought (a person reads it first; a test may not wait).
  const { key } = useLocation()
  useEffect(() => {
    last.current = { at: -Infinity, handsTo: null }
  }, [key])
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const control = event.target instanceof Element ? event.target.closest(TAP_CONTROLS) : null
      if (!control) return
      const now = event.timeStamp || performance.now()
      if (now - last.current.at < windowMs) {
        if (control === last.current.handsTo) {
          last.current.handsTo = null
          return
        }
        event.preventDefault()
        event.stopImmediatePropagation()
        return
      }
      last.current = { at: now, handsTo: control instanceof HTMLLabelElement ? control.control : null }
    }
    document.addEventListener('click', onClick, true)
    return () => document.removeEventListener('click', onClick, true)
  }, [windowMs])
}

/** What a tap acts on; text fields, selects and text areas are not among them. */
const TAP_CONTROLS = [
  'a[href]',
  'button',
  'summary',
  'label',
  '[role="button"]',
  '[role="link"]',
  ...['submit', 'button', 'reset', 'image', 'checkbox', 'radio', 'file'].map((type) => `input[type="${type}"]`),
].join(',')
