// The settings-style row (icon, label, value, chevron) used by Account, Wallet and friends. One
// component so every tappable row has the same 56px height, press state and focus ring, whether it
// navigates (Link) or submits/acts (button, e.g. "Log out" inside a <Form>).
import { Children, isValidElement, type ButtonHTMLAttributes, type ReactNode } from 'react'
import { Icon, type IconName } from './icon'
import { Link } from './link'
import { cx } from './ui'

type RowLook = {
  /** Leading icon in a soft tile. */
  icon?: IconName
  /** Main text. */
  label: ReactNode
  /** Secondary line under the label. */
  description?: ReactNode
  /** Trailing value, e.g. a masked card number or an amount (tabular). */
  value?: ReactNode
  /** Show the trailing chevron. Defaults to true for links, false for buttons. */
  chevron?: boolean
  /** danger: red label and icon, for destructive rows (Delete account, Log out). */
  tone?: 'default' | 'danger'
  className?: string
}

export type ListRowProps =
  | (RowLook & { to: string; reloadDocument?: boolean; onClick?: never; type?: never })
  | (RowLook & { to?: undefined } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'value' | 'className'>)

function Body({ icon, label, description, value, chevron }: RowLook) {
  return (
    <>
      {icon ? (
        <span className="cl-row__icon" aria-hidden="true">
          <Icon name={icon} size={20} />
        </span>
      ) : null}
      <span className="cl-row__text">
        <span className="cl-row__label">{label}</span>
        {description ? <span className="cl-row__description">{description}</span> : null}
      </span>
      {value !== undefined && value !== null ? <span className="cl-row__value">{value}</span> : null}
      {chevron ? <Icon name="chevron-right" size={20} className="cl-row__chevron" /> : null}
    </>
  )
}

export function ListRow(props: ListRowProps) {
  const { icon, label, description, value, tone = 'default', className } = props
  const classes = cx('cl-row', tone === 'danger' && 'cl-row--danger', className)
  if (props.to !== undefined) {
    const { to, reloadDocument, chevron = true } = props
    return (
      <Link to={to} reloadDocument={reloadDocument} className={classes}>
        <Body icon={icon} label={label} description={description} value={value} chevron={chevron} />
      </Link>
    )
  }
  const {
    to: _to,
    icon: _icon,
    label: _label,
    description: _description,
    value: _value,
    chevron = false,
    tone: _tone,
    className: _className,
    type = 'button',
    ...buttonProps
  } = props
  return (
    <button {...buttonProps} type={type} className={classes}>
      <Body icon={icon} label={label} description={description} value={value} chevron={chevron} />
    </button>
  )
}

/** A grouped list of rows (<ul>), separated by hairlines. Put it in a <Card flush>. */
export function List({ children, label, className }: { children: ReactNode; label?: string; className?: string }) {
  return (
    <ul className={cx('cl-list', className)} aria-label={label}>
      {Children.map(children, (child) => (isValidElement(child) ? <li className="cl-list__item">{child}</li> : child))}
    </ul>
  )
}

/** A list of InfoRow facts (<dl>). */
export function InfoList({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cx('cl-infolist', className)}>{children}</dl>
}

/** A non-interactive row for facts (label on the left, value on the right): order detail, fees. */
export function InfoRow({ label, value, className }: { label: ReactNode; value: ReactNode; className?: string }) {
  return (
    <div className={cx('cl-inforow', className)}>
      <dt className="cl-inforow__label">{label}</dt>
      <dd className="cl-inforow__value">{value}</dd>
    </div>
  )
}
