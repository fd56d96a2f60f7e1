// Automatic withdrawal's switch, posted from Wallet: on with the PIN, off with one button. A route of
// its own so a post without JavaScript never lands on `/wallet?index`; every answer goes back to
// Wallet with a toast, and a refusal's toast says what to change.
import { parseWithZod } from '@conform-to/zod'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { pinField } from '#contract/pin'
import { setAutoWithdrawalFlow } from '~/upstream/wallet.server'
import { requireToken } from '~/utils/auth.server'
import { readForm } from '~/utils/form.server'
import { redirectWithToast } from '~/utils/toast.server'

const autoOnSchema = z.object({ pin: pinField })

/** Nothing to show here: the switch lives on Wallet. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireToken(request)
  return redirect('/wallet')
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const formData = await readForm(context, request)
  if (formData.get('intent') === 'auto-off') {
    const off = await setAutoWithdrawalFlow(request, context, { enabled: false })
    return redirectWithToast(
      request,
      '/wallet',
      off.success ? { type: 'success', message: 'Automatic withdrawal is off' } : { type: 'error', message: off.msg },
    )
  }
  const submission = parseWithZod(formData, { schema: autoOnSchema })
  if (submission.status !== 'success') {
    const message = submission.error?.pin?.[0] ?? 'Enter your withdrawal PIN to turn automatic withdrawal on'
    return redirectWithToast(request, '/wallet', { type: 'error', message })
  }
  const on = await setAutoWithdrawalFlow(request, context, { enabled: true, pin: submission.value.pin })
  if (!on.success) return redirectWithToast(request, '/wallet', { type: 'error', message: on.msg })
  return redirectWithToast(request, '/wallet', { type: 'success', message: 'Automatic withdrawal is on' })
}
