import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { adminOrdersApi } from '#contract/admin-orders'
import { catalogueApi, COUNTRIES, parseRate, type CardType, type Rate } from '#contract/catalogue'
import { ConsolePage, DeskTable } from '~/components/console'
import { StepLine } from '~/components/console-charts'
import { DeskErrorBoundary } from '~/components/console-desk-error'
import { Link } from '~/components/link'
import adminStyles from '~/styles/screens/console-admin.css'
import { badInput, deskMove, field, type DeskReply } from '~/upstream/admin-desk.server'
import { loaded } from '~/upstream/flow.server'
import { requireStaff, staffFlow } from '~/upstream/staff.server'
import { formatMinutes, formatWhen } from '~/utils/console-format'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

const keyOf = (r: { brandId: string; country: string; cardType: string }) => `${r.brandId}:${r.country}:${r.cardType}`

/** The rates board (brand × country × type), each rate's history as a chart, and each brand's ETA. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, 'admin')
  const url = new URL(request.url)
  const [rates, brands] = await Promise.all([
    staffFlow(request, context, catalogueApi.rates, {}).then(loaded),
    staffFlow(request, context, catalogueApi.list, {}).then(loaded),
  ])
  const chosen = rates.find((r) => keyOf(r) === url.searchParams.get('history')) ?? null
  const history = chosen
    ? loaded(
        await staffFlow(request, context, adminOrdersApi.rateHistory, {
          brandId: chosen.brandId,
          country: chosen.country,
          cardType: chosen.cardType,
        }),
      )
    : []
  return json({
    now: Date.now(),
    rates,
    brands: brands.map((b) => ({ brandId: b.brandId, name: b.name, etaMinutes: b.etaMinutes })),
    chosen,
    history,
  })
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, 'admin')
  const form = await request.formData()
  const to = new URL(request.url).pathname + new URL(request.url).search
  if (field(form, 'intent') === 'eta') {
    const brandId = field(form, 'brandId')
    const etaMinutes = Number(field(form, 'etaMinutes'))
    if (!Number.isInteger(etaMinutes) || etaMinutes < 1 || etaMinutes > 7 * 24 * 60) {
      return badInput('ETA: whole minutes, from 1 to 10080 (7 days)', `eta:${brandId}`)
    }
    return deskMove(request, context, {
      endpoint: adminOrdersApi.setEta,
      input: { brandId, etaMinutes },
      form: `eta:${brandId}`,
      to,
      done: (d) => `ETA of ${d.brandId} is now ${formatMinutes(d.etaMinutes)}`,
    })
  }
  const target = { brandId: field(form, 'brandId'), country: field(form, 'country'), cardType: field(form, 'cardType') as CardType }
  const rate = field(form, 'rate')
  if (parseRate(rate) === undefined)
    return badInput('Rate: a positive decimal number with at most 6 decimals, like 1450.50', `rate:${keyOf(target)}`)
  return deskMove(request, context, {
    endpoint: adminOrdersApi.setRate,
    input: { ...target, rate },
    form: `rate:${keyOf(target)}`,
    to,
    done: (r) => `${r.brandName} ${r.country} ${r.cardType}: rate ${r.rate}`,
  })
}

function RateRow({ r, reply, busy }: { r: Rate; reply: DeskReply | undefined; busy: boolean }) {
  const form = `rate:${keyOf(r)}`
  const id = `rate-${keyOf(r).replace(/:/g, '-')}`
  return (
    <tr>
      <th scope="row">{r.brandName}</th>
      <td>{COUNTRIES[r.country as keyof typeof COUNTRIES]?.name ?? r.country}</td>
      <td>{r.cardType === 'ecode' ? 'E-code' : 'Physical'}</td>
      <td className="ops-num">
        {r.rate} {r.payoutCurrency}/{r.currency}
      </td>
      <td>{formatWhen(r.setAt)}</td>
      <td>
        <Form method="post" className="ops-form ops-form--row" aria-label={`New rate for ${r.brandName} ${r.country} ${r.cardType}`}>
          <input type="hidden" name="brandId" value={r.brandId} />
          <input type="hidden" name="country" value={r.country} />
          <input type="hidden" name="cardType" value={r.cardType} />
          <label className="cl-visually-hidden" htmlFor={id}>
            New rate
          </label>
          <input
            id={id}
            name="rate"
            inputMode="decimal"
            defaultValue={r.rate}
            required
            aria-describedby={reply?.form === form ? `${id}-error` : undefined}
          />
          <button type="submit" className="ops-button" disabled={busy}>
            Save
          </button>
        </Form>
        {reply?.form === form ? (
          <p id={`${id}-error`} className="ops-error" role="alert">
            {reply.error}
          </p>
        ) : null}
      </td>
      <td>
        <Link to={`?history=${encodeURIComponent(keyOf(r))}#history`}>History</Link>
      </td>
    </tr>
  )
}

function History({ chosen, history, now }: { chosen: Rate; now: number; history: { rate: string; setAt: number; setBy: string }[] }) {
  const oldestFirst = [...history].reverse()
  const points = oldestFirst.map((h) => ({ at: h.setAt, value: (parseRate(h.rate) ?? 0) / 1_000_000 }))
  const name = `${chosen.brandName} ${chosen.country} ${chosen.cardType}`
  const table = (
    <table className="ops-table">
      <thead>
        <tr>
          <th scope="col">Set</th>
          <th scope="col" className="ops-num">
            Rate
          </th>
          <th scope="col">By</th>
        </tr>
      </thead>
      <tbody>
        {history.map((h) => (
          <tr key={`${h.setAt}${h.rate}`}>
            <td>{formatWhen(h.setAt)}</td>
            <td className="ops-num">{h.rate}</td>
            <td>{h.setBy}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
  return (
    <section id="history" aria-label={`Rate history of ${name}`}>
      <h2 className="ops-section-title">Rate history: {name}</h2>
      {points.length > 0 ? (
        <StepLine
          title={`${name}: rate over time (${chosen.payoutCurrency} per ${chosen.currency})`}
          summary={`${history.length} rates set; now ${chosen.rate}, first ${oldestFirst[0]?.rate}.`}
          points={points.length === 1 ? [points[0]!, { at: now, value: points[0]!.value }] : points}
          table={table}
        />
      ) : (
        <p>No history yet.</p>
      )}
    </section>
  )
}

export default function RatesDesk() {
  const { now, rates, brands, chosen, history } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as DeskReply | undefined
  const busy = useNavigation().state === 'submitting'
  return (
    <ConsolePage title="Rates and ETAs">
      {chosen ? <History chosen={chosen} history={history} now={now} /> : null}
      <DeskTable
        caption="Rates board: brand, country and card type"
        columns={['Brand', 'Country', 'Type', { label: 'Rate', num: true }, 'Set', 'New rate', 'History']}
      >
        {rates.map((r) => (
          <RateRow key={keyOf(r)} r={r} reply={reply} busy={busy} />
        ))}
      </DeskTable>
      <h2 className="ops-section-title">Review ETA per brand</h2>
      <EtaTable brands={brands} reply={reply} busy={busy} />
    </ConsolePage>
  )
}

function EtaTable({
  brands,
  reply,
  busy,
}: {
  brands: { brandId: string; name: string; etaMinutes: number }[]
  reply: DeskReply | undefined
  busy: boolean
}) {
  return (
    <table className="ops-table">
      <thead>
        <tr>
          <th scope="col">Brand</th>
          <th scope="col">ETA now</th>
          <th scope="col">New ETA (minutes)</th>
        </tr>
      </thead>
      <tbody>
        {brands.map((b) => (
          <tr key={b.brandId}>
            <th scope="row">{b.name}</th>
            <td>{formatMinutes(b.etaMinutes)}</td>
            <td>
              <Form method="post" className="ops-form ops-form--row" aria-label={`New ETA for ${b.name}`}>
                <input type="hidden" name="intent" value="eta" />
                <input type="hidden" name="brandId" value={b.brandId} />
                <label className="cl-visually-hidden" htmlFor={`eta-${b.brandId}`}>
                  ETA of {b.name} in minutes
                </label>
                <input id={`eta-${b.brandId}`} name="etaMinutes" type="number" min={1} max={10080} defaultValue={b.etaMinutes} required />
                <button type="submit" className="ops-button" disabled={busy}>
                  Save
                </button>
              </Form>
              {reply?.form === `eta:${b.brandId}` ? (
                <p className="ops-error" role="alert">
                  {reply.error}
                </p>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
