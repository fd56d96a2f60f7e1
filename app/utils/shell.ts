import { useEffect } from 'react'

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
