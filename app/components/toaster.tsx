// The flash-toast overlay (SPEC §2 "Shell", §4 "Toast"). The root renders it from the flash toast in
// the session, on the server, so it shows and closes by itself even without JavaScript: a CSS
// animation fades it out at the end of `--toast-duration` and leaves it `visibility: hidden`.
// With JavaScript it is also removed from the DOM after the duration, and has a close button.
import { useEffect, useState } from 'react'
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

export function Toaster({ toast }: { toast: ToastData | null }) {
  // Keep the toast that is showing even if the next loader run no longer carries it (a flash is
  // read once); replace it when a toast with a new id arrives.
  const [state, setState] = useState<{ toast: ToastData | null; closed: boolean }>({ toast, closed: false })
  if (toast && toast.id !== state.toast?.id) setState({ toast, closed: false })

  const current = state.closed ? null : state.toast
  const currentId = current?.id
  const duration = current?.durationMs

  useEffect(() => {
    if (!currentId || duration === undefined) return
    const timer = setTimeout(() => {
      setState((s) => (s.toast?.id === currentId ? { ...s, closed: true } : s))
    }, duration)
    return () => clearTimeout(timer)
  }, [currentId, duration])

  return (
    <div className="cl-toaster">
      {current ? (
        <ToastView
          key={current.id}
          toast={current}
          onClose={() => setState((s) => (s.toast?.id === current.id ? { ...s, closed: true } : s))}
        />
      ) : null}
    </div>
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
