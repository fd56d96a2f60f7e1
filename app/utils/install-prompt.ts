// The browser's offer to install the app (Chromium's beforeinstallprompt), caught from the first
// page on, as it may come before the Download page is open; that page's Install button shows only
// while there is one. Not prevented: the browser's own install hint stays as it is.
import { useSyncExternalStore } from 'react'

type InstallPromptEvent = Event & { prompt(): Promise<unknown>; userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }> }
export type InstallState = 'unavailable' | 'ready' | 'installed'

let offer: InstallPromptEvent | null = null
let installed = false
const listeners = new Set<() => void>()
const changed = () => listeners.forEach((listener) => listener())

export function listenForInstallPrompt() {
  window.addEventListener('beforeinstallprompt', (event) => {
    offer = event as InstallPromptEvent
    changed()
  })
  window.addEventListener('appinstalled', () => {
    offer = null
    installed = true
    changed()
  })
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
const snapshot = (): InstallState => (installed ? 'installed' : offer ? 'ready' : 'unavailable')

/** The install offer's state, and the prompt (an offer is used once, whatever the answer). */
export function useInstallPrompt(): { state: InstallState; install(): Promise<void> } {
  const state = useSyncExternalStore(subscribe, snapshot, () => 'unavailable' as const)
  return {
    state,
    async install() {
      const current = offer
      if (!current) return
      offer = null
      await current.prompt()
      await current.userChoice.catch(() => undefined)
      changed()
    },
  }
}
