// The sticky bar at the top of every screen: a back link and the screen's title (the page's h1).
// Back is a real link to `backTo`, not history.back(), so it works without JavaScript, from a
// bookmark and after a reload.
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Icon } from './icon'

export type TopBarProps = {
  title: string
  /** Where "Back" goes. No back link when absent (top-level tabs). */
  backTo?: string
  /** Optional trailing control (e.g. a bell link); keeps the title centred. */
  end?: ReactNode
}

export function TopBar({ title, backTo, end }: TopBarProps) {
  return (
    <header className="cl-topbar">
      <div className="cl-topbar__inner">
        <div className="cl-topbar__start">
          {backTo ? (
            <Link to={backTo} className="cl-topbar__back" aria-label="Back" title="Back">
              <Icon name="chevron-left" size={26} />
            </Link>
          ) : null}
        </div>
        <h1 className="cl-topbar__title">{title}</h1>
        <div className="cl-topbar__end">{end}</div>
      </div>
    </header>
  )
}
