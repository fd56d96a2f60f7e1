// The white (or dark) surface that groups related content on the grey page: balances, forms, lists.
// With a `title` it becomes a labelled <section> so screen-reader users can jump between groups.
import { useId, type HTMLAttributes, type ReactNode } from 'react'
import { cx } from './ui'

export type CardProps = Omit<HTMLAttributes<HTMLElement>, 'title'> & {
  /** Heading shown at the top of the card (an h2); makes the card a labelled section. */
  title?: ReactNode
  /** Something small beside the title, e.g. a "See all" link. */
  action?: ReactNode
  /** No inner padding: for edge-to-edge lists of ListRow. */
  flush?: boolean
  /** Tinted with the brand colour: for the one hero figure on a screen (e.g. the balance). */
  tone?: 'default' | 'brand'
}

export function Card({ title, action, flush = false, tone = 'default', className, children, ...rest }: CardProps) {
  const headingId = useId()
  const classes = cx('cl-card', flush && 'cl-card--flush', tone === 'brand' && 'cl-card--brand', className)
  if (!title) {
    return (
      <div {...rest} className={classes}>
        {children}
      </div>
    )
  }
  return (
    <section {...rest} className={classes} aria-labelledby={headingId}>
      <div className="cl-card__header">
        <h2 className="cl-card__title" id={headingId}>
          {title}
        </h2>
        {action ? <div className="cl-card__action">{action}</div> : null}
      </div>
      {children}
    </section>
  )
}
