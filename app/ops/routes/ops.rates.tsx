import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { z } from 'zod'
import { catalogueApi, catalogueFields, type Rate } from '#contract/catalogue'
import { formatMoney, minorDigits } from '#contract/money'
import { reviewDeskApi, type RateChangeRequest } from '#contract/ops/review'
import { COUNTRIES, parseRate, payoutFor, rateChangePercent, type CardType } from '#contract/rates'
import { Refusals } from '#contract/refusals'
import { Link } from '~/components/link'
import { StepLine, type Plot } from '~/ops/charts'
import { stepLinePlot } from '~/ops/charts.server'
import { DecideForm } from '~/ops/decide'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { badInput, decisionForms, deskMove, readDeskForm, type DeskReply } from '~/ops/desk-move.server'
import { formatMinutes, formatWhen } from '~/ops/format'
import { redirectWithStaffToast } from '~/ops/session.server'
import { OpsPage, DeskTable } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import adminStyles from '~/ops/styles/admin-desks.css?url'
import { loaded } from '~/upstream/flow.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

const keyOf = (r: { brandId: string; country: string; cardType: string }) => `${r.brandId}:${r.country}:${r.cardType}`

/** The rates board (brand × country × type), each rate's history as a chart, and each brand's ETA. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const { email } = await requireStaff(request, context)
  const [rates, brands, waiting] = await Promise.all([
    staffFlow(request, context, catalogueApi.rates, {}).then(loaded),
    staffFlow(request, context, catalogueApi.list, {}).then(loaded),
    staffFlow(request, context, reviewDeskApi.pendingRateChanges, {}).then(loaded),
  ])
  const chosen = rates.find((r) => keyOf(r) === url.searchParams.get('history')) ?? null
  const history = chosen
    ? loaded(
        await staffFlow(request, context, reviewDeskApi.rateHistory, {
          brandId: chosen.brandId,
          country: chosen.country,
          cardType: chosen.cardType,
        }),
      )
    : []
  const now = Date.now()
  // The history's plot, drawn here so the browser loads no charting library (decision 062).
  const plot = history.length > 0 ? stepLinePlot(historyPoints(history, now)) : null
  return {
    plot,
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

const RATE = 'Rate: a positive decimal number with at most 6 decimals, like 1450.50'
const ETA = 'ETA: whole minutes, from 1 to 10080 (7 days)'

/** The desk's forms: a rate (confirmed after the check step), a brand's ETA, approve or decline a waiting rate change. */
const ratesDeskForm = z.discriminatedUnion('intent', [
  z
    .object({
      intent: z.literal('rate'),
      ...catalogueFields,
      rate: z
        .string({ required_error: RATE })
        .trim()
        .max(20, RATE)
        .refine((r) => parseRate(r) !== undefined, RATE),
      confirmed: z.literal('yes').optional(),
    })
    .strict(),
  z
    .object({
      intent: z.literal('eta'),
      brandId: catalogueFields.brandId,
      etaMinutes: z
        .string({ required_error: ETA })
        .trim()
        .regex(/^\d{1,5}$/, ETA)
        .transform(Number)
        .pipe(
          z
            .number()
            .min(1, ETA)
            .max(7 * 24 * 60, ETA),
        ),
    })
    .strict(),
  ...decisionForms,
])

/** Which of the page's forms a post was, from what it sent: its refusal shows beside that form. */
const formOf = (raw: Partial<Record<string, string>>) =>
  raw.intent === 'approve' || raw.intent === 'decline'
    ? `decide:${raw.id ?? ''}`
    : raw.intent === 'eta'
      ? `eta:${raw.brandId ?? ''}`
      : `rate:${keyOf({ brandId: raw.brandId ?? '', country: raw.country ?? '', cardType: raw.cardType ?? '' })}`

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context)
  const form = await readDeskForm(context, request, ratesDeskForm, 'Choose Save, Approve or Decline')
  if (!form.ok) return badInput(form.problem, formOf(form.raw))
  const to = new URL(request.url).pathname + new URL(request.url).search
  const move = form.value
  if (move.intent === 'approve') {
    return deskMove(request, context, {
      endpoint: reviewDeskApi.approveRateChange,
      input: { id: move.id },
      form: `decide:${move.id}`,
      to,
      done: (r) => `${r.brandName} ${r.country} ${r.cardType}: rate ${r.rate} is in force`,
    })
  }
  if (move.intent === 'decline') {
    return deskMove(request, context, {
      endpoint: reviewDeskApi.declineRateChange,
      input: { id: move.id },
      form: `decide:${move.id}`,
      to,
      done: (r) => `${r.brandName} ${r.country} ${r.cardType}: ${r.rate} declined; the rate stays ${r.before}`,
    })
  }
  if (move.intent === 'eta') {
    return deskMove(request, context, {
      endpoint: reviewDeskApi.setEta,
      input: { brandId: move.brandId, etaMinutes: move.etaMinutes },
      form: `eta:${move.brandId}`,
      to,
      done: (d) => `ETA of ${d.brandId} is now ${formatMinutes(d.etaMinutes)}`,
    })
  }
  const { rate } = move
  const target = { brandId: move.brandId, country: move.country, cardType: move.cardType }
  const result = await staffFlow(request, context, reviewDeskApi.setRate, { ...target, rate, confirmed: move.confirmed === 'yes' })
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
          <input type="hidden" name="intent" value="rate" />
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
        <input type="hidden" name="intent" value="rate" />
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
              <DecideForm
                id={w.id}
                maker={w.maker}
                me={me}
                busy={busy}
                label={`Decide rate change ${i + 1}: ${w.rate} for ${w.brandName} ${w.country} ${w.cardType}`}
              />
            </td>
          </tr>
        ))}
      </DeskTable>
    </>
  )
}

type RateSet = { rate: string; setAt: number; setBy: string }

/** A rate's history (newest first) as the step line's points, oldest first; a rate set once holds until now. */
function historyPoints(history: RateSet[], now: number) {
  const points = [...history].reverse().map((h) => ({ at: h.setAt, value: (parseRate(h.rate) ?? 0) / 1_000_000 }))
  return points.length === 1 ? [points[0]!, { at: now, value: points[0]!.value }] : points
}

function History({ chosen, history, plot }: { chosen: Rate; history: RateSet[]; plot: Plot | null }) {
  const oldestFirst = [...history].reverse()
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
      {plot ? (
        <StepLine
          title={`${name}: rate over time (${chosen.payoutCurrency} per ${chosen.currency})`}
          summary={`${history.length} rates set; now ${chosen.rate}, first ${oldestFirst[0]?.rate}.`}
          table={table}
          plot={plot}
        />
      ) : (
        <p>No history yet.</p>
      )}
    </section>
  )
}

export default function RatesDesk() {
  const { plot, rates, brands, chosen, history, waiting, me } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>() as DeskReply | { check: RateCheck } | undefined
  const reply = answer && 'error' in answer ? answer : undefined
  const busy = useNavigation().state === 'submitting'
  // A refusal of a form this page does not show (a stale page, a hand-made post): at the top.
  const placed =
    rates.some((r) => reply?.form === `rate:${keyOf(r)}`) ||
    brands.some((b) => reply?.form === `eta:${b.brandId}`) ||
    (waiting.length > 0 && reply?.form.startsWith('decide:'))
  return (
    <OpsPage title="Rates and ETAs">
      {answer && 'check' in answer ? <RateCheckStep check={answer.check} busy={busy} /> : null}
      {reply && !placed ? (
        <p className="ops-error" role="alert">
          {reply.error}
        </p>
      ) : null}
      {waiting.length > 0 ? <WaitingRates waiting={waiting} me={me} reply={reply} busy={busy} /> : null}
      {chosen ? <History chosen={chosen} history={history} plot={plot} /> : null}
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
    </OpsPage>
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
