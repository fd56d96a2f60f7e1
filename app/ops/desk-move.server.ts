import { type AppLoadContext, data } from '@remix-run/node'
import { z } from 'zod'
import type { DataOf, Endpoint, InputOf } from '#contract/endpoint'
import { opsMoneyApi } from '#contract/ops/money'
import { redirectWithStaffToast } from '~/ops/session.server'
import { readForm } from '~/utils/form.server'
import { staffFlow } from './staff.server'

/** What a desk form answers when the api or the desk's schema refuses: the sentence, which form it was, 400. */
export type DeskReply = { error: string; form: string }

/**
 * One desk move: the api call as the signed-in staff member; done → back to `to` with a toast
 * (plain forms and fetchers alike); refused → 400 with the api's sentence.
 */
export async function deskMove<E extends Endpoint>(
  request: Request,
  context: AppLoadContext,
  move: { endpoint: E; input: InputOf<E>; form: string; to: string; done: (data: DataOf<E>) => string },
) {
  const result = await staffFlow(request, context, move.endpoint, move.input)
  if (!result.success) return data<DeskReply>({ error: result.msg, form: move.form }, { status: 400 })
  return redirectWithStaffToast(request, move.to, { type: 'success', message: move.done(result.data) })
}

export const badInput = (error: string, form: string) => data<DeskReply>({ error, form }, { status: 400 })

/** The sentence of a form no page of ours sends whole: a field missing, left over or out of order. */
export const INCOMPLETE = 'This form is incomplete. Reload the page and fill it in again'

/** The text a desk form posted, by name, cut short: enough to say which of the page's forms it was. */
export type RawForm = Partial<Record<string, string>>

export type DeskForm<T> = { ok: true; value: T; raw: RawForm } | { ok: false; problem: string; raw: RawForm }

/**
 * A desk's form, the house's way: readForm's bounds (too many fields, a name that reaches a
 * prototype: 413/400 with a sentence), then the desk's zod schema. Every field is checked before
 * any api call. A name sent twice is refused: no desk form sends one twice, and a second value must
 * not ride past the check of the first. `choose` is the desk's sentence for an unknown `intent`.
 */
export async function readDeskForm<S extends z.ZodTypeAny>(
  context: AppLoadContext,
  request: Request,
  schema: S,
  choose = 'Choose one of the desk’s actions',
): Promise<DeskForm<z.output<S>>> {
  return checkDeskForm(await readForm(context, request), schema, choose)
}

/** A desk form already read within readForm's bounds (the review desk's, which may carry a photo): its schema. */
export function checkDeskForm<S extends z.ZodTypeAny>(form: FormData, schema: S, choose: string): DeskForm<z.output<S>> {
  const values: Record<string, string> = {}
  const raw: RawForm = {}
  for (const [name, value] of form) {
    if (typeof value !== 'string') return { ok: false, problem: 'This form takes text only', raw }
    if (Object.hasOwn(values, name)) return { ok: false, problem: `This form sends ${name} once`, raw }
    values[name] = value
    raw[name] = value.slice(0, 254)
  }
  const parsed = schema.safeParse(values)
  if (parsed.success) return { ok: true, value: parsed.data, raw }
  return { ok: false, problem: problemOf(parsed.error, choose), raw }
}

function problemOf(error: z.ZodError, choose: string): string {
  const issue = error.issues[0]
  if (!issue) return INCOMPLETE
  if (issue.code === 'unrecognized_keys') return `This form does not take ${issue.keys.slice(0, 3).join(', ')}`
  if (issue.code === 'invalid_union_discriminator') return choose
  // zod's own word for a field that is not there: the field's schema gave no sentence of its own.
  if (issue.message === 'Required') return INCOMPLETE
  return issue.message
}

/** A row's id as the desks send it. */
export const deskId = z.string({ required_error: INCOMPLETE }).min(1, INCOMPLETE).max(64, INCOMPLETE)

/** Approve or decline a request waiting for a second admin (maker-checker): the same two buttons on every desk. */
export const decisionForms = [
  z.object({ intent: z.literal('approve'), id: deskId }).strict(),
  z.object({ intent: z.literal('decline'), id: deskId }).strict(),
] as const
export type Decision = z.infer<(typeof decisionForms)[number]>

/** Approve or decline a waiting adjustment (the people pages' shared move). */
export function decideAdjustment(request: Request, context: AppLoadContext, decision: Decision, to: string) {
  const { id } = decision
  if (decision.intent === 'approve') {
    return deskMove(request, context, {
      endpoint: opsMoneyApi.approveAdjustment,
      input: { id },
      form: `decide:${id}`,
      to,
      done: () => 'Adjustment approved: the wallet moved',
    })
  }
  return deskMove(request, context, {
    endpoint: opsMoneyApi.declineAdjustment,
    input: { id },
    form: `decide:${id}`,
    to,
    done: () => 'Adjustment declined: nothing moved',
  })
}
