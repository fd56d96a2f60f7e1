import { parseWithZod } from '@conform-to/zod'
import { type AppLoadContext, data, type TypedResponse } from '@remix-run/node'
import type { z } from 'zod'
import { profileApi } from '#contract/profile'
import { Refusals } from '#contract/refusals'
import { requireToken } from '~/utils/auth.server'
import { emailStepSchema, OWN_ADDRESS_CODE_TYPES, type CodeStep, type CodeStepReply } from '~/utils/email-code'
import { formRefusal, SECRET_FIELDS, toastNow } from '~/utils/form.server'
import { flowFallbacks, isLockout } from '~/utils/messages'
import { successMessages } from '~/utils/shell-messages'
import { sendCodeFlow } from './accounts.server'
import { callApi } from './call-api.server'
import { flow, type FlowFailure, type FlowResult } from './flow.server'

/**
 * The two steps every e-mail-code flow shares (sign-up, password reset, code sign-in, and the
 * signed-in types 4 and 5): e-mail the 6-digit code, then check it with the step's other fields.
 * The routes only say which flow runs and where a success goes.
 */

/** The secret fields each api refusal is about: only those start empty again. */
const REFUSED_SECRETS: Record<number, string[]> = {
  [Refusals.BAD_VERIFY_CODE.code]: ['verifyCode'],
  [Refusals.BAD_CREDENTIALS.code]: ['password'],
  [Refusals.WEAK_PASSWORD.code]: ['password'],
}

type Replyable = Parameters<typeof formRefusal>[0] & { error?: Record<string, string[] | null> | null }

/**
 * A form that stays on its page: field errors, or the flow's refusal beside the form (never as a
 * toast as well). It names the secret fields that were refused, so the page empties only those,
 * and a lockout (HTTP 429) gets its own sentence instead of "Request failed (429): …".
 */
export function refuseForm<Extra extends object>(submission: Replyable, extra: Extra, failure?: FlowFailure) {
  const invalid = Object.keys(submission.error ?? {}).filter((name) => SECRET_FIELDS.includes(name))
  const refused = [...invalid, ...(failure?.code !== undefined ? (REFUSED_SECRETS[failure.code] ?? []) : [])]
  return formRefusal(
    submission,
    { ...extra, refused, attempt: crypto.randomUUID(), lockout: failure ? isLockout(failure) : false },
    failure,
  )
}

/** The signed-in person's own address, for the code types that go to it. */
async function ownAddress(request: Request, context: AppLoadContext): Promise<FlowResult<string>> {
  const { session } = await requireToken(request)
  const cached = session.get('login_email')
  if (cached) return { success: true, data: cached }
  return flow(context, flowFallbacks.sendCode, async () => (await callApi(request, context, profileApi.index, {})).userInfo?.email ?? '')
}

/**
 * Step one: e-mail the code, then show step two (the address carried in the page). For the
 * signed-in types there is no address to type: the api sends the code to the person's own.
 */
export async function sendCodeStep<Extra extends object = object>(
  request: Request,
  context: AppLoadContext,
  formData: FormData,
  type: number,
  extra: Extra = {} as Extra,
) {
  const own = OWN_ADDRESS_CODE_TYPES.includes(type)
  // A code asked for again from step two (or too soon) keeps the person on step two.
  const failedStep: CodeStep = formData.get('step') === 'verify' ? 'verify' : 'email'
  let input = formData
  if (own) {
    const address = await ownAddress(request, context)
    input = new FormData()
    if (address.success) input.set('email', address.data)
    else
      return refuseForm(
        parseWithZod(input, { schema: emailStepSchema }),
        { ...extra, step: failedStep, email: undefined as string | undefined },
        address,
      )
  }
  const submission = parseWithZod(input, { schema: emailStepSchema })
  if (submission.status !== 'success')
    return refuseForm(submission, { ...extra, step: 'email' as CodeStep, email: undefined as string | undefined })
  const { email } = submission.value
  const shown = own ? undefined : email
  const sent = await sendCodeFlow(request, context, { email, type })
  if (!sent.success) return refuseForm(submission, { ...extra, step: failedStep, email: shown }, sent)
  return data<CodeStepReply & Extra>({
    ...extra,
    result: submission.reply({ resetForm: true }),
    toast: toastNow({ type: 'success', message: successMessages.codeSent }),
    step: 'verify',
    email: shown,
  })
}

/**
 * Step two: parse the step's schema, run the flow with the code, and on success hand over to
 * `done` (sign in, or on to the next page). A refusal stays on step two, keeping the address and
 * every field the api did not refuse.
 */
export async function verifyCodeStep<Schema extends z.ZodTypeAny, T, Extra extends object = object>(
  formData: FormData,
  {
    schema,
    extra = {} as Extra,
    run,
    done,
  }: {
    schema: Schema
    extra?: Extra
    run: (value: z.output<Schema>) => Promise<FlowResult<T>>
    done: (data: T, value: z.output<Schema>) => Promise<TypedResponse<never>>
  },
) {
  const submission = parseWithZod(formData, { schema })
  const base = { ...extra, step: 'verify' as CodeStep, email: stepEmail(formData) }
  if (submission.status !== 'success') return refuseForm(submission, base)
  const result = await run(submission.value)
  if (!result.success) return refuseForm(submission, base, result)
  return done(result.data, submission.value)
}

/** The e-mail of a second-step form, for re-rendering that step after an error. */
function stepEmail(formData: FormData) {
  const email = formData.get('email')
  return typeof email === 'string' && email.length <= 254 ? email : undefined
}
