// One bank account as the wallet screens show it: the bank, the masked number (only the last
// four digits ever reach the page) and the account name, with a Default badge.
import type { ReactNode } from 'react'
import { Icon } from './icon'
import { cx } from './ui'

export type BankCardLook = { bankName: string; maskedNumber: string; accountName: string; isDefault?: boolean }

export function BankCardLine({
  card,
  className,
  end,
  inLabel = false,
}: {
  card: BankCardLook
  className?: string
  end?: ReactNode
  /** Inside a <label> (a choice), which may hold phrasing content only: a span, not a div. */
  inLabel?: boolean
}) {
  const Line = inLabel ? 'span' : 'div'
  return (
    <Line className={cx('cl-bankline', className)}>
      <span className="cl-row__icon" aria-hidden="true">
        <Icon name="bank" size={20} />
      </span>
      <span className="cl-bankline__text">
        <span className="cl-bankline__bank">
          {card.bankName}
          {card.isDefault ? <span className="cl-badge cl-badge--brand">Default</span> : null}
        </span>
        <span className="cl-bankline__meta">
          <span className="cl-bankline__number">{card.maskedNumber}</span>
          {card.accountName ? <> · {card.accountName}</> : null}
        </span>
      </span>
      {end}
    </Line>
  )
}
