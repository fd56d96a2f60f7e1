// The sticky bar at the top of every screen: a back link and the screen's title (the page's h1).
// Back is a real link to `backTo`, not history.back(), so it works without JavaScript, from a
// bookmark and after a reload. For a signed-in person it also carries the bell: a link to
// /notification with the unread count (from the root's one /v1/user/index call) as a badge, and on
// every screen the help button (chat-button.tsx).
import { useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { notificationMessages as N } from '~/utils/shell-messages'
import { useOptionalUser } from '~/utils/user'
import { ChatButton } from './chat-button'
import { Icon } from './icon'
import { Link } from './link'

export type TopBarProps = {
  title: string
  /** Where "Back" goes. No back link when absent (top-level tabs). */
  backTo?: string
  /** Trailing control; the help (customer chat) button when absent. */
  end?: ReactNode
}

export function TopBar({ title, backTo, end }: TopBarProps) {
  const user = useOptionalUser()
  const { pathname } = useLocation()
  // Not on the notifications screen itself: the bell would lead where the person already is.
  const bell = user && pathname !== '/notification' ? <NotificationBell count={user.unreadCount} /> : null
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
        <div className="cl-topbar__end">
          {bell}
          {end ?? <ChatButton />}
        </div>
      </div>
    </header>
  )
}

/** The bell: its name says how many are unread ("3 unread notifications"), the badge shows it. */
export function NotificationBell({ count }: { count: number }) {
  return (
    <Link
      to="/notification"
      className="cl-icon-button cl-bell"
      aria-label={count > 0 ? N.unreadLabel(count) : N.bell}
      title={N.bell}
      prefetch="intent"
    >
      <Icon name="bell" size={24} />
      <UnreadBadge count={count} />
    </Link>
  )
}

/**
 * The unread count as a small red badge: hidden at 0, "99+" above 99. Only what the eye sees: the
 * control that carries it says the words ("3 unread notifications") in its name.
 */
export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null
  return (
    <span className="cl-unread-badge" aria-hidden="true">
      {N.badge(count)}
    </span>
  )
}
