import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { z } from 'zod'
import { formatMoney, parseAmount } from '#contract/money'
import { opsMoneyApi } from '#contract/ops/money'
import { peopleDeskApi } from '#contract/ops/people'
import { Refusals } from '#contract/refusals'
import { newRequestId, requestIdField } from '#contract/withdrawals'
import { Link } from '~/components/link'
import { PendingAdjustments } from '~/ops/adjustments'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { decideAdjustment, decisionForms, INCOMPLETE, readDeskForm, type DeskReply } from '~/ops/desk-move.server'
import { formatWhen } from '~/ops/format'
import { redirectWithStaffToast } from '~/ops/session.server'
import { OpsPage } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import adminStyles from '~/ops/styles/admin-desks.css?url'
import { loaded } from '~/upstream/flow.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

const PAGE_SIZE = 20

/** One person: profile, wallet, ledger (paged), orders, withdrawals, bank accounts, sessions; adjust the wallet. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { email } = await requireStaff(request, context)
  const userId = params.userId ?? ''
  const pageNum = Math.max(1, Math.min(100_000, Number(new URL(request.url).searchParams.get('page')) || 1))
  const person = loaded(await staffFlow(request, context, opsMoneyApi.user, { id: userId }), [Refusals.USER_NOT_FOUND.code])
  const [ledger, pending] = await Promise.all([
    staffFlow(request, context, peopleDeskApi.userLedger, { userId, pageNum, pageSize: PAGE_SIZE }).then(loaded),
    staffFlow(request, context, opsMoneyApi.pendingAdjustments, {}).then(loaded),
  ])
  return { person, ledger, pending: pending.filter((p) => p.userId === userId), me: email, requestId: newRequestId() }
}

const AMOUNT = 'Amount: a positive amount like 1500 or 1500.50; choose credit or debit'
const REASON = 'Reason: say why in a few words, for the audit log'

/** The adjust form, and approve or decline of this person's waiting adjustments. */
const personDeskForm = z.discriminatedUnion('intent', [
  z
    .object({
      intent: z.literal('adjust'),
      currency: z.string({ required_error: INCOMPLETE }).regex(/^[A-Z]{3}$/, INCOMPLETE),
      requestId: z.string({ required_error: INCOMPLETE }).refine((v) => requestIdField.safeParse(v).success, INCOMPLETE),
      direction: z.enum(['credit', 'debit'], { errorMap: () => ({ message: INCOMPLETE }) }),
      amount: z.string({ required_error: AMOUNT }).trim().min(1, AMOUNT).max(24, AMOUNT),
      reason: z.string({ required_error: REASON }).trim().min(3, REASON).max(500, REASON),
    })
    .strict(),
  ...decisionForms,
])

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context)
  const userId = params.userId ?? ''
  const to = `/ops/people/${encodeURIComponent(userId)}`
  const form = await readDeskForm(context, request, personDeskForm, 'Choose Adjust, Approve or Decline')
  // A refused adjustment keeps the requestId it came with (a valid one): sent again, it is the same request.
  const sentId = requestIdField.safeParse(form.raw.requestId).data
  const refused = (error: string) => data<AdjustReply>({ error, form: 'adjust', requestId: sentId }, { status: 400 })
  if (!form.ok) return form.raw.intent === 'approve' || form.raw.intent === 'decline' ? decideRefused(form) : refused(form.problem)
  if (form.value.intent !== 'adjust') return decideAdjustment(request, context, form.value, to)
  // Every field is checked before the money call: a refusal, never an error after the api said yes.
  const { currency, direction, reason, requestId } = form.value
  const amount = parseAmount(form.value.amount, currency)
  if (!amount) return refused(AMOUNT)
  const signed = direction === 'debit' ? -amount : amount
  const result = await staffFlow(request, context, opsMoneyApi.adjust, { userId, amount: signed, reason, requestId })
  if (!result.success) return refused(result.msg)
  const message =
    result.data.type === 'adjustment_request'
      ? `${formatMoney(signed, currency, { signed: true })} waits for a second admin`
      : `Wallet adjusted by ${formatMoney(signed, currency, { signed: true })}`
  return redirectWithStaffToast(request, to, { type: 'success', message })
}

const decideRefused = (form: { problem: string; raw: { id?: string } }) =>
  data<DeskReply>({ error: form.problem, form: `decide:${form.raw.id ?? ''}` }, { status: 400 })

/** A refused adjustment keeps its requestId, so the form sent again is the same request. */
type AdjustReply = DeskReply & { requestId?: string }

export default function PersonPage() {
  const { person, ledger, pending, me, requestId: fresh } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as AdjustReply | undefined
  const requestId = (reply?.form === 'adjust' && reply.requestId) || fresh
  const busy = useNavigation().state === 'submitting'
  const money = (n: number, signed = false) => formatMoney(n, person.currency, { signed })
  return (
    <OpsPage title={person.email}>
      <div className="ops-tiles">
        <section className="ops-tile" aria-label="Profile">
          <h2 className="ops-tile__label">Profile</h2>
          <p>{person.userName}</p>
          <p className="ops-tile__note">Id {person.userId}</p>
          <p className="ops-tile__note">Joined {formatWhen(person.createdAt)}</p>
        </section>
        <section className="ops-tile" aria-label="Wallet">
          <h2 className="ops-tile__label">Wallet</h2>
          <p className="ops-tile__value">{money(person.balance)}</p>
          <p className="ops-tile__note">{money(person.frozen)} on hold</p>
        </section>
      </div>
      <AdjustForm currency={person.currency} requestId={requestId} reply={reply} busy={busy} />
      {pending.length > 0 ? (
        <>
          <h2 className="ops-section-title">Waiting for a second admin</h2>
          {reply && reply.form !== 'adjust' ? (
            <p className="ops-error" role="alert">
              {reply.error}
            </p>
          ) : null}
          <PendingAdjustments pending={pending} me={me} currency={person.currency} busy={busy} />
        </>
      ) : reply && reply.form !== 'adjust' ? (
        <p className="ops-error" role="alert">
          {reply.error}
        </p>
      ) : null}
      <Ledger ledger={ledger} money={money} />
      <div className="ops-grid-2">
        <Lists person={person} money={money} />
      </div>
    </OpsPage>
  )
}

function AdjustForm({
  currency,
  requestId,
  reply,
  busy,
}: {
  currency: string
  requestId: string
  reply: DeskReply | undefined
  busy: boolean
}) {
  return (
    <section className="ops-panel" aria-labelledby="adjust-title">
      <h2 id="adjust-title" className="ops-tile__label">
        Adjust the wallet
      </h2>
      <Form method="post" className="ops-form">
        <input type="hidden" name="intent" value="adjust" />
        <input type="hidden" name="currency" value={currency} />
        <input type="hidden" name="requestId" value={requestId} />
        <label>
          Direction
          <select name="direction" defaultValue="credit">
            <option value="credit">Credit (add)</option>
            <option value="debit">Debit (take)</option>
          </select>
        </label>
        <label>
          Amount ({currency})
          <input name="amount" inputMode="decimal" required autoComplete="off" />
        </label>
        <label>
          Reason (for the audit log and the person)
          <input name="reason" required minLength={3} maxLength={500} size={40} />
        </label>
        <button type="submit" className="ops-button ops-button--primary" disabled={busy}>
          Adjust
        </button>
      </Form>
      {reply?.form === 'adjust' ? (
        <p className="ops-error" role="alert">
          {reply.error}
        </p>
      ) : null}
    </section>
  )
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>

function Ledger({ ledger, money }: { ledger: LoaderData['ledger']; money: (n: number, signed?: boolean) => string }) {
  const pages = Math.max(1, Math.ceil(ledger.total / ledger.pageSize))
  return (
    <section aria-labelledby="ledger-title">
      <h2 id="ledger-title" className="ops-section-title">
        Ledger
      </h2>
      <div className="ops-table-wrap">
        <table className="ops-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Type</th>
              <th scope="col" className="ops-num">
                Amount
              </th>
              <th scope="col" className="ops-num">
                Balance after
              </th>
              <th scope="col" className="ops-num">
                Hold change
              </th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {ledger.list.map((e) => (
              <tr key={e.id}>
                <td>{formatWhen(e.createdAt)}</td>
                <td>{e.type}</td>
                <td className="ops-num">{money(e.amount, true)}</td>
                <td className="ops-num">{money(e.balanceAfter)}</td>
                <td className="ops-num">{e.frozenChange ? money(e.frozenChange, true) : ''}</td>
                <td>{e.note}</td>
              </tr>
            ))}
            {ledger.list.length === 0 ? (
              <tr>
                <td colSpan={6}>No entries yet.</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <Pager pageNum={ledger.pageNum} pages={pages} />
    </section>
  )
}

function Pager({ pageNum, pages }: { pageNum: number; pages: number }) {
  return (
    <nav className="ops-pager" aria-label="Ledger pages">
      {pageNum > 1 ? <Link to={`?page=${pageNum - 1}`}>Newer</Link> : null}
      <span>
        Page {pageNum} of {pages}
      </span>
      {pageNum < pages ? <Link to={`?page=${pageNum + 1}`}>Older</Link> : null}
    </nav>
  )
}

function Lists({ person, money }: { person: LoaderData['person']; money: (n: number) => string }) {
  return (
    <>
      <MiniTable
        title="Orders"
        head={['Made', 'Order', 'Brand', 'Status', 'Payout']}
        rows={person.orders.map((o) => [
          formatWhen(o.createdAt),
          <Link key="desk" to={`/ops/review/${encodeURIComponent(o.id)}`}>
            {o.orderNo}
          </Link>,
          o.brandId,
          o.status,
          money(o.payout),
        ])}
      />
      <MiniTable
        title="Withdrawals"
        head={['Asked', 'Withdrawal', 'Amount', 'Status']}
        rows={person.withdrawals.map((w) => [formatWhen(w.createdAt), <WithdrawalLink key="desk" w={w} />, money(w.amount), w.status])}
      />
      <MiniTable
        title="Bank accounts"
        head={['Bank', 'Account', 'Holder', 'Default']}
        rows={person.bankAccounts.map((b) => [b.bankName, b.maskedNumber, b.accountName, b.isDefault ? 'Yes' : ''])}
      />
      <MiniTable
        title="Sessions"
        head={['Signed in', 'Ends', 'Live']}
        rows={person.sessions.map((s) => [formatWhen(s.createdAt), formatWhen(s.expiresAt), s.live ? 'Live' : 'Ended'])}
      />
    </>
  )
}

/** The payout desk's tab that lists a withdrawal, opened at its row; a paid one is on no tab (its number is shown). */
const DESK_TABS = ['pending', 'processing', 'failed']
function WithdrawalLink({ w }: { w: { id: string; status: string } }) {
  const number = w.id.slice(0, 8)
  return DESK_TABS.includes(w.status) ? (
    <Link to={`/ops/payouts?status=${w.status}#w-${encodeURIComponent(w.id)}`} aria-label={`Withdrawal ${number} on the payout desk`}>
      {number}
    </Link>
  ) : (
    <span title={w.id}>{number}</span>
  )
}

function MiniTable({ title, head, rows }: { title: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <section aria-label={title}>
      <h2 className="ops-section-title">{title}</h2>
      <div className="ops-table-wrap">
        <table className="ops-table">
          <thead>
            <tr>
              {head.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {r.map((c, j) => (
                  <td key={j}>{c}</td>
                ))}
              </tr>
            ))}
            {rows.length === 0 ? (
              <tr>
                <td colSpan={head.length}>None.</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </section>
  )
}

export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
