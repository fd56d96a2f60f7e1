// The "talk to us" button (SPEC §2 "Shell": a customer-chat widget), at the end of every screen's
// top bar: inside the page's banner landmark, and never over a form's button the way a floating
// button would be on a small phone. It is a real mailto: link to support, so it works without
// JavaScript and when no chat provider is configured. With a widget URL (CHAT_WIDGET_URL) a click
// loads the provider's script — only then, so no third-party code runs for people who never ask
// for help — and asks it to open its chat window.
import { useState, type MouseEvent } from 'react'
import { usePublicEnv } from '~/utils/user'
import { Icon } from './icon'
import { cx } from './ui'

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
    scriptPromise = null // let a later click try again
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

export function ChatButton() {
  const env = usePublicEnv()
  const widgetUrl = env.chatWidgetUrl ?? undefined
  const supportEmail = env.supportEmail
  const [state, setState] = useState<LoadState>('idle')
  const mailto = `mailto:${supportEmail}`

  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    if (!widgetUrl) return // plain mailto link
    event.preventDefault()
    if (state === 'ready') return openProviderWidget()
    if (state === 'loading') return
    setState('loading')
    loadScript(widgetUrl)
      .then(() => {
        setState('ready')
        openProviderWidget()
      })
      .catch((error: unknown) => {
        console.warn(error)
        setState('idle')
        window.location.href = mailto // still reach a person
      })
  }

  return (
    <a
      href={mailto}
      className={cx('cl-icon-button', 'cl-chat', state === 'loading' && 'is-loading')}
      onClick={handleClick}
      aria-label={widgetUrl ? 'Chat with support' : `E-mail support (${supportEmail})`}
      title={widgetUrl ? 'Chat with support' : 'E-mail support'}
      aria-busy={state === 'loading' || undefined}
    >
      <Icon name="chat" size={24} />
    </a>
  )
}
