import type { Toast } from '~/utils/toast.server'
import { Toaster } from './toaster'

/** The toast an action returned with its data (see utils/form.server.ts for why). */
export function ActionToast({ toast }: { toast: Toast | null | undefined }) {
  return toast ? <Toaster key={toast.id} toast={toast} /> : null
}
