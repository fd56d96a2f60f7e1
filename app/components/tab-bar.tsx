// The sticky bottom navigation between the top-level places. The current tab carries
// aria-current="page" (NavLink's), which is also what the CSS styles, so the active state is the accessible state.
// Render it once, after the screen (the root does), so it stays put while tabs change.
// The Account tab (the hub that holds Notifications) carries the unread count as a badge.
import { notificationMessages as N } from '~/utils/messages'
import { useOptionalUser } from '~/utils/user'
import { Icon, type IconName } from './icon'
import { NavLink } from './link'
import { UnreadBadge } from './top-bar'

export type TabItem = {
  to: string
  label: string
  icon: IconName
  end?: boolean
  /** Show the signed-in person's unread notifications on this tab. */
  unreadBadge?: boolean
}

/** The app's main tabs (DESIGN §2 "Shell": Home, Sell, Orders, Account). */
export const mainTabs: TabItem[] = [
  { to: '/', label: 'Home', icon: 'home', end: true },
  { to: '/order/sell', label: 'Sell', icon: 'tag' },
  { to: '/history', label: 'Orders', icon: 'receipt' },
  { to: '/account', label: 'Account', icon: 'user', unreadBadge: true },
]

export function TabBar({ items }: { items: TabItem[] }) {
  const unread = useOptionalUser()?.unreadCount ?? 0
  return (
    <nav className="cl-tabbar" aria-label="Main">
      <ul className="cl-tabbar__list">
        {items.map((item) => (
          <li key={item.to} className="cl-tabbar__item">
            <NavLink to={item.to} end={item.end} className="cl-tabbar__link" prefetch="intent">
              <span className="cl-tabbar__pill">
                <Icon name={item.icon} size={24} />
                {item.unreadBadge ? <UnreadBadge count={unread} /> : null}
              </span>
              <span className="cl-tabbar__label">{item.label}</span>
              {/* After the label, so the tab reads "Account, 3 unread notifications". */}
              {item.unreadBadge && unread > 0 ? <span className="cl-visually-hidden">, {N.unreadLabel(unread)}</span> : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
