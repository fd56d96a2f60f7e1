// The review desk's shared pieces: an order's age against its ETA and the keyboard shortcuts
// (never while typing in a field).
import { useEffect, useRef } from 'react'

/** "2 h 05 min" from minutes. */
export function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`
  const h = Math.floor(minutes / 60)
  if (h < 48) return `${h} h ${String(minutes % 60).padStart(2, '0')} min`
  return `${Math.floor(h / 24)} d ${h % 24} h`
}

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))

/** One key → one move; ignored while typing in a field or with a modifier held. */
export function useShortcuts(keys: Record<string, (() => void) | undefined>) {
  const current = useRef(keys)
  current.current = keys
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return
      const move = current.current[e.key]
      if (move) {
        e.preventDefault()
        move()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}
