// Wallet adjustments waiting for a second admin (maker-checker): who asked, for whom, how much, why;
// Approve and Decline only for an admin who did not ask (the api refuses the maker anyway).
import { Form } from '@remix-run/react'
import type { AdjustmentRequest } from '#contract/admin'
import { formatMoney } from '#contract/money'
import { formatWhen } from '~/utils/console-format'
import { DeskTable } from './console'
import { Link } from './link'

const nameOf = (actor: string) => actor.replace(/^staff:/, '')

export function PendingAdjustments({
  pending,
  me,
  currency,
  busy,
}: {
  pending: AdjustmentRequest[]
  me: string
  currency: string
  busy: boolean
}) {
  if (pending.length === 0) return <p className="ops-muted">No adjustment waits for approval.</p>
  return (
    <DeskTable
      caption="Adjustments waiting for a second admin"
      columns={['Asked', 'Person', { label: 'Amount', num: true }, 'Reason', 'Asked by', 'Decide']}
    >
      {pending.map((p) => (
        <tr key={p.id}>
          <td>{formatWhen(p.createdAt)}</td>
          <td>
            <Link to={`/ops/people/${p.userId}`}>{p.userId}</Link>
          </td>
          <td className="ops-num">{formatMoney(p.amount, currency, { signed: true })}</td>
          <td>{p.reason}</td>
          <td>{nameOf(p.maker)}</td>
          <td>
            {nameOf(p.maker) === me ? (
              <span className="ops-muted">Another admin must approve</span>
            ) : (
              <Form
                method="post"
                className="ops-form"
                aria-label={`Decide the adjustment of ${formatMoney(p.amount, currency)} asked by ${nameOf(p.maker)}`}
              >
                <input type="hidden" name="id" value={p.id} />
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
  )
}
