// The account a payouts person pays by hand: bank, holder, the full number (revealed on request)
// and the exact amount to send, each as text a click selects; with JavaScript, a Copy button too.
import { useState } from 'react'
import { amountInputValue } from '#contract/money'
import type { PayoutAccount } from '#contract/ops/payouts'
import { useHydrated } from '../components/ui'

export function AccountToPay({ account: a }: { account: PayoutAccount }) {
  return (
    <dl className="ops-pay" aria-label={`Account to pay for withdrawal ${a.withdrawalId}`}>
      <dt>Bank</dt>
      <dd>
        {a.bankName} <span className="ops-muted ops-inline">code {a.bankCode}</span>
      </dd>
      <dt>Holder</dt>
      <dd>{a.accountName}</dd>
      <dt>Account number</dt>
      <dd>
        <CopyText text={a.accountNumber} label="account number" />
      </dd>
      <dt>Send exactly</dt>
      <dd>
        <CopyText text={amountInputValue(a.amountToSend, a.currency)} label="amount" />{' '}
        <span className="ops-muted ops-inline">{a.currency}</span>
      </dd>
    </dl>
  )
}

/** `text` is what a click selects and Copy copies (an amount in digits only, as a bank's form takes it). */
function CopyText({ text, label }: { text: string; label: string }) {
  const hydrated = useHydrated()
  const [copied, setCopied] = useState(false)
  return (
    <span className="ops-copy">
      <span className="ops-mono ops-copy__text">{text}</span>
      {hydrated ? (
        <button
          type="button"
          className="ops-button ops-button--ghost ops-copy__button"
          aria-label={`Copy ${label}`}
          onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      ) : null}
    </span>
  )
}
