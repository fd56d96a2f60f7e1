import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Outlet, useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { commitStaffSession } from '~/ops/session.server'
import { OpsShell, opsMeta } from '~/ops/shell'
import { signedInStaff } from '~/ops/staff.server'
import { toastOf } from '~/utils/toast.server'

export const meta = opsMeta

/**
 * The console's frame for every desk: who is signed in, as the cookie says (the desk's own api
 * calls check it and bring a change an admin made), and the console's toast.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { email, role, session } = await signedInStaff(request)
  const flashed = session.get('toast')
  const headers = flashed ? { 'Set-Cookie': await commitStaffSession(session) } : undefined
  return data({ staff: { email, role }, toast: flashed ? toastOf(flashed) : null }, { headers })
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
