// Small helpers the components share. They live here (not in app/utils) because only the UI needs them:
// `useHydrated` lets a component render its no-JavaScript form on the server and during hydration,
// then enhance; `useBrandName`/`useSupportEmail` read the root loader without importing its types;
// `cx` joins class names.
import { useRouteLoaderData } from '@remix-run/react'
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

/** A string from the root loader's data, top level or under `env` (public settings). */
function useRootString(key: string): string | undefined {
  const data = useRouteLoaderData('root') as { env?: Record<string, unknown> } & Record<string, unknown> | undefined
  for (const value of [data?.[key], data?.env?.[key]]) {
    if (typeof value === 'string' && value.trim()) return value
  }
  return undefined
}

/** The configurable brand (BRAND_NAME), from the root loader; 'Cardlane' when absent. */
export function useBrandName(): string {
  return useRootString('brandName') ?? 'Cardlane'
}

/** The support e-mail from the root loader, when it provides one. */
export function useSupportEmail(): string | undefined {
  return useRootString('supportEmail')
}

/** Join class names, skipping empty ones. */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ')
}
