// The sticky bottom navigation between the top-level places. The current tab carries
// aria-current="page" (NavLink's), which is also what the CSS styles, so the active state is the accessible state.
// Render it once, after the screen (the root does), so it stays put while tabs change.
// The unread count is the bell's alone (top bar, every screen): one number in one place.
import { useLocation } from '@remix-run/react'
import { screenFor } from '~/utils/routes'
import { Icon, type IconName } from './icon'
import { NavLink } from './link'

export type TabItem = {
  to: string
  label: string
  icon: IconName
  end?: boolean
}

/** The app's main tabs (DESIGN §2 "Shell": Home, Sell, Orders, Account). */
export const mainTabs: TabItem[] = [
  { to: '/', label: 'Home', icon: 'home', end: true },
  { to: '/order/sell', label: 'Sell', icon: 'tag' },
  { to: '/history', label: 'Orders', icon: 'receipt' },
  { to: '/account', label: 'Account', icon: 'user' },
]

/** True on the screens the tabs lead to: those, and only those, sit above the tab bar. */
export function useTabBar(): boolean {
  const screen = screenFor(useLocation().pathname)
  return mainTabs.some((tab) => tab.to === screen?.path)
}

/**
 * `inFlow`: the bar ends the page instead of staying over it. A visitor's (every tab but Home asks
 * to sign in) then covers nothing: a button the page ends on is never half under it, whatever the
 * phone's height.
 */
export function TabBar({ items, inFlow = false }: { items: TabItem[]; inFlow?: boolean }) {
  return (
    <nav className={inFlow ? 'cl-tabbar cl-tabbar--in-flow' : 'cl-tabbar'} aria-label="Main">
      <ul className="cl-tabbar__list">
        {items.map((item) => (
          <li key={item.to} className="cl-tabbar__item">
            <NavLink to={item.to} end={item.end} className="cl-tabbar__link" prefetch="intent">
              <span className="cl-tabbar__pill">
                <Icon name={item.icon} size={24} />
              </span>
              <span className="cl-tabbar__label">{item.label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
