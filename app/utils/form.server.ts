import type { SubmissionResult } from '@conform-to/react'
import type { ToastInput } from './session.server'
import { TOAST_DURATION_MS, type Toast } from './toast.server'

/**
 * What a form action answers when it stays on the page: conform's result (field errors and
 * the values typed, never passwords or codes) and, for failures the api reported, the toast.
 * The toast travels in the action data because, without JavaScript, the page that renders the
 * answer is the same request, so a flash in the cookie would only show on the next page.
 */
export type FormReply<Extra = object> = {
  result: SubmissionResult<string[]>
  toast: Toast | null
} & Extra

export function toastNow(toast: ToastInput): Toast {
  return { ...toast, id: crypto.randomUUID(), durationMs: TOAST_DURATION_MS[toast.type] }
}

/** Secret fields are never echoed back into the form. */
export const SECRET_FIELDS = ['password', 'confirmPassword', 'verifyCode', 'pin', 'oldPin', 'confirmPin']
