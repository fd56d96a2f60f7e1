import type { Toast } from '~/utils/toast.server'
import { Toaster } from './toaster'

/**
 * The toast an action returned with its data (see utils/form.server.ts for why): confirmations
 * ("We sent a code"), and failures that are not about what was typed (the api away, 403, 429),
 * which are shown beside the form as well. A refusal of the input comes without a toast: the form
 * says it in one place (FormError, role="alert").
 */
export function ActionToast({ toast }: { toast: Toast | null | undefined }) {
  return toast ? <Toaster key={toast.id} toast={toast} /> : null
}
