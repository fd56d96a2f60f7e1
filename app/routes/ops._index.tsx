import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ConsolePage } from '~/components/console'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Link } from '~/components/link'
import { requireStaff } from '~/upstream/staff.server'
import { consoleNav } from '~/utils/console-routes'

/** The console's first page: the desks this role works. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { role } = await requireStaff(request)
  return json({ desks: consoleNav(role).filter((d) => d.path !== '/ops') })
}

export default function Dashboard() {
  const { desks } = useLoaderData<typeof loader>()
  return (
    <ConsolePage title="Dashboard">
      <ul className="ops-panel">
        {desks.map((d) => (
          <li key={d.path}>
            <Link to={d.path}>{d.title}</Link>
          </li>
        ))}
      </ul>
    </ConsolePage>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
