import { redirect, redirectDocument, type Session } from '@remix-run/node'
import { commitSession, getSession, type AppSession, type SessionFlash, type ToastInput, type ToastType } from './session.server'

/**
 * Flash toasts (post/redirect/get): an action puts {type, message} in the session and
 * redirects; the root loader reads it once and the Toaster renders it on the server.
 */
export const TOAST_DURATION_MS: Record<ToastType, number> = {
  success: 3000,
  info: 3000,
  error: 4000,
  warning: 4000,
}

export type Toast = ToastInput & { id: string; durationMs: number }

/** A toast ready to render now: its id (a new one replaces the one on screen) and duration. */
export function toastOf(toast: ToastInput & { id?: string }): Toast {
  return { ...toast, id: toast.id ?? crypto.randomUUID(), durationMs: TOAST_DURATION_MS[toast.type] ?? 3000 }
}

/** The one way a toast is flashed, in the customer's session or the staff's (each cookie holds one). */
export function flashToast(session: Pick<Session<unknown, SessionFlash>, 'flash'>, toast: ToastInput) {
  session.flash('toast', { ...toast, id: crypto.randomUUID() })
}

type Init = { session?: AppSession; headers?: HeadersInit; document?: boolean }

/** Redirect with a toast, keeping (or replacing) the session in the same cookie. */
export async function redirectWithToast(request: Request, url: string, toast: ToastInput, init: Init = {}) {
  const session = init.session ?? (await getSession(request))
  flashToast(session, toast)
  const headers = combineHeaders(init.headers, { 'Set-Cookie': await commitSession(session) })
  return (init.document ? redirectDocument : redirect)(url, { headers })
}

/** Appends, never overwrites: a session cookie and another Set-Cookie both survive. */
export function combineHeaders(...all: Array<HeadersInit | null | undefined>): Headers {
  const combined = new Headers()
  for (const headers of all) {
    if (!headers) continue
    for (const [key, value] of new Headers(headers).entries()) combined.append(key, value)
  }
  return combined
}
