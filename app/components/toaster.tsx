// The flash-toast overlay (SPEC §2 "Shell", §4 "Toast"). The root renders it from the flash toast in
// the session, on the server, so it shows and closes by itself even without JavaScript: a CSS
// animation fades it out at the end of `--toast-duration` and leaves it `visibility: hidden`.
// With JavaScript it is also removed from the DOM after the duration, and has a close button.
// There is one toast on the screen at a time: the root's (a flash) and a form's (ActionToast) share
// one slot, and the newest one shown replaces the one before.
import { useEffect, useState, useSyncExternalStore } from 'react'
import { Icon, type IconName } from './icon'
import { useHydrated } from './ui'

export type ToastType = 'success' | 'error' | 'info' | 'warning'
export type ToastData = { id: string; type: ToastType; message: string; durationMs: number }

const icons: Record<ToastType, IconName> = {
  success: 'check-circle',
  error: 'x-circle',
  warning: 'alert-triangle',
  info: 'info',
}

/** The id of the toast shown last, in this browser tab; every Toaster draws only that one. */
const slot = { id: null as string | null, listeners: new Set<() => void>() }

function show(id: string) {
  slot.id = id
  for (const listener of slot.listeners) listener()
}

function subscribe(listener: () => void) {
  slot.listeners.add(listener)
  return () => slot.listeners.delete(listener)
}

/** On the server (and while hydrating) nothing has been shown yet: every toast renders. */
function useShownId(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => slot.id,
    () => null,
  )
}

export function Toaster({ toast }: { toast: ToastData | null }) {
  // Keep the toast that is showing even if the next loader run no longer carries it (a flash is
  // read once); replace it when a toast with a new id arrives.
  const [state, setState] = useState<{ toast: ToastData | null; closed: boolean }>({ toast, closed: false })
  if (toast && toast.id !== state.toast?.id) setState({ toast, closed: false })

  const current = state.closed ? null : state.toast
  const currentId = current?.id
  const duration = current?.durationMs

  // Mounting or receiving a toast claims the slot, so an older toast elsewhere steps aside.
  useEffect(() => {
    if (currentId) show(currentId)
  }, [currentId])
  const shownId = useShownId()
  const visible = current && (shownId === null || shownId === current.id) ? current : null

  useEffect(() => {
    if (!currentId || duration === undefined) return
    const timer = setTimeout(() => {
      setState((s) => (s.toast?.id === currentId ? { ...s, closed: true } : s))
    }, duration)
    return () => clearTimeout(timer)
  }, [currentId, duration])

  // A labelled region (a landmark, so the toast is not content outside any), only while it holds one.
  if (!visible) return null
  return (
    <section className="cl-toaster" aria-label="Notifications">
      <ToastView
        key={visible.id}
        toast={visible}
        onClose={() => setState((s) => (s.toast?.id === visible.id ? { ...s, closed: true } : s))}
      />
    </section>
  )
}

function ToastView({ toast, onClose }: { toast: ToastData; onClose: () => void }) {
  const hydrated = useHydrated()
  const urgent = toast.type === 'error' || toast.type === 'warning'
  const duration = Math.max(0, Math.round(toast.durationMs))
  return (
    <div
      className={`cl-toast cl-toast--${toast.type}`}
      role={urgent ? 'alert' : 'status'}
      aria-live={urgent ? 'assertive' : 'polite'}
      aria-atomic="true"
      data-toast-id={toast.id}
      style={{ ['--toast-duration' as string]: `${duration}ms` }}
    >
      <Icon name={icons[toast.type]} size={22} className="cl-toast__icon" />
      <p className="cl-toast__message">{toast.message}</p>
      {/* The close button only works with JavaScript: until hydration it keeps its place (no
          layout shift) but is invisible and out of the tab order. */}
      <button
        type="button"
        className="cl-toast__close"
        aria-label="Dismiss"
        onClick={onClose}
        disabled={!hydrated}
        data-ready={hydrated ? '' : undefined}
      >
        <Icon name="x" size={18} />
      </button>
      <span className="cl-toast__timer" aria-hidden="true" />
    </div>
  )
}
