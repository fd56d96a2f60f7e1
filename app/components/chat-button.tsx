// The help button (SPEC §2 "Shell": a customer-chat widget), on every screen: an icon in the top
// bar, beside the bell. It used to float over the content, bottom right; wherever it floated it
// covered something on some screen (a fee, a payout, a Sell button), so it sits in the bar, which
// covers nothing. TopBar renders it when a screen puts nothing else there.
//
// It is a real link to /support (Help & Support: the support e-mail and the common answers), so it
// works without JavaScript. With a chat provider (CHAT_WIDGET_URL) a tap loads the provider's script
// — only then, so no third-party code runs for people who never ask for help — and asks it to open
// its window; if the script cannot load, the tap goes to /support after all.
import { useLocation } from '@remix-run/react'
import { useRef, useState, type MouseEvent } from 'react'
import { supportMessages as M } from '~/utils/shell-messages'
import { usePublicEnv } from '~/utils/user'
import { Icon } from './icon'
import { Link } from './link'
import { cx } from './ui'

export const SUPPORT_PATH = '/support'

type LoadState = 'idle' | 'loading' | 'ready'

/** The provider's loader, fetched on the first tap (chat-widget.ts). */
const loadWidget = () => import('./chat-widget')

export function ChatButton() {
  const { chatWidgetUrl } = usePublicEnv()
  const location = useLocation()
  const [state, setState] = useState<LoadState>('idle')
  const busy = useRef(false)
  const label = chatWidgetUrl ? M.chatButton : M.helpButton

  // Already on Help & Support, a link to it would lead nowhere; a chat still opens from there.
  if (!chatWidgetUrl && location.pathname === SUPPORT_PATH) return null

  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    if (!chatWidgetUrl) return // the link to /support
    event.preventDefault()
    if (busy.current) return
    busy.current = true
    if (state !== 'ready') setState('loading')
    loadWidget()
      .then(async ({ loadScript, openProviderWidget }) => {
        await loadScript(chatWidgetUrl)
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

  return (
    <Link
      to={SUPPORT_PATH}
      className={cx('cl-icon-button', 'cl-chat', state === 'loading' && 'is-loading')}
      onClick={handleClick}
      aria-label={label}
      title={label}
      aria-busy={state === 'loading' || undefined}
    >
      <Icon name="chat" size={24} />
    </Link>
  )
}
