import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigate, useNavigation } from '@remix-run/react'
import { useRef, useState } from 'react'
import { formatMoney } from '#contract/money'
import { reviewDeskApi, type DeskOrder, type OrderSignals } from '#contract/ops/review'
import { Refusals } from '#contract/refusals'
import { REJECTION_REASONS, reasonCodes } from '#contract/rejection-reasons'
import { Link } from '~/components/link'
import { useHydrated } from '~/components/ui'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { formatMinutes, useShortcuts } from '~/ops/review'
import { decide, type DecisionReply } from '~/ops/review.server'
import { OpsPage } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import reviewStyles from '~/ops/styles/review.css?url'
import { loaded } from '~/upstream/flow.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: reviewStyles }]

/** The order without its e-codes (a reveal is asked for and audited), the seller's signals, the queue around it. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { email } = await requireStaff(request, context)
  const id = params.orderId ?? ''
  const [order, signals, queue] = await Promise.all([
    staffFlow(request, context, reviewDeskApi.detail, { id, codes: 'hide' }),
    staffFlow(request, context, reviewDeskApi.signals, { id }),
    staffFlow(request, context, reviewDeskApi.queue, { pageNum: 1, pageSize: 50 }),
  ])
  if (!order.success && order.status === 400) throw data({ message: Refusals.ORDER_NOT_FOUND.msg }, { status: 404 })
  return data(
    {
      order: loaded(order, [Refusals.ORDER_NOT_FOUND.code]),
      signals: signals.success ? signals.data : null,
      me: `staff:${email}`,
      now: Date.now(),
      queueIds: queue.success ? queue.data.list.map((o) => o.id) : [],
    },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context)
  return decide(request, context, staff, params.orderId ?? '')
}

const time = (ms: number) => new Date(ms).toISOString().slice(11, 16)

function Photo({ id, label }: { id: string; label: string }) {
  const hydrated = useHydrated()
  const [zoom, setZoom] = useState(1)
  const [turn, setTurn] = useState(0)
  const src = `/ops/photo/${id}`
  return (
    <figure className="review-photo" data-zoom={zoom} data-turn={turn}>
      <div className="review-photo__frame">
        <a href={src} target="_blank" rel="noreferrer" aria-label={`${label}: open the full photo in a new page`}>
          <img src={src} alt={label} style={{ transform: `scale(${zoom}) rotate(${turn}deg)` }} />
        </a>
      </div>
      {hydrated ? (
        <figcaption className="review-photo__tools">
          <button type="button" className="ops-button ops-button--ghost" onClick={() => setZoom((z) => Math.min(4, z + 0.5))}>
            Zoom in<span className="review-visually-hidden"> {label}</span>
          </button>
          <button type="button" className="ops-button ops-button--ghost" onClick={() => setZoom((z) => Math.max(1, z - 0.5))}>
            Zoom out<span className="review-visually-hidden"> {label}</span>
          </button>
          <button type="button" className="ops-button ops-button--ghost" onClick={() => setTurn((t) => (t + 90) % 360)}>
            Rotate<span className="review-visually-hidden"> {label}</span>
          </button>
          <span className="review-photo__state">
            {Math.round(zoom * 100)}% · {turn}°
          </span>
        </figcaption>
      ) : (
        <figcaption className="review-caption">Open the photo to see it full size.</figcaption>
      )}
    </figure>
  )
}

function Cards({ order, codes }: { order: DeskOrder; codes?: Record<string, string[]> }) {
  return (
    <section aria-label="Cards" className="review-cards">
      {order.cards.map((c) => (
        <article key={c.cardId} className="ops-panel review-card">
          <h2 className="review-card__title">
            Card {c.position} · {formatMoney(c.faceValue, order.currency)} face · quoted {formatMoney(c.quotedPayout, order.payoutCurrency)}
          </h2>
          {c.maskedCodes.length ? (
            <p className="review-codes">
              Code:{' '}
              {codes?.[c.cardId]?.length ? (
                <code className="review-code">{codes[c.cardId].join(' · ')}</code>
              ) : (
                <span>{c.maskedCodes.join(' · ')}</span>
              )}
            </p>
          ) : null}
          <div className="review-photos">
            {c.imageIds.map((img, i) => (
              <Photo key={img} id={img} label={`Card ${c.position}, photo ${i + 1}`} />
            ))}
          </div>
        </article>
      ))}
    </section>
  )
}

type Match = { key: string; summary: string; orderId: string | null; lines: string[] }

/**
 * The signals, one line each kind and other order: eight photos like eight of another account's
 * order are one line ("8 photos match another account's order CL-…"), their details under it.
 */
function groupSignals(signals: OrderSignals, order: DeskOrder): Match[] {
  const position = new Map(order.cards.map((c) => [c.cardId, c.position]))
  const card = (cardId: string) => `Card ${position.get(cardId) ?? '?'}`
  const photoOf = new Map(order.cards.flatMap((c) => c.imageIds.map((id, i) => [id, `Card ${c.position}, photo ${i + 1}`] as const)))
  const byOther = new Map<string, { email: string; orderNo: string | null; orderId: string | null; photos: Set<string>; lines: string[] }>()
  for (const m of signals.samePhoto) {
    const key = `${m.email}\n${m.orderNo ?? ''}`
    const group = byOther.get(key) ?? { email: m.email, orderNo: m.orderNo, orderId: m.orderId, photos: new Set(), lines: [] }
    group.photos.add(m.imageId)
    const which = photoOf.get(m.imageId) ?? card(m.cardId)
    group.lines.push(`${which}: ${m.distance === 0 ? 'the same picture' : `${m.distance} bits apart`}`)
    byOther.set(key, group)
  }
  const photos = [...byOther.entries()].map(([key, g]) => {
    const n = g.photos.size
    const what = `${n} ${n === 1 ? 'photo matches' : 'photos match'}`
    return {
      key: `photo ${key}`,
      summary: g.orderNo ? `${what} another account’s order ${g.orderNo} (${g.email})` : `${what} a photo of ${g.email}`,
      orderId: g.orderId,
      lines: g.lines,
    }
  })
  const codesByOrder = new Map<string, { email: string; orderNo: string; orderId: string; cards: string[] }>()
  for (const m of signals.sameCode) {
    const group = codesByOrder.get(m.orderId) ?? { email: m.email, orderNo: m.orderNo, orderId: m.orderId, cards: [] }
    group.cards.push(card(m.cardId))
    codesByOrder.set(m.orderId, group)
  }
  const codes = [...codesByOrder.values()].map((g) => ({
    key: `code ${g.orderId}`,
    summary: `${g.cards.length} ${g.cards.length === 1 ? 'e-code was' : 'e-codes were'} sold before in order ${g.orderNo} (${g.email})`,
    orderId: g.orderId,
    lines: g.cards,
  }))
  const banks = signals.sharedBank.map((b) => ({
    key: `bank ${b.bankCode} ${b.last4}`,
    summary: `Bank account ••${b.last4} (bank ${b.bankCode}) is also saved by ${b.emails.length} other ${b.emails.length === 1 ? 'account' : 'accounts'}`,
    orderId: null,
    lines: b.emails,
  }))
  const young = signals.newAccountLargeSale
    ? [{ key: 'young', summary: `A new account (${signals.seller.accountAgeDays} days) selling a large amount`, orderId: null, lines: [] }]
    : []
  return [...photos, ...codes, ...banks, ...young]
}

function Signals({ signals, order }: { signals: OrderSignals | null; order: DeskOrder }) {
  if (!signals) return <p className="ops-panel">The seller&rsquo;s signals could not be loaded.</p>
  const s = signals.seller
  const warnings = groupSignals(signals, order)
  return (
    <section className="ops-panel review-signals" aria-labelledby="review-seller">
      <h2 id="review-seller" className="review-side__title">
        Seller
      </h2>
      <dl className="review-facts">
        <dt>E-mail</dt>
        <dd>{s.email}</dd>
        <dt>Account age</dt>
        <dd>{s.accountAgeDays} days</dd>
        <dt>Completed</dt>
        <dd>{s.completed}</dd>
        <dt>Rejected</dt>
        <dd>{s.rejected}</dd>
        <dt>First order</dt>
        <dd>{s.firstOrder ? 'Yes' : 'No'}</dd>
      </dl>
      {warnings.length ? (
        <ul className="review-warnings" aria-label="Signals">
          {warnings.map((w) => (
            <li key={w.key}>
              {w.lines.length ? (
                <details className="review-warning">
                  <summary>{w.summary}</summary>
                  <ul className="review-warning__lines">
                    {w.lines.map((line, i) => (
                      <li key={i}>{line}</li>
                    ))}
                  </ul>
                  {w.orderId ? <Link to={`/ops/review/${encodeURIComponent(w.orderId)}`}>Open that order</Link> : null}
                </details>
              ) : (
                w.summary
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="review-caption">No signal: no photo, code or bank account seen on another account.</p>
      )}
    </section>
  )
}

function ErrorLine({ reply, intent }: { reply: DecisionReply | undefined; intent: string }) {
  return reply?.intent === intent && reply.error ? (
    <p className="review-problem" role="alert">
      {reply.error}
    </p>
  ) : null
}

function ReasonSelect({ name, label, id }: { name: string; label: string; id: string }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue="">
        <option value="" disabled>
          Choose a reason
        </option>
        {reasonCodes.map((c) => (
          <option key={c} value={c}>
            {REJECTION_REASONS[c]}
          </option>
        ))}
      </select>
    </>
  )
}

function Decisions({ order, reply, refs }: { order: DeskOrder; reply?: DecisionReply; refs: DecisionRefs }) {
  const busy = useNavigation().state !== 'idle'
  return (
    <section className="review-decide" aria-label="Decide">
      <Form method="post" className="ops-panel review-form" ref={refs.complete}>
        <h2 className="review-side__title">Complete</h2>
        <p className="review-caption">Pays {formatMoney(order.quotedPayout, order.payoutCurrency)}, the full quote, once.</p>
        <label htmlFor="complete-note">Note to the seller (optional)</label>
        <input id="complete-note" name="note" maxLength={500} />
        <ErrorLine reply={reply} intent="complete" />
        <button type="submit" name="intent" value="complete" className="ops-button ops-button--primary" disabled={busy}>
          Complete <kbd>a</kbd>
        </button>
      </Form>
      <Form method="post" className="ops-panel review-form">
        <h2 className="review-side__title">Propose a lower payout</h2>
        {order.cards.map((c) => (
          <fieldset key={c.cardId} className="review-fieldset">
            <legend>
              Card {c.position} (quoted {formatMoney(c.quotedPayout, order.payoutCurrency)})
            </legend>
            <label htmlFor={`payout-${c.cardId}`}>New payout ({order.payoutCurrency})</label>
            <input id={`payout-${c.cardId}`} name={`payout-${c.cardId}`} inputMode="decimal" autoComplete="off" />
            <ReasonSelect id={`reason-${c.cardId}`} name={`reason-${c.cardId}`} label="Reason for this card" />
          </fieldset>
        ))}
        <label htmlFor="propose-reason">What the seller reads</label>
        <textarea id="propose-reason" name="reason" rows={2} maxLength={500} />
        <ErrorLine reply={reply} intent="propose" />
        <button type="submit" name="intent" value="propose" className="ops-button" disabled={busy}>
          Propose
        </button>
      </Form>
      <Form method="post" encType="multipart/form-data" className="ops-panel review-form" id="review-reject">
        <h2 className="review-side__title">Reject</h2>
        <ReasonSelect id="reject-reason" name="reasonCode" label="Reason" />
        <label htmlFor="reject-note">Note to the seller</label>
        <textarea id="reject-note" name="note" rows={2} maxLength={500} />
        <label htmlFor="reject-proof">Proof photo (optional)</label>
        <input id="reject-proof" name="proof" type="file" accept="image/jpeg,image/png,image/webp" />
        <ErrorLine reply={reply} intent="reject" />
        <button type="submit" name="intent" value="reject" className="ops-button ops-button--danger" disabled={busy}>
          Reject
        </button>
      </Form>
    </section>
  )
}

type DecisionRefs = { complete: React.RefObject<HTMLFormElement> }

function ClaimPanel({
  order,
  me,
  now,
  reply,
  claimRef,
}: {
  order: DeskOrder
  me: string
  now: number
  reply?: DecisionReply
  claimRef: React.RefObject<HTMLFormElement>
}) {
  const live = order.status === 'reviewing' && (order.claimExpiresAt ?? 0) > now
  const mine = live && order.claimedBy === me
  const open = order.status === 'pending' || order.status === 'reviewing'
  return (
    <section className="ops-panel review-claim" aria-label="Claim">
      {mine ? (
        <p>
          <strong>You hold this order</strong> until {time(order.claimExpiresAt ?? 0)} UTC.
        </p>
      ) : live ? (
        <p className="review-held">
          <strong>{order.claimedBy?.replace(/^staff:/, '')}</strong> holds this order until {time(order.claimExpiresAt ?? 0)} UTC.
        </p>
      ) : open ? (
        <p>Nobody holds this order.</p>
      ) : (
        <p>This order is {order.status}.</p>
      )}
      {open ? (
        <Form method="post" ref={claimRef} className="review-inline">
          <button type="submit" name="intent" value="claim" className="ops-button ops-button--primary">
            {mine ? 'Renew claim' : 'Claim'} <kbd>c</kbd>
          </button>
        </Form>
      ) : null}
      {mine && order.cards.some((c) => c.maskedCodes.length) ? (
        <Form method="post" className="review-inline">
          <button type="submit" name="intent" value="reveal" className="ops-button">
            Reveal codes <kbd>e</kbd>
          </button>
        </Form>
      ) : null}
      <ErrorLine reply={reply} intent="claim" />
      <ErrorLine reply={reply} intent="reveal" />
    </section>
  )
}

export default function ReviewOrder() {
  const { order, signals, me, now, queueIds } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as DecisionReply | undefined
  const navigate = useNavigate()
  const claimRef = useRef<HTMLFormElement>(null)
  const complete = useRef<HTMLFormElement>(null)
  const at = queueIds.indexOf(order.id)
  const next = at >= 0 ? queueIds[at + 1] : queueIds[0]
  const previous = at > 0 ? queueIds[at - 1] : undefined
  const mine = order.status === 'reviewing' && order.claimedBy === me && (order.claimExpiresAt ?? 0) > now
  const submit = (form: HTMLFormElement | null, intent: string) =>
    form?.requestSubmit(form.querySelector<HTMLButtonElement>(`button[value="${intent}"]`))
  useShortcuts({
    c: () => submit(claimRef.current, 'claim'),
    e: () => submit(document.querySelector<HTMLFormElement>('button[value="reveal"]')?.form ?? null, 'reveal'),
    a: mine ? () => submit(complete.current, 'complete') : undefined,
    r: mine ? () => document.getElementById('reject-reason')?.focus() : undefined,
    j: next ? () => navigate(`/ops/review/${next}`) : undefined,
    k: previous ? () => navigate(`/ops/review/${previous}`) : undefined,
  })
  const codes = reply?.intent === 'reveal' ? reply.codes : undefined
  return (
    <OpsPage
      title={`Order ${order.orderNo}`}
      actions={
        <Link to="/ops/review" className="ops-button ops-button--ghost">
          Back to the queue
        </Link>
      }
    >
      <p className="review-summary">
        {order.brandName} · {order.country} · {order.cardType === 'ecode' ? 'E-code' : 'Physical'} · rate {order.quotedRate} · payout{' '}
        <strong>{formatMoney(order.quotedPayout, order.payoutCurrency)}</strong> · waited{' '}
        {formatMinutes(Math.floor((now - order.createdAt) / 60_000))}
        {order.queue ? ` of ${formatMinutes(order.queue.etaMinutes)}` : ''}
      </p>
      <p className="review-help">
        Keys: <kbd>c</kbd> claim · <kbd>e</kbd> reveal · <kbd>a</kbd> complete · <kbd>r</kbd> reject · <kbd>j</kbd>/<kbd>k</kbd>{' '}
        next/previous
      </p>
      <div className="review-layout">
        <Cards order={order} codes={codes} />
        <aside className="review-side">
          <ClaimPanel order={order} me={me} now={now} reply={reply} claimRef={claimRef} />
          <Signals signals={signals} order={order} />
          {mine ? <Decisions order={order} reply={reply} refs={{ complete }} /> : null}
        </aside>
      </div>
    </OpsPage>
  )
}

// A role that cannot use this desk reads "Not your desk", not the customers' error page.
export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
