import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { catalogueApi, COUNTRIES, parseRate, payoutFor, rateChangePercent, type CardType, type Rate } from '#contract/catalogue'
import { formatMoney, minorDigits } from '#contract/money'
import { reviewDeskApi as adminOrdersApi, type RateChangeRequest } from '#contract/ops/review'
import { Refusals } from '#contract/refusals'
import { Link } from '~/components/link'
import { StepLine } from '~/ops/charts'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { badInput, deskMove, field, type DeskReply } from '~/ops/desk-move.server'
import { formatMinutes, formatWhen } from '~/ops/format'
import { redirectWithStaffToast } from '~/ops/session.server'
import { ConsolePage, DeskTable } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import adminStyles from '~/ops/styles/admin-desks.css?url'
import { loaded } from '~/upstream/flow.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

const keyOf = (r: { brandId: string; country: string; cardType: string }) => `${r.brandId}:${r.country}:${r.cardType}`

/** The rates board (brand × country × type), each rate's history as a chart, and each brand's ETA. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const { email } = await requireStaff(request, 'admin')
  const [rates, brands, waiting] = await Promise.all([
    staffFlow(request, context, catalogueApi.rates, {}).then(loaded),
    staffFlow(request, context, catalogueApi.list, {}).then(loaded),
    staffFlow(request, context, adminOrdersApi.pendingRateChanges, {}).then(loaded),
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
  return {
    now: Date.now(),
    rates,
    brands: brands.map((b) => ({ brandId: b.brandId, name: b.name, etaMinutes: b.etaMinutes })),
    chosen,
    history,
    waiting,
    me: email,
  }
}

/**
 * The confirmation step of a rate far from the one in force (decision 041): old → new, the change,
 * and what a 100 card pays now and would pay. The api decides when it is needed (RATE_CONFIRM_CHANGE).
 */
type RateCheck = {
  brandId: string
  brandName: string
  country: string
  cardType: CardType
  before: string
  rate: string
  changePercent: number
  face: string
  payoutBefore: string
  payoutAfter: string
}

function rateCheck(current: Rate, rate: string): RateCheck {
  const face = 100 * 10 ** minorDigits(current.currency)
  const pays = (r: string) => formatMoney(payoutFor(face, r, current.currency, current.payoutCurrency), current.payoutCurrency)
  return {
    brandId: current.brandId,
    brandName: current.brandName,
    country: current.country,
    cardType: current.cardType,
    before: current.rate,
    rate,
    changePercent: rateChangePercent(rate, current.rate) ?? 0,
    face: formatMoney(face, current.currency),
    payoutBefore: pays(current.rate),
    payoutAfter: pays(rate),
  }
}

const percent = (p: number) => `${p > 0 ? '+' : ''}${p.toFixed(2)} %`

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, 'admin')
  const form = await request.formData()
  const to = new URL(request.url).pathname + new URL(request.url).search
  const intent = field(form, 'intent')
  if (intent === 'approve' || intent === 'decline') {
    const id = field(form, 'id')
    return intent === 'approve'
      ? deskMove(request, context, {
          endpoint: adminOrdersApi.approveRateChange,
          input: { id },
          form: `decide:${id}`,
          to,
          done: (r) => `${r.brandName} ${r.country} ${r.cardType}: rate ${r.rate} is in force`,
        })
      : deskMove(request, context, {
          endpoint: adminOrdersApi.declineRateChange,
          input: { id },
          form: `decide:${id}`,
          to,
          done: (r) => `${r.brandName} ${r.country} ${r.cardType}: ${r.rate} declined; the rate stays ${r.before}`,
        })
  }
  if (intent === 'eta') {
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
  const result = await staffFlow(request, context, adminOrdersApi.setRate, {
    ...target,
    rate,
    confirmed: field(form, 'confirmed') === 'yes',
  })
  if (!result.success && result.code === Refusals.RATE_CHANGE_UNCONFIRMED.code) {
    const [current] = loaded(await staffFlow(request, context, catalogueApi.rates, target))
    if (current) return { check: rateCheck(current, rate) }
  }
  if (!result.success) return data<DeskReply>({ error: result.msg, form: `rate:${keyOf(target)}` }, { status: 400 })
  const r = result.data
  const message =
    'type' in r
      ? `${r.brandName} ${r.country} ${r.cardType}: ${r.before} → ${r.rate} (${percent(r.changePercent)}) waits for a second admin`
      : `${r.brandName} ${r.country} ${r.cardType}: rate ${r.rate}`
  return redirectWithStaffToast(request, to, { type: 'success', message })
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

/** The step before a rate far from the one in force is sent again, confirmed; Cancel changes nothing. */
function RateCheckStep({ check, busy }: { check: RateCheck; busy: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null)
  // With JavaScript the step opens in place: the keyboard and a screen reader land on it.
  useEffect(() => heading.current?.focus(), [check])
  const name = `${check.brandName} ${check.country} ${check.cardType === 'ecode' ? 'e-code' : 'physical'}`
  return (
    <section className="ops-rate-check" aria-labelledby="rate-check-title" role="alertdialog">
      <h2 id="rate-check-title" ref={heading} tabIndex={-1}>
        Check this rate: {name}
      </h2>
      <dl>
        <dt>Rate</dt>
        <dd>
          {check.before} → {check.rate}
        </dd>
        <dt>Change</dt>
        <dd>{percent(check.changePercent)}</dd>
        <dt>A {check.face} card pays</dt>
        <dd>
          {check.payoutAfter} (now {check.payoutBefore})
        </dd>
      </dl>
      <p className="ops-muted">
        A change this large goes live at once only within the approval line; beyond it, it waits for a second admin.
      </p>
      <Form method="post" className="ops-form ops-form--row">
        <input type="hidden" name="brandId" value={check.brandId} />
        <input type="hidden" name="country" value={check.country} />
        <input type="hidden" name="cardType" value={check.cardType} />
        <input type="hidden" name="rate" value={check.rate} />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" className="ops-button ops-button--danger" disabled={busy}>
          Confirm {check.rate}
        </button>
        <Link to="/ops/rates" className="ops-button ops-button--ghost">
          Cancel
        </Link>
      </Form>
    </section>
  )
}

/** Rate changes waiting for a second admin: Approve and Decline only for an admin who did not ask. */
function WaitingRates({
  waiting,
  me,
  reply,
  busy,
}: {
  waiting: RateChangeRequest[]
  me: string
  reply: DeskReply | undefined
  busy: boolean
}) {
  return (
    <>
      <h2 className="ops-section-title">Rate changes waiting for a second admin</h2>
      {reply?.form.startsWith('decide:') ? (
        <p className="ops-error" role="alert">
          {reply.error}
        </p>
      ) : null}
      <DeskTable
        caption="Rate changes waiting for a second admin"
        columns={[
          'Asked',
          'Card',
          { label: 'Now', num: true },
          { label: 'Asked for', num: true },
          { label: 'Change', num: true },
          'Asked by',
          'Decide',
        ]}
      >
        {waiting.map((w, i) => (
          <tr key={w.id}>
            <td>{formatWhen(w.createdAt)}</td>
            <td>
              {w.brandName} {w.country} {w.cardType === 'ecode' ? 'e-code' : 'physical'}
            </td>
            <td className="ops-num">{w.before}</td>
            <td className="ops-num">{w.rate}</td>
            <td className="ops-num">{percent(w.changePercent)}</td>
            <td>{w.maker.replace(/^staff:/, '')}</td>
            <td>
              {w.maker === `staff:${me}` ? (
                <span className="ops-muted">Another admin must approve</span>
              ) : (
                <Form
                  method="post"
                  className="ops-form"
                  aria-label={`Decide rate change ${i + 1}: ${w.rate} for ${w.brandName} ${w.country} ${w.cardType}`}
                >
                  <input type="hidden" name="id" value={w.id} />
                  <button type="submit" name="intent" value="approve" className="ops-button ops-button--primary" disabled={busy}>
                    Approve
                  </button>
                  <button type="submit" name="intent" value="decline" className="ops-button ops-button--danger" disabled={busy}>
                    Decline
                  </button>
                </Form>
              )}
            </td>
          </tr>
        ))}
      </DeskTable>
    </>
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
  const { now, rates, brands, chosen, history, waiting, me } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>() as DeskReply | { check: RateCheck } | undefined
  const reply = answer && 'error' in answer ? answer : undefined
  const busy = useNavigation().state === 'submitting'
  return (
    <ConsolePage title="Rates and ETAs">
      {answer && 'check' in answer ? <RateCheckStep check={answer.check} busy={busy} /> : null}
      {waiting.length > 0 ? <WaitingRates waiting={waiting} me={me} reply={reply} busy={busy} /> : null}
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
