// A page that keeps itself current while JavaScript runs: Remix revalidation, never a reload.
import { useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect, useRef } from 'react'

/**
 * The page's data again every `everyMs` while the tab is visible, and when the window comes back,
 * for as long as `while` holds (a receipt stops once its withdrawal is final). Nothing is asked
 * while a form or another load is under way.
 */
export function useLiveData(everyMs: number, { while: active = true }: { while?: boolean } = {}) {
  const { revalidate, state } = useRevalidator()
  const navigation = useNavigation()
  const idle = useRef(true)
  idle.current = state === 'idle' && navigation.state === 'idle'
  useEffect(() => {
    if (!active) return
    const again = () => {
      if (document.visibilityState === 'visible' && idle.current) revalidate()
    }
    const timer = window.setInterval(again, everyMs)
    window.addEventListener('focus', again)
    document.addEventListener('visibilitychange', again)
    return () => {
      window.clearInterval(timer)
      window.removeEventListener('focus', again)
      document.removeEventListener('visibilitychange', again)
    }
  }, [everyMs, active, revalidate])
}
