// What needs a person on the payout desk (decision 038): the banners (a float too low to pay,
// reconciliation differences), payouts in conflict (money moved twice or not at all) with a
// resolve form, payouts waiting for the transfer OTP with the OTP form and what to do instead,
// payouts unknown too long and payouts stuck. Plain forms: they work without JavaScript.
import { Form } from '@remix-run/react'
import { formatMoney } from '#contract/money'
import type { DeskWithdrawal, PayoutAttention } from '#contract/ops/money'

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
const who = (w: DeskWithdrawal) => `${formatMoney(w.received, w.currency)} to ${w.bankCard.accountName || w.email} (${w.email})`

export function PayoutBanners({ alerts }: { alerts: PayoutAttention['alerts'] }) {
  if (alerts.length === 0) return null
  return (
    <div className="ops-banners">
      {alerts.map((a) => (
        <p key={a.kind} className="ops-refusal ops-banner" role="alert" data-alert={a.kind}>
          {a.message}
          {a.kind === 'reconcile' ? (
            <>
              {' '}
              <a href="/ops/payouts/reconcile">Open reconciliation</a>
            </>
          ) : null}
        </p>
      ))}
    </div>
  )
}

export function PayoutAttentionPanel({
  attention,
  refusal,
}: {
  attention: PayoutAttention
  refusal?: { id: string | null; message: string }
}) {
  const { conflicts, otp, needsPerson, stuck } = attention
  if (conflicts.length + otp.length + needsPerson.length + stuck.length === 0) return null
  const refused = (id: string) =>
    refusal?.id === id ? (
      <p className="ops-refusal" role="alert">
        {refusal.message}
      </p>
    ) : null
  return (
    <section className="ops-panel ops-attention" aria-labelledby="attention-title">
      <h2 id="attention-title">Needs a person</h2>
      {conflicts.length ? (
        <>
          <h3>Conflicts: money may have moved twice or not at all</h3>
          <ul>
            {conflicts.map((w) => (
              <li key={w.id} id={`conflict-${w.id}`}>
                <span className="ops-strong">{who(w)}</span>
                <span className="ops-flag">{w.payout?.conflict}</span>
                <span className="ops-muted">
                  Now {w.status}; Paystack {w.payout?.state ?? 'unknown'}; reference <span className="ops-mono">{w.id}</span>. Check the
                  transfer in the Paystack dashboard, settle it (an adjustment, or recovering the money), then resolve.
                </span>
                <Form method="post" className="ops-move" preventScrollReset>
                  <input type="hidden" name="id" value={w.id} />
                  <input type="hidden" name="intent" value="resolve" />
                  <input
                    name="note"
                    aria-label={`What was done about ${who(w)}`}
                    placeholder="What was done"
                    required
                    minLength={3}
                    maxLength={500}
                  />
                  <button type="submit" className="ops-button">
                    Resolve
                  </button>
                </Form>
                {refused(w.id)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {otp.length ? (
        <>
          <h3>Waiting for the transfer OTP</h3>
          <p className="ops-muted">
            Paystack sends these only after the OTP it texted the business is entered. Turn transfer OTP off in the Paystack dashboard
            (Settings → Preferences → Transfers), or enter the OTP here before Paystack abandons the transfer.
          </p>
          <ul>
            {otp.map((w) => (
              <li key={w.id} id={`otp-${w.id}`}>
                <span className="ops-strong">{who(w)}</span>
                <Form method="post" className="ops-move" preventScrollReset>
                  <input type="hidden" name="id" value={w.id} />
                  <input type="hidden" name="intent" value="otp" />
                  <input
                    name="otp"
                    aria-label={`OTP for ${who(w)}`}
                    placeholder="OTP"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    pattern="[0-9]{4,8}"
                    required
                  />
                  <button type="submit" className="ops-button ops-button--primary">
                    Send with OTP
                  </button>
                </Form>
                {refused(w.id)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {needsPerson.length ? (
        <>
          <h3>Unknown too long: the money is still held</h3>
          <ul>
            {needsPerson.map((w) => (
              <li key={w.id} id={`unknown-${w.id}`}>
                <span className="ops-strong">{who(w)}</span>
                <span className="ops-flag">{w.payout?.problem ?? 'Paystack has not said what became of it'}</span>
                <span className="ops-muted">
                  Unknown since {w.payout?.unknownSince ? when(w.payout.unknownSince) : '—'}; {w.payout?.attempts ?? 0} attempts; reference{' '}
                  <span className="ops-mono">{w.id}</span>. Look the reference up in the Paystack dashboard: the worker keeps asking and
                  moves it as soon as Paystack answers.
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {stuck.length ? (
        <>
          <h3>Open longer than expected</h3>
          <ul>
            {stuck.map((w) => (
              <li key={w.id} id={`stuck-${w.id}`}>
                <span className="ops-strong">{who(w)}</span>
                <span className="ops-muted">
                  {w.status} since {when(w.createdAt)}; Paystack {w.payout?.state ?? 'not asked yet'}
                  {w.payout?.problem ? `; ${w.payout.problem}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  )
}
