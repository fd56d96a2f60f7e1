// A withdrawal as the success and detail screens show it: its status, its figures (what left the
// wallet, the fee, what arrives), the account it goes to, and its timeline from request to paid
// (with the bank's reference) or failed (with the reason, and the money back in the wallet).
import type { Withdrawal } from '#contract/withdrawals'
import { withdrawalStatusLabels, withdrawalStepTexts, walletMessages as W } from '~/utils/messages'
import { BankCardLine } from './bank-card'
import { ButtonLink } from './button'
import { ErrorScreen } from './error-boundary'
import { InfoList, InfoRow } from './list-row'
import { Money, When, zoneName } from './money'
import { Timeline, type TimelineStep } from './timeline'

const BADGES: Record<Withdrawal['status'], string> = {
  pending: 'cl-badge--info',
  processing: 'cl-badge--warning',
  success: 'cl-badge--success',
  failed: 'cl-badge--error',
  reversed: 'cl-badge--error',
}

export function WithdrawalStatus({ status }: { status: Withdrawal['status'] }) {
  return <span className={`cl-badge ${BADGES[status]}`}>{withdrawalStatusLabels[status]}</span>
}

/** The promise: "23 Nov 2026, 20:24", and "Lagos time" under it. */
export function ExpectedBy({ withdrawal, timeZone }: { withdrawal: Withdrawal; timeZone: string }) {
  return (
    <>
      <When at={withdrawal.expectedBy} timeZone={timeZone} /> <span className="cl-zone">{zoneName(timeZone)}</span>
    </>
  )
}

/** "Guaranty Trust Bank •••• 8061", the masked number never split over two lines. */
export function BankName({ card }: { card: Withdrawal['bankCard'] }) {
  return (
    <>
      {card.bankName} <span className="cl-nowrap">{card.maskedNumber}</span>
    </>
  )
}

/** The figures: a failed withdrawal charged no fee and paid nothing; its whole amount came back. */
export function WithdrawalFacts({ withdrawal: w, timeZone }: { withdrawal: Withdrawal; timeZone: string }) {
  const money = (amount: number) => <Money amount={amount} currency={w.currency} />
  return (
    <InfoList>
      <InfoRow label="Status" value={<WithdrawalStatus status={w.status} />} />
      <InfoRow label="Amount" value={money(w.amount)} />
      {w.status === 'failed' || w.status === 'reversed' ? (
        <InfoRow className="cl-summary__receive" label="Back in your balance" value={money(w.amount)} />
      ) : (
        <>
          <InfoRow label="Fee" value={money(w.fee)} />
          <InfoRow
            className="cl-summary__receive"
            label={w.status === 'success' ? 'Paid to your bank' : 'You receive'}
            value={money(w.received)}
          />
        </>
      )}
      <InfoRow label="To" value={<BankCardLine card={w.bankCard} className="cl-bankline--end" />} />
      {w.reference ? <InfoRow label="Payout reference" value={<span className="cl-reference">{w.reference}</span>} /> : null}
      {w.transferCode ? <InfoRow label="Transfer code" value={<span className="cl-reference">{w.transferCode}</span>} /> : null}
      {w.sessionId && w.sessionId !== w.reference ? (
        <InfoRow label="Bank session id" value={<span className="cl-reference">{w.sessionId}</span>} />
      ) : null}
      <InfoRow label="Requested" value={<When at={w.createdAt} timeZone={timeZone} />} />
    </InfoList>
  )
}

/** Requested → processing → paid | failed: the steps done with their times, the next one marked. */
export function WithdrawalTimeline({ withdrawal: w, timeZone }: { withdrawal: Withdrawal; timeZone: string }) {
  const at = (status: Withdrawal['status']) => {
    const event = w.events.find((e) => e.status === status)
    return event ? <When at={event.at} timeZone={timeZone} /> : undefined
  }
  const done = (status: Withdrawal['status']) => w.events.some((e) => e.status === status)
  const steps: TimelineStep[] = [
    { key: 'pending', title: withdrawalStatusLabels.pending, detail: withdrawalStepTexts.pending, at: at('pending'), state: 'done' },
  ]
  if (w.status === 'failed') {
    if (done('processing'))
      steps.push({
        key: 'processing',
        title: withdrawalStatusLabels.processing,
        detail: w.transferCode ? `Transfer code ${w.transferCode}` : undefined,
        at: at('processing'),
        state: 'done',
      })
    steps.push({
      key: 'failed',
      title: withdrawalStatusLabels.failed,
      detail: (
        <>
          {w.reason ? `${w.reason.replace(/[.!]+$/, '')}. ` : ''}
          {W.refunded}
        </>
      ),
      at: at('failed'),
      state: 'failed',
    })
    return <Timeline steps={steps} label="Progress of this withdrawal" />
  }
  steps.push({
    key: 'processing',
    title: withdrawalStatusLabels.processing,
    detail: w.transferCode ? (
      <>
        {withdrawalStepTexts.processing} Transfer code: <span className="cl-reference">{w.transferCode}</span>
      </>
    ) : (
      withdrawalStepTexts.processing
    ),
    at: at('processing'),
    state: done('processing') ? 'done' : 'current',
  })
  steps.push({
    key: 'success',
    title: withdrawalStatusLabels.success,
    detail:
      w.status === 'success' ? (
        <>
          {withdrawalStepTexts.success} Reference: <span className="cl-reference">{w.reference}</span>
          {w.sessionId && w.sessionId !== w.reference ? (
            <>
              {' '}
              Session id: <span className="cl-reference">{w.sessionId}</span>
            </>
          ) : null}
        </>
      ) : (
        <>
          Expected by <When at={w.expectedBy} timeZone={timeZone} /> ({zoneName(timeZone)})
        </>
      ),
    at: at('success'),
    state: w.status === 'success' || w.status === 'reversed' ? 'done' : w.status === 'processing' ? 'current' : 'upcoming',
  })
  if (w.status === 'reversed') {
    steps.push({
      key: 'reversed',
      title: withdrawalStatusLabels.reversed,
      detail: `${w.reason ? `${w.reason.replace(/[.!]+$/, '')}. ` : ''}The full amount, fee included, is back in your balance.`,
      at: at('reversed'),
      state: 'failed',
    })
  }
  return <Timeline steps={steps} label="Progress of this withdrawal" />
}

/** The 404 of the withdrawal screens: another person's, an unknown or a malformed id, alike. */
export function WithdrawalNotFound() {
  return (
    <ErrorScreen
      title={W.withdrawalNotFound}
      heading={W.withdrawalNotFoundHeading}
      text={W.withdrawalNotFoundText}
      icon="info"
      action={
        <ButtonLink to="/wallet" variant="primary" block>
          Back to wallet
        </ButtonLink>
      }
    />
  )
}
