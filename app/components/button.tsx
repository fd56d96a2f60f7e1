// One button look for the whole app, for <button> and for links that act as buttons, so "the primary
// action" looks the same on every screen. `pending` shows a spinner without changing the button's
// size (no layout shift), marks it aria-busy and ignores further clicks (no double submit).
import type { ButtonHTMLAttributes, MouseEvent, ReactNode } from 'react'
import { Icon, type IconName } from './icon'
import { Link, type LinkProps } from './link'
import { cx } from './ui'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'
export type ButtonSize = 'md' | 'lg'

type LookProps = {
  /** primary: the one main action; secondary: outlined; ghost: text only; danger: destructive. */
  variant?: ButtonVariant
  /** md = 48px high (default), lg = 56px for the hero action. */
  size?: ButtonSize
  /** Full width. */
  block?: boolean
  /** Optional leading icon. */
  icon?: IconName
}

function buttonClass({ variant = 'primary', size = 'md', block }: LookProps, className?: string, pending?: boolean) {
  return cx(
    'cl-button',
    `cl-button--${variant}`,
    size === 'lg' && 'cl-button--lg',
    block && 'cl-button--block',
    pending && 'is-pending',
    className,
  )
}

function Content({ icon, children, pending }: { icon?: IconName; children?: ReactNode; pending?: boolean }) {
  return (
    <>
      <span className="cl-button__content">
        {icon ? <Icon name={icon} size={20} className="cl-button__icon" /> : null}
        {children}
      </span>
      {pending ? <span className="cl-button__spinner" aria-hidden="true" /> : null}
    </>
  )
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> &
  LookProps & {
    /** The action is in flight: spinner, aria-busy, clicks ignored. */
    pending?: boolean
  }

export function Button({ variant, size, block, icon, pending = false, className, children, onClick, ...rest }: ButtonProps) {
  function handleClick(event: MouseEvent<HTMLButtonElement>) {
    if (pending) {
      event.preventDefault()
      return
    }
    onClick?.(event)
  }
  return (
    <button
      {...rest}
      className={buttonClass({ variant, size, block }, className, pending)}
      aria-busy={pending || undefined}
      aria-disabled={pending || rest['aria-disabled'] || undefined}
      onClick={handleClick}
    >
      <Content icon={icon} pending={pending}>
        {children}
      </Content>
    </button>
  )
}

export type ButtonLinkProps = LinkProps & LookProps

/** A Remix <Link> that looks like a Button (navigation, not a mutation). */
export function ButtonLink({ variant, size, block, icon, className, children, ...rest }: ButtonLinkProps) {
  return (
    <Link {...rest} className={buttonClass({ variant, size, block }, className)}>
      <Content icon={icon}>{children}</Content>
    </Link>
  )
}
