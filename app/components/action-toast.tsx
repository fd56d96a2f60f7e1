import type { Toast } from '~/utils/toast.server'
import { Toaster } from './toaster'

/**
 * The toast an action returned with its data (see utils/form.server.ts for why). A refusal is
 * already shown beside the form (FormError, role="alert"): one message in one place, so error
 * toasts are not repeated here; confirmations ("We sent a code") are.
 */
export function ActionToast({ toast }: { toast: Toast | null | undefined }) {
  return toast && toast.type !== 'error' ? <Toaster key={toast.id} toast={toast} /> : null
}
