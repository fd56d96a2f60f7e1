import { parseWithZod } from '@conform-to/zod'
import { json } from '@remix-run/node'
import { emailStepSchema, type CodeStep, type CodeStepReply } from './email-code'
import { sendCodeFlow } from '~/upstream/accounts.server'
import { formRefusal, toastNow } from './form.server'
import { successMessages } from './messages'

/**
 * The first step shared by register, forgot password and sign-in by code: e-mail the
 * 6-digit code, then show the second step with the address carried in the page.
 */
export async function sendCodeStep<Extra extends object = object>(request: Request, formData: FormData, type: number, extra: Extra = {} as Extra) {
  const submission = parseWithZod(formData, { schema: emailStepSchema })
  if (submission.status !== 'success') return formRefusal(submission, { ...extra, step: 'email' as CodeStep, email: undefined as string | undefined })
  const { email } = submission.value
  const sent = await sendCodeFlow(request, { email, type })
  if (!sent.success) {
    // A code asked for too soon still leaves the earlier code usable: stay on the code step.
    const step: CodeStep = formData.get('step') === 'verify' ? 'verify' : 'email'
    return formRefusal(submission, { ...extra, step, email }, sent.msg)
  }
  return json<CodeStepReply & Extra>({
    ...extra,
    result: submission.reply({ resetForm: true }),
    toast: toastNow({ type: 'success', message: successMessages.codeSent }),
    step: 'verify',
    email,
  })
}

/** The e-mail of a second-step form, for re-rendering that step after an error. */
export function stepEmail(formData: FormData) {
  const email = formData.get('email')
  return typeof email === 'string' && email.length <= 254 ? email : undefined
}
