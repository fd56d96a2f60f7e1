import type { SubmissionResult } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod'
import { type AppLoadContext, data } from '@remix-run/node'
import type { ZodTypeAny } from 'zod'
import { FormRefusedError, parseForm, type FormLimits } from './form-parse.server'
import { logger } from './logger.server'
import { accessMessages, flowMessage } from './messages'
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

/**
 * The native constraints of a screen's forms, by form id, for its loader data: `useSchemaForm`
 * (forms.ts) renders them without zod in the browser (decision 059). A schema's constraints never
 * change, so each is worked out once and shared by every page that renders it (never mutated).
 */
export function formConstraints(forms: Record<string, ZodTypeAny>) {
  return { formConstraints: Object.fromEntries(Object.entries(forms).map(([id, schema]) => [id, constraintsOf(schema)])) }
}

const constraints = new WeakMap<ZodTypeAny, ReturnType<typeof getZodConstraint>>()

function constraintsOf(schema: ZodTypeAny) {
  let found = constraints.get(schema)
  if (!found) {
    found = Object.freeze(getZodConstraint(schema))
    constraints.set(schema, found)
  }
  return found
}

export function toastNow(toast: ToastInput): Toast {
  return { ...toast, id: crypto.randomUUID(), durationMs: TOAST_DURATION_MS[toast.type] }
}

/** Secret fields are never echoed back into the form. */
export const SECRET_FIELDS = ['password', 'confirmPassword', 'verifyCode', 'pin', 'oldPin', 'confirmPin']

/** A failed call as the api client reports it (upstream/flow.server.ts's FlowFailure fits it). */
type CallFailure = { msg: string; code?: number; retryAfter?: number; kind?: string; status?: number }

type Replyable = {
  reply(options?: { formErrors?: string[]; hideFields?: string[]; resetForm?: boolean }): SubmissionResult<string[]>
}

/**
 * A failure that is not about what was typed: the api could not be reached or did not answer in
 * time, refused access (403), was busy or locked the person out (429), or broke (5xx). Those are
 * also toasts (the design card); a refusal of the input stays beside the form only.
 */
export function isTransportFailure(failure: Pick<CallFailure, 'kind' | 'status' | 'code'>): boolean {
  if (failure.kind === 'network' || failure.kind === 'timeout' || failure.kind === 'connection-refused') return true
  if (failure.code === 429) return true
  return failure.kind === 'http' && failure.status !== 400
}

/**
 * The form stays on its page, answered 400: with field errors for invalid input, or with the
 * failure's message beside the form (a flow's failure, or a sentence of the page's own), and as a
 * toast as well when it is not about the input (isTransportFailure). Secret fields are never echoed.
 */
export function formRefusal<Extra extends object>(submission: Replyable, extra: Extra, failure?: string | CallFailure) {
  const msg = typeof failure === 'string' ? failure : failure && flowMessage(failure)
  const toast = typeof failure === 'object' && isTransportFailure(failure) ? toastNow({ type: 'error', message: msg! }) : null
  return data<FormReply<Extra>>(
    {
      ...extra,
      result: submission.reply({ formErrors: msg ? [msg] : undefined, hideFields: SECRET_FIELDS }),
      toast,
    },
    { status: 400 },
  )
}

/**
 * The posted form, the one way every action reads it. A body that is not a form at all (JSON,
 * text, broken encoding) reads as an empty one, so the schema answers with field messages. A form
 * no page of ours sends (too many fields, list indices or nesting past form-parse.server.ts's
 * limits, a malformed conform intent) is refused with 413 or 400 and a sentence, before conform
 * spends time or memory on it. The byte limit is server.ts's (body-limit.server.ts).
 */
export async function readForm(
  context: Pick<AppLoadContext, 'requestId'> & Partial<Pick<AppLoadContext, 'logPath'>>,
  request: Request,
  limits?: FormLimits,
): Promise<FormData> {
  try {
    return (await parseForm(request, limits)) ?? new FormData()
  } catch (error) {
    if (!(error instanceof FormRefusedError)) throw error
    logger.warn({ path: context.logPath, reason: error.message, requestId: context.requestId }, 'form refused')
    // The error boundary's convention: a thrown `data({ message }, { status })` says its sentence.
    throw data({ message: error.status === 413 ? accessMessages.tooLarge : accessMessages.formUnreadable }, { status: error.status })
  }
}
