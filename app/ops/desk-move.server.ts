import { type AppLoadContext, data } from '@remix-run/node'
import type { DataOf, Endpoint, InputOf } from '#contract/endpoint'
import { opsMoneyApi } from '#contract/ops/money'
import { redirectWithStaffToast } from '~/ops/session.server'
import { staffFlow } from './staff.server'

/** What an admin-desk form answers when the api refuses: the sentence, which form it was, 400. */
export type DeskReply = { error: string; form: string }

/**
 * One admin-desk move: the api call as the signed-in staff member; done → back to `to` with a
 * toast (plain forms and fetchers alike); refused or bad input → 400 with the api's sentence.
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

/** A form's text field, trimmed ('' when absent). */
export const field = (form: FormData, name: string) => String(form.get(name) ?? '').trim()

export const badInput = (error: string, form: string) => data<DeskReply>({ error, form }, { status: 400 })

/** Approve or decline a waiting adjustment (the people pages' shared move). */
export function decideAdjustment(request: Request, context: AppLoadContext, form: FormData, to: string) {
  const id = field(form, 'id')
  if (field(form, 'intent') === 'approve') {
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
