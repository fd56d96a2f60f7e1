// The floating help button (SPEC §2 "Shell": a customer-chat widget), on every screen: bottom right,
// above the tab bar where there is one and above a screen's action bar (its primary button), so it
// never covers the one thing a form is for. Render it once, from the root, after the screen: it
// reads everything it needs itself.
//
// It is a real link to /support (Help & Support: the support e-mail and the common answers), so it
// works without JavaScript. With a chat provider (CHAT_WIDGET_URL) a tap loads the provider's script
// — only then, so no third-party code runs for people who never ask for help — and asks it to open
// its window; if the script cannot load, the tap goes to /support after all.
import { useLocation } from '@remix-run/react'
import { useEffect, useRef, useState, type CSSProperties, type MouseEvent, type RefObject } from 'react'
import { supportMessages as M } from '~/utils/messages'
import { useTabBar } from '~/utils/routes'
import { usePublicEnv } from '~/utils/user'
import { Icon } from './icon'
import { Link } from './link'
import { cx } from './ui'

export const SUPPORT_PATH = '/support'

type LoadState = 'idle' | 'loading' | 'ready'

let scriptPromise: Promise<void> | null = null

function loadScript(src: string): Promise<void> {
  if (scriptPromise) return scriptPromise
  scriptPromise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = src
    script.async = true
    script.dataset.clChat = ''
    const timer = setTimeout(() => reject(new Error('Chat widget timed out')), 15_000)
    script.onload = () => {
      clearTimeout(timer)
      resolve()
    }
    script.onerror = () => {
      clearTimeout(timer)
      reject(new Error('Chat widget failed to load'))
    }
    document.head.appendChild(script)
  }).catch((error: unknown) => {
    scriptPromise = null // let a later tap try again
    throw error
  })
  return scriptPromise
}

type ProviderGlobals = {
  $crisp?: { push: (cmd: unknown[]) => void }
  Tawk_API?: { maximize?: () => void }
  Intercom?: (cmd: string) => void
  zE?: (...args: string[]) => void
  HubSpotConversations?: { widget?: { open?: () => void } }
}

/** Ask whichever common provider the script installed to open its window; all are optional. */
function openProviderWidget() {
  const w = window as unknown as ProviderGlobals
  try {
    w.$crisp?.push(['do', 'chat:open'])
    w.Tawk_API?.maximize?.()
    w.Intercom?.('show')
    w.zE?.('messenger', 'open')
    w.HubSpotConversations?.widget?.open?.()
  } catch (error) {
    console.warn('Chat widget could not be opened', error)
  }
  // Any other provider can listen for this.
  window.dispatchEvent(new CustomEvent('cardlane:chat-open'))
}

/**
 * How far the button must rise to clear the screen's action bar (0 without one). Measured, since an
 * action bar may hold one button or two; CSS makes a close guess before this runs (no JavaScript).
 */
function useActionBarLift(key: string): number | null {
  const [lift, setLift] = useState<number | null>(null)
  useEffect(() => {
    const measure = () => {
      const bars = Array.from(document.querySelectorAll<HTMLElement>('.cl-actionbar')).filter((bar) => bar.getClientRects().length > 0)
      setLift(Math.ceil(Math.max(0, ...bars.map((bar) => bar.getBoundingClientRect().height))))
    }
    measure()
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null
    document.querySelectorAll('.cl-actionbar').forEach((bar) => observer?.observe(bar))
    // Screens add or drop their action bar as they change (a step of a form): look again then.
    const mutations = new MutationObserver(() => {
      observer?.disconnect()
      document.querySelectorAll('.cl-actionbar').forEach((bar) => observer?.observe(bar))
      measure()
    })
    mutations.observe(document.body, { childList: true, subtree: true })
    return () => {
      observer?.disconnect()
      mutations.disconnect()
    }
  }, [key])
  return lift
}

const FORM_BUTTONS = '.cl-button--primary, .cl-button[type="submit"]'

/**
 * True while a form's button or a primary one is under the help button (it scrolled past): the
 * help button then steps aside (CSS draws that button on top in any case, JavaScript or not).
 */
function useTuckedUnder(fab: RefObject<HTMLElement | null>): boolean {
  const [tucked, setTucked] = useState(false)
  useEffect(() => {
    let frame = 0
    const check = () => {
      frame = 0
      const el = fab.current
      if (!el) return
      const a = el.getBoundingClientRect()
      const under = Array.from(document.querySelectorAll<HTMLElement>(FORM_BUTTONS)).some((button) => {
        const b = button.getBoundingClientRect()
        return b.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
      })
      setTucked(under)
    }
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(check)
    }
    check()
    window.addEventListener('scroll', schedule, { passive: true })
    window.addEventListener('resize', schedule)
    return () => {
      cancelAnimationFrame(frame)
      window.removeEventListener('scroll', schedule)
      window.removeEventListener('resize', schedule)
    }
  })
  return tucked
}

export function ChatButton() {
  const { chatWidgetUrl } = usePublicEnv()
  const tabs = useTabBar()
  const location = useLocation()
  const lift = useActionBarLift(location.key)
  const [state, setState] = useState<LoadState>('idle')
  const busy = useRef(false)
  const fab = useRef<HTMLAnchorElement>(null)
  const tucked = useTuckedUnder(fab)
  const label = chatWidgetUrl ? M.chatButton : M.helpButton

  // Already on Help & Support, a link to it would lead nowhere; a chat still opens from there.
  if (!chatWidgetUrl && location.pathname === SUPPORT_PATH) return null

  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    if (!chatWidgetUrl) return // the link to /support
    event.preventDefault()
    if (state === 'ready') return openProviderWidget()
    if (busy.current) return
    busy.current = true
    setState('loading')
    loadScript(chatWidgetUrl)
      .then(() => {
        setState('ready')
        openProviderWidget()
      })
      .catch((error: unknown) => {
        console.warn(error)
        setState('idle')
        window.location.assign(SUPPORT_PATH) // still reach a person
      })
      .finally(() => {
        busy.current = false
      })
  }

  // A landmark of its own, so everything on the page is inside one (axe "region").
  return (
    <aside aria-label={M.helpRegion}>
      <Link
        to={SUPPORT_PATH}
        ref={fab}
        className={cx('cl-chatfab', tabs && 'cl-chatfab--tabs', state === 'loading' && 'is-loading', tucked && 'is-tucked')}
        onClick={handleClick}
        aria-label={label}
        title={label}
        aria-busy={state === 'loading' || undefined}
        data-lift={lift === null ? undefined : ''}
        style={lift === null ? undefined : ({ '--cl-chat-lift': `${lift}px` } as CSSProperties)}
      >
        <Icon name="chat" size={26} />
      </Link>
    </aside>
  )
}
