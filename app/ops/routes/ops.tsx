import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Outlet, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { commitStaffSession } from '~/ops/session.server'
import { OpsShell, opsMeta } from '~/ops/shell'
import { currentStaff } from '~/ops/staff.server'
import { toastOf } from '~/utils/toast.server'

export const meta = opsMeta

/** The console's frame for every desk: who is signed in (asked of the api), the console's toast. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { staff, session, dirty } = await currentStaff(request, context)
  const flashed = session.get('toast')
  const headers = dirty || flashed ? { 'Set-Cookie': await commitStaffSession(session) } : undefined
  return data({ staff: { email: staff.email, role: staff.role }, toast: flashed ? toastOf(flashed) : null }, { headers })
}

export default function OpsLayout() {
  const { staff, toast } = useLoaderData<typeof loader>()
  return (
    <OpsShell staff={staff} toast={toast}>
      <Outlet />
    </OpsShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
