// Small helpers the components share. They live here (not in app/utils) because only the UI needs them:
// `useHydrated` lets a component render its no-JavaScript form on the server and during hydration,
// then enhance; `cx` joins class names. Root data (user, settings) comes from utils/user.ts.
import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/** False on the server and during hydration, true once React runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}

/** Join class names, skipping empty ones. */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ')
}
