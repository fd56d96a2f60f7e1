import { useRouteLoaderData } from '@remix-run/react'
import { DEFAULT_BRAND_NAME, DEFAULT_SUPPORT_EMAIL } from '#contract/brand'
import type { loader as rootLoader } from '~/root'
import type { PublicEnv } from './env.server'

/**
 * The root loader's data, read only through these hooks (Epic Stack `app/utils/user.ts`): the
 * signed-in person once per page (one /v1/user/index call, made by the root) and the public
 * settings. Screens never call useRouteLoaderData('root') themselves.
 */
type RootData = NonNullable<ReturnType<typeof useRouteLoaderData<typeof rootLoader>>>
export type User = NonNullable<RootData['user']>

/** What a page shows when the root's data is missing (the root's own error page). */
const FALLBACK_ENV: PublicEnv = {
  brandName: DEFAULT_BRAND_NAME,
  chatWidgetUrl: null,
  supportEmail: DEFAULT_SUPPORT_EMAIL,
  googleEnabled: false,
}

function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof rootLoader>('root') ?? undefined
}

/** The signed-in person, or null (signed out, or the api could not be reached). */
export function useOptionalUser(): User | null {
  return useRootData()?.user ?? null
}

/**
 * The signed-in person, for screens whose loader guards with requireToken. The root answers 503
 * (or sends the person to /login) before such a screen renders without one, so a missing user
 * here is a bug in the route, not a state to draw.
 */
export function useUser(): User {
  const user = useOptionalUser()
  if (!user) throw new Error('useUser() on a screen without a signed-in person: guard its loader with requireToken')
  return user
}

/** True for a session that holds a token, even while the api cannot say who it belongs to. */
export function useSignedIn(): boolean {
  return useRootData()?.signedIn ?? false
}

/** True on the first page after sign-up: the screens greet a new person as new. */
export function useWelcome(): boolean {
  return useRootData()?.welcome ?? false
}

/** The settings the browser may know (brand, support e-mail, chat widget, Google sign-in). */
export function usePublicEnv(): PublicEnv {
  return useRootData()?.env ?? FALLBACK_ENV
}
