// Wallet adjustments waiting for a second admin (maker-checker): who asked, for whom (by e-mail,
// with the balance now), how much, why, and whether another waiting request is alike; Approve and
// Decline only for an admin who did not ask (the api refuses the maker, and any other it must).
import { formatMoney } from '#contract/money'
import type { PendingAdjustment } from '#contract/ops/money'
import { formatWhen } from '~/ops/format'
import { Link } from '../components/link'
import { DecideForm } from './decide'
import { DeskTable } from './shell'

const nameOf = (actor: string) => actor.replace(/^staff:/, '')

export function PendingAdjustments({
  pending,
  me,
  currency,
  busy,
}: {
  pending: PendingAdjustment[]
  me: string
  currency: string
  busy: boolean
}) {
  if (pending.length === 0) return <p className="ops-muted">No adjustment waits for approval.</p>
  return (
    <DeskTable
      caption="Adjustments waiting for a second admin"
      columns={['Asked', 'Person and balance now', { label: 'Amount', num: true }, 'Reason', 'Asked by', 'Decide']}
    >
      {pending.map((p, i) => (
        <tr key={p.id}>
          <td>{formatWhen(p.createdAt)}</td>
          <td>
            <Link to={`/ops/people/${p.userId}`}>{p.email || p.userId}</Link>
            <span className="ops-muted ops-sub">Balance {formatMoney(p.balance, currency)}</span>
          </td>
          <td className="ops-num">{formatMoney(p.amount, currency, { signed: true })}</td>
          <td>
            {p.reason}
            {p.alike > 0 ? (
              <strong className="ops-alike" title="Same person, amount and reason within 24 hours">
                Like {p.alike === 1 ? 'another waiting request' : `${p.alike} others waiting`}
              </strong>
            ) : null}
          </td>
          <td>{nameOf(p.maker)}</td>
          <td>
            <DecideForm
              id={p.id}
              maker={p.maker}
              me={me}
              busy={busy}
              label={`Decide request ${i + 1}: ${formatMoney(p.amount, currency)} for ${p.email} asked by ${nameOf(p.maker)}`}
            />
          </td>
        </tr>
      ))}
    </DeskTable>
  )
}
