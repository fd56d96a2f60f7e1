import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { opsMoneyApi } from '#contract/ops/money'
import { peopleDeskApi, type PersonHit } from '#contract/ops/people'
import { supportApi } from '#contract/support'
import { Link } from '~/components/link'
import { PendingAdjustments } from '~/ops/adjustments'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { badInput, decideAdjustment, decisionForms, readDeskForm, type DeskReply } from '~/ops/desk-move.server'
import { formatWhen } from '~/ops/format'
import { OpsPage, DeskTable } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import adminStyles from '~/ops/styles/admin-desks.css?url'
import { loaded } from '~/upstream/flow.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

/**
 * Find people by part of an e-mail or a name, an id, an order's or a withdrawal's number: one hit
 * opens their page, several are listed. And the adjustments waiting for a second admin.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { email } = await requireStaff(request, context)
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim()
  let notFound: string | null = null
  let hits: PersonHit[] = []
  if (q) {
    const found = await staffFlow(request, context, peopleDeskApi.findPeople, { q })
    if (found.success && found.data.length === 1) throw redirect(`/ops/people/${encodeURIComponent(found.data[0]!.userId)}`)
    if (found.success) hits = found.data
    notFound = !found.success ? found.msg : hits.length === 0 ? `Nobody matches “${q}”.` : null
  }
  const [pending, support] = await Promise.all([
    staffFlow(request, context, opsMoneyApi.pendingAdjustments, {}).then(loaded),
    staffFlow(request, context, supportApi.info, {}).then(loaded),
  ])
  return { q, notFound, hits, pending, me: email, currency: support.currency }
}

/** The desk's one form: approve or decline a waiting adjustment. */
const peopleDeskForm = z.discriminatedUnion('intent', [...decisionForms])

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context)
  const form = await readDeskForm(context, request, peopleDeskForm, 'Choose Approve or Decline')
  if (!form.ok) return badInput(form.problem, `decide:${form.raw.id ?? ''}`)
  return decideAdjustment(request, context, form.value, '/ops/people')
}

export default function PeopleDesk() {
  const { q, notFound, hits, pending, me, currency } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as DeskReply | undefined
  const busy = useNavigation().state === 'submitting'
  return (
    <OpsPage title="People">
      <Form method="get" className="ops-form ops-panel" role="search" aria-label="Find a person">
        <label>
          E-mail, name, order or withdrawal number
          <input
            name="q"
            type="search"
            defaultValue={q}
            required
            minLength={2}
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
      {hits.length ? <Hits hits={hits} q={q} /> : null}
      <h2 className="ops-section-title">Adjustments waiting for a second admin</h2>
      {reply?.error ? (
        <p className="ops-error" role="alert">
          {reply.error}
        </p>
      ) : null}
      <PendingAdjustments pending={pending} me={me} currency={currency} busy={busy} />
    </OpsPage>
  )
}

const foundBy: Record<PersonHit['foundBy'], string> = {
  email: 'E-mail',
  name: 'Name',
  id: 'User id',
  order: 'Order',
  withdrawal: 'Withdrawal',
}

function Hits({ hits, q }: { hits: PersonHit[]; q: string }) {
  return (
    <section aria-labelledby="people-hits">
      <h2 id="people-hits" className="ops-section-title">
        {hits.length} people match “{q}”
      </h2>
      <DeskTable caption={`People matching ${q}`} columns={['Person', 'Name', 'Found by', 'Joined']}>
        {hits.map((h) => (
          <tr key={h.userId}>
            <td>
              <Link to={`/ops/people/${encodeURIComponent(h.userId)}`}>{h.email}</Link>
            </td>
            <td>{h.userName}</td>
            <td>{h.orderNo ? `Order ${h.orderNo}` : foundBy[h.foundBy]}</td>
            <td>{formatWhen(h.createdAt)}</td>
          </tr>
        ))}
      </DeskTable>
    </section>
  )
}

export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
