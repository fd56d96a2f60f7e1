// The chat provider's script and the call that opens its window (chat-button.tsx): imported on
// the help button's first tap with a provider set, so no screen's first visit carries them.

let scriptPromise: Promise<void> | null = null

export function loadScript(src: string): Promise<void> {
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
export function openProviderWidget() {
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
