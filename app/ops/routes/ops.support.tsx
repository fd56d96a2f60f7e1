// The Support desk (decision 049): sellers' conversations, open ones first and the one waiting
// longest first, for any staff role: everyone at the console may answer a seller.
import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { supportDeskApi } from '#contract/ops/support'
import { Link } from '~/components/link'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { formatWhen } from '~/ops/format'
import { OpsPage } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import { loaded } from '~/upstream/flow.server'
import { deskStatus } from '~/utils/support-words'

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context)
  const { list } = loaded(await staffFlow(request, context, supportDeskApi.list, {}))
  return { list }
}

export default function SupportDesk() {
  const { list } = useLoaderData<typeof loader>()
  const waiting = list.filter((c) => c.status === 'open').length
  return (
    <OpsPage title="Support">
      <p className="ops-panel">{waiting === 1 ? '1 seller is waiting for an answer.' : `${waiting} sellers are waiting for an answer.`}</p>
      {list.length ? (
        <table className="ops-table">
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">Seller</th>
              <th scope="col">Status</th>
              <th scope="col">Last message</th>
            </tr>
          </thead>
          <tbody>
            {list.map((c) => (
              <tr key={c.id}>
                <td>
                  <Link to={`/ops/support/${encodeURIComponent(c.id)}`}>{c.subject}</Link>
                </td>
                <td>{c.userEmail}</td>
                <td>{deskStatus[c.status]}</td>
                <td>{formatWhen(c.lastMessageAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="ops-panel">No conversations yet.</p>
      )}
    </OpsPage>
  )
}

export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
