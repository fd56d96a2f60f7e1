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
 * A second tap within 300 ms on the same control is suppressed: no double submits or double
 * navigations. A tap on another control is a new intention and goes through.
 * Capture phase, so it runs before React's and the browser's own handling.
 */
export function useDoubleTapGuard(windowMs = DOUBLE_TAP_MS) {
  useEffect(() => {
    let last = { at: -Infinity, target: null as Element | null }
    const onClick = (event: MouseEvent) => {
      const target =
        event.target instanceof Element ? (event.target.closest('a,button,input,label,summary,[role="button"]') ?? event.target) : null
      const now = event.timeStamp || performance.now()
      if (target && target === last.target && now - last.at < windowMs) {
        event.preventDefault()
        event.stopImmediatePropagation()
        return
      }
      last = { at: now, target }
    }
    document.addEventListener('click', onClick, true)
    return () => document.removeEventListener('click', onClick, true)
  }, [windowMs])
}
