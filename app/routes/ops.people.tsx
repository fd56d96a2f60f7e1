import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { adminApi } from '#contract/admin'
import { supportApi } from '#contract/support'
import { ConsolePage } from '~/components/console'
import { PendingAdjustments } from '~/components/console-adjustments'
import { DeskErrorBoundary } from '~/components/console-desk-error'
import adminStyles from '~/styles/screens/console-admin.css'
import { decideAdjustment, type DeskReply } from '~/upstream/admin-desk.server'
import { loaded } from '~/upstream/flow.server'
import { requireStaff, staffFlow } from '~/upstream/staff.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

/** Find a person by e-mail or id (a hit opens their page), and the adjustments waiting for a second admin. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { email } = await requireStaff(request, 'admin')
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim()
  let notFound: string | null = null
  if (q) {
    const found = await staffFlow(request, context, adminApi.user, q.includes('@') ? { email: q.toLowerCase() } : { id: q })
    if (found.success) throw redirect(`/ops/people/${encodeURIComponent(found.data.userId)}`)
    notFound = found.msg
  }
  const [pending, support] = await Promise.all([
    staffFlow(request, context, adminApi.pendingAdjustments, {}).then(loaded),
    staffFlow(request, context, supportApi.info, {}).then(loaded),
  ])
  return json({ q, notFound, pending, me: email, currency: support.currency })
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, 'admin')
  return decideAdjustment(request, context, await request.formData(), '/ops/people')
}

export default function PeopleDesk() {
  const { q, notFound, pending, me, currency } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as DeskReply | undefined
  const busy = useNavigation().state === 'submitting'
  return (
    <ConsolePage title="People">
      <Form method="get" className="ops-form ops-panel" role="search" aria-label="Find a person">
        <label>
          E-mail or user id
          <input
            name="q"
            defaultValue={q}
            required
            maxLength={254}
            autoComplete="off"
            aria-describedby={notFound ? 'people-not-found' : undefined}
          />
        </label>
        <button type="submit" className="ops-button ops-button--primary">
          Find
        </button>
      </Form>
      {notFound ? (
        <p id="people-not-found" className="ops-error" role="alert">
          {notFound}
        </p>
      ) : null}
      <h2 className="ops-section-title">Adjustments waiting for a second admin</h2>
      {reply?.error ? (
        <p className="ops-error" role="alert">
          {reply.error}
        </p>
      ) : null}
      <PendingAdjustments pending={pending} me={me} currency={currency} busy={busy} />
    </ConsolePage>
  )
}

export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
