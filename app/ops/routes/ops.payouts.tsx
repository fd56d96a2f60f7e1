// The payout desk (role payouts; admin too): withdrawals pending / processing / failed, oldest
// first, with the person, the bank account (holder, bank, last four), the exact amount to send
// (amount less fee), age and the provider's side. The full account number is revealed on request,
// one row at a time (audited by the api), in the answer to that form only, never with the page. Each move is a plain form (approve, mark processing, paid with the bank's
// reference, failed with a reason); a refusal shows beside its row. With JavaScript the list is
// revalidated on an interval and when the window regains focus.
import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { formatMoney } from '#contract/money'
import { opsMoneyApi, opsPayoutsApi, type DeskWithdrawal } from '#contract/ops/money'
import { payoutDeskApi, type PayoutAccount } from '#contract/ops/payouts'
import { Link } from '~/components/link'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { readDeskForm } from '~/ops/desk-move.server'
import { AccountToPay } from '~/ops/payout-account'
import { PayoutAttentionPanel, PayoutBanners } from '~/ops/payout-attention'
import { redirectWithStaffToast } from '~/ops/session.server'
import { OpsPage, Pager } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import payoutStyles from '~/ops/styles/payouts.css?url'
import { loaded } from '~/upstream/flow.server'
import { useLiveData } from '~/utils/live-data'
import { DESK_PAGE_SIZE, pageAsked, paging } from '~/utils/paging'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: payoutStyles }]

const TABS = ['pending', 'processing', 'failed'] as const
type Tab = (typeof TABS)[number]
/** How often an open desk asks again while JavaScript runs. */
const REFRESH_MS = 15_000

const tabOf = (url: URL): Tab => {
  const asked = url.searchParams.get('status')
  return TABS.find((t) => t === asked) ?? 'pending'
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context)
  const url = new URL(request.url)
  const status = tabOf(url)
  const asked = pageAsked(url)
  // The shown tab's page in full; the others only for their counts.
  const pages = await Promise.all(
    TABS.map((t) =>
      staffFlow(request, context, opsMoneyApi.withdrawals, {
        pageNum: t === status ? asked.pageNum : 1,
        pageSize: t === status ? DESK_PAGE_SIZE : 1,
        status: t,
      }),
    ),
  )
  const [pending, processing, failed] = pages.map((p) => loaded(p))
  const shown = { pending, processing, failed }[status]
  // What needs a person (decision 038); the desk still shows its queue when this cannot be read.
  const asking = await staffFlow(request, context, opsPayoutsApi.attention, {})
  const attention = asking.success ? asking.data : null
  return data(
    {
      status,
      counts: { pending: pending.total, processing: processing.total, failed: failed.total },
      list: shown.list,
      paging: paging(url, shown),
      problem: asked.problem,
      now: Date.now(),
      attention,
    },
    { status: asked.problem ? 400 : 200 },
  )
}

const idField = z.string().min(1).max(64)
const moveSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('reveal'), id: idField }).strict(),
  z.object({ intent: z.literal('approve'), id: idField }).strict(),
  z.object({ intent: z.literal('processing'), id: idField }).strict(),
  z
    .object({
      intent: z.literal('paid'),
      id: idField,
      reference: z.string().trim().min(1, 'Type the bank’s payout reference').max(120, 'The reference is at most 120 characters'),
    })
    .strict(),
  z
    .object({
      intent: z.literal('failed'),
      id: idField,
      reason: z.string().trim().min(3, 'Say why in a few words the person can read').max(500, 'The reason is at most 500 characters'),
    })
    .strict(),
  z
    .object({
      intent: z.literal('otp'),
      id: idField,
      otp: z
        .string()
        .trim()
        .regex(/^\d{4,8}$/, 'The OTP is 4–8 digits'),
    })
    .strict(),
  z
    .object({
      intent: z.literal('resolve'),
      id: idField,
      note: z.string().trim().min(3, 'Say in a few words what was done').max(500, 'The note is at most 500 characters'),
    })
    .strict(),
])
type Move = z.infer<typeof moveSchema>

const done: Record<Exclude<Move['intent'], 'reveal'>, string> = {
  approve: 'Approved: the payout is sent next',
  processing: 'Marked processing',
  paid: 'Marked paid',
  failed: 'Marked failed: the hold is back in the wallet',
  otp: 'OTP accepted: Paystack sends the payout',
  resolve: 'Conflict resolved',
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context)
  const form = await readDeskForm(context, request, moveSchema, 'Choose one of the row’s actions')
  if (!form.ok) return data({ id: form.raw.id?.slice(0, 64) ?? null, message: form.problem }, { status: 400 })
  const move = form.value
  if (move.intent === 'reveal') {
    const shown = await staffFlow(request, context, payoutDeskApi.revealAccount, { id: move.id })
    if (!shown.success) return data({ id: move.id, message: shown.msg }, { status: shown.status === 400 ? 400 : 409 })
    // The number is in this answer only: no cache keeps it, and the page's loader never has it.
    return data({ id: move.id, account: shown.data }, { headers: { 'Cache-Control': 'no-store' } })
  }
  const result =
    move.intent === 'approve'
      ? await staffFlow(request, context, opsMoneyApi.approveWithdrawal, { id: move.id })
      : move.intent === 'otp'
        ? await staffFlow(request, context, opsPayoutsApi.finalizeOtp, { id: move.id, otp: move.otp })
        : move.intent === 'resolve'
          ? await staffFlow(request, context, opsPayoutsApi.resolveConflict, { id: move.id, note: move.note })
          : await staffFlow(request, context, opsMoneyApi.updateWithdrawal, {
              id: move.id,
              status: move.intent === 'paid' ? 'success' : move.intent,
              ...(move.intent === 'paid' && { reference: move.reference }),
              ...(move.intent === 'failed' && { reason: move.reason }),
            })
  if (!result.success) return data({ id: move.id, message: result.msg }, { status: result.status === 400 ? 400 : 409 })
  const url = new URL(request.url)
  url.searchParams.delete('index')
  return redirectWithStaffToast(request, `${url.pathname}${url.search}`, { type: 'success', message: done[move.intent] })
}

const MINUTE = 60_000
function age(ms: number) {
  const minutes = Math.max(0, Math.floor(ms / MINUTE))
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  return hours < 48 ? `${hours} h ${minutes % 60} min` : `${Math.floor(hours / 24)} d ${hours % 24} h`
}

export default function PayoutDesk() {
  const { status, counts, list, paging: pages, problem, now, attention } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  useLiveData(REFRESH_MS)
  // A refusal about a row of "Needs a person" shows beside that row only.
  const attentionIds = new Set(attention ? [...attention.conflicts, ...attention.otp].map((w) => w.id) : [])
  return (
    <OpsPage title="Payout desk" actions={<Link to="/ops/payouts/reconcile">Reconcile a day</Link>}>
      <nav className="ops-tabs" aria-label="Withdrawals by status">
        {TABS.map((t) => (
          <Link key={t} to={`/ops/payouts?status=${t}`} aria-current={t === status ? 'page' : undefined} className="ops-tab">
            {t[0].toUpperCase() + t.slice(1)} <span className="ops-count">{counts[t]}</span>
          </Link>
        ))}
      </nav>
      {problem ? (
        <p className="ops-refusal" role="alert">
          {problem}
        </p>
      ) : null}
      {attention ? <PayoutBanners alerts={attention.alerts} /> : null}
      {attention ? <PayoutAttentionPanel attention={attention} refusal={reply && 'message' in reply ? reply : undefined} /> : null}
      {reply && 'message' in reply && !list.some((w) => w.id === reply.id) && !attentionIds.has(reply.id ?? '') ? (
        <p className="ops-refusal" role="alert">
          {reply.message}
        </p>
      ) : null}
      {list.length === 0 ? (
        <p className="ops-panel">No {status} withdrawals.</p>
      ) : (
        <table className="ops-table ops-payouts">
          <caption className="cl-visually-hidden">
            {status} withdrawals, oldest first ({counts[status]})
          </caption>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Bank account</th>
              <th scope="col" className="ops-num">
                Amount to send
              </th>
              <th scope="col">Age</th>
              <th scope="col">Provider</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {list.map((w) => (
              <Row
                key={w.id}
                w={w}
                now={now}
                refusal={reply?.id === w.id && 'message' in reply ? reply.message : undefined}
                account={reply?.id === w.id && 'account' in reply ? reply.account : undefined}
              />
            ))}
          </tbody>
        </table>
      )}
      {counts[status] > 0 ? <Pager paging={pages} label={`Pages of ${status} withdrawals`} /> : null}
    </OpsPage>
  )
}

function Row({ w, now, refusal, account }: { w: DeskWithdrawal; now: number; refusal?: string; account?: PayoutAccount }) {
  const late = w.expectedBy < now && (w.status === 'pending' || w.status === 'processing')
  return (
    <tr id={`w-${w.id}`} className={refusal ? 'ops-row--refused' : undefined}>
      <td>
        <span className="ops-strong">{w.email}</span>
        <span className="ops-muted">{w.userName}</span>
      </td>
      <td>
        <span className="ops-strong">{w.bankCard.accountName}</span>
        <span className="ops-muted">
          {w.bankCard.bankName} {w.bankCard.maskedNumber}
        </span>
        {w.nameFlagged ? <span className="ops-flag">Name far from the profile’s</span> : null}
        {account ? (
          <AccountToPay account={account} />
        ) : (
          <MoveForm id={w.id} intent="reveal">
            <button type="submit" className="ops-button ops-button--ghost" aria-label={`Show account number for ${w.email}`}>
              Show account number
            </button>
          </MoveForm>
        )}
      </td>
      <td className="ops-num">
        <span className="ops-strong">{formatMoney(w.received, w.currency)}</span>
        <span className="ops-muted">
          {formatMoney(w.amount, w.currency)} less fee {formatMoney(w.fee, w.currency)}
        </span>
      </td>
      <td>
        <span className={late ? 'ops-age ops-late' : 'ops-age'}>{age(now - w.createdAt)}</span>
        {late ? <span className="ops-muted">past its promise</span> : null}
        {w.status === 'failed' && w.reason ? <span className="ops-muted">{w.reason}</span> : null}
      </td>
      <td>
        <ProviderCell w={w} />
      </td>
      <td className="ops-actions">
        <Actions w={w} />
        {refusal ? (
          <p className="ops-refusal" role="alert">
            {refusal}
          </p>
        ) : null}
      </td>
    </tr>
  )
}

function ProviderCell({ w }: { w: DeskWithdrawal }) {
  if (!w.payout) return <span className="ops-muted">Paid by hand</span>
  const p = w.payout
  return (
    <>
      <span className="ops-strong">
        {p.provider}
        {p.state ? `: ${p.state}` : ''}
      </span>
      {p.awaitingApproval ? <span className="ops-flag">Waits for approval</span> : null}
      {w.transferCode ? <span className="ops-muted ops-mono">{w.transferCode}</span> : null}
      <span className="ops-muted">
        {p.attempts} {p.attempts === 1 ? 'attempt' : 'attempts'}
      </span>
    </>
  )
}

function Actions({ w }: { w: DeskWithdrawal }) {
  const label = `${formatMoney(w.received, w.currency)} for ${w.email}`
  if (w.status === 'failed') return <span className="ops-muted">Hold returned</span>
  const automatic = w.payout !== null
  return (
    <div className="ops-moves">
      {w.payout?.awaitingApproval ? (
        <MoveForm id={w.id} intent="approve">
          <button type="submit" className="ops-button ops-button--primary" aria-label={`Approve ${label}`}>
            Approve
          </button>
        </MoveForm>
      ) : null}
      {w.status === 'pending' && !automatic ? (
        <MoveForm id={w.id} intent="processing">
          <button type="submit" className="ops-button" aria-label={`Mark processing: ${label}`}>
            Mark processing
          </button>
        </MoveForm>
      ) : null}
      {w.status === 'processing' && !automatic ? (
        <MoveForm id={w.id} intent="paid">
          <input name="reference" aria-label={`Bank reference for ${label}`} placeholder="Bank reference" required maxLength={120} />
          <button type="submit" className="ops-button ops-button--primary">
            Paid
          </button>
        </MoveForm>
      ) : null}
      {!automatic || w.payout?.sentAt === null ? (
        <MoveForm id={w.id} intent="failed">
          <input
            name="reason"
            aria-label={`Why ${label} failed`}
            placeholder="Reason the person reads"
            required
            minLength={3}
            maxLength={500}
          />
          <button type="submit" className="ops-button ops-button--danger">
            Failed
          </button>
        </MoveForm>
      ) : null}
    </div>
  )
}

function MoveForm({ id, intent, children }: { id: string; intent: Move['intent']; children: React.ReactNode }) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('id') === id
  return (
    <Form method="post" className="ops-move" preventScrollReset aria-busy={busy || undefined}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  )
}

// A role that cannot use this desk reads "Not your desk", not the customers' error page.
export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
