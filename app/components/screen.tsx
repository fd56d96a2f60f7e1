// The frame of every page: top bar (back + h1 title) and the main content column. Screens only
// supply their content, so spacing, max width (480px, centred on desktop), safe areas and the sticky
// top bar are the same everywhere. The bottom TabBar is rendered once by the root, after the screen
// (so it does not remount between tabs), on the screens the tabs lead to (tab-bar.tsx).
import { useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { screenFor } from '~/utils/routes'
import { useTabBar } from './tab-bar'
import { TopBar } from './top-bar'
import { cx } from './ui'

export type ScreenProps = {
  /**
   * The page's h1 when it is not the screen's title in the routes table (utils/routes.ts), which is
   * the h1 otherwise: an error page's heading, or the brand on Home. Never a screen's own title.
   */
  title?: string
  /** Target of the top bar's back link; none when absent. */
  backTo?: string
  children: ReactNode
  /** Trailing control in the top bar; the help (customer chat) button when absent. */
  topBarEnd?: ReactNode
  /** Extra class on <main>. */
  className?: string
}

export function Screen({ title, backTo, children, topBarEnd, className }: ScreenProps) {
  // Above the tab bar, the column leaves room for it and the action bar sticks above it.
  const tabs = useTabBar()
  const { pathname } = useLocation()
  return (
    <div className={cx('cl-screen', tabs && 'cl-screen--tabs')}>
      <TopBar title={title ?? screenFor(pathname)?.title ?? ''} backTo={backTo} end={topBarEnd} />
      <main id="main" className={cx('cl-screen__main', className)}>
        {children}
      </main>
    </div>
  )
}

/**
 * The screen's one primary action, kept near the thumb: it sits at the bottom of the content and
 * sticks to the bottom edge (above the tab bar) while the content scrolls. Put it inside the <Form>
 * so its submit button works without JavaScript.
 */
export function ActionBar({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cx('cl-actionbar', className)}>{children}</div>
}
