import type { SubmissionResult } from '@conform-to/react'
import { json } from '@remix-run/node'
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

type Replyable = {
  reply(options?: { formErrors?: string[]; hideFields?: string[]; resetForm?: boolean }): SubmissionResult<string[]>
}

/**
 * The form stays on its page, answered 400: with field errors for invalid input, or with the
 * api's refusal `msg` beside the form and as a toast. Secret fields are never echoed.
 */
export function formRefusal<Extra extends object>(submission: Replyable, extra: Extra, msg?: string) {
  return json<FormReply<Extra>>(
    {
      ...extra,
      result: submission.reply({ formErrors: msg ? [msg] : undefined, hideFields: SECRET_FIELDS }),
      toast: msg ? toastNow({ type: 'error', message: msg }) : null,
    },
    { status: 400 },
  )
}

/**
 * The posted form, or an empty one when the body is not a form at all (JSON, text, broken
 * encoding): the schema then answers with field messages instead of the request failing.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    return new FormData()
  }
}
