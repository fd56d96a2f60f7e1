import { accountsApi as api, type LoginBody } from '#contract/accounts'
import type { InputOf } from '#contract/endpoint'
import { callApi } from '~/utils/auth.server'
import { flowFallbacks as fallback, profileMessages } from '~/utils/messages'
import { flow } from './flow.server'

/** The account flows (SPEC §7 /auth, §8 fallbacks), one per contract call. */
type In<K extends keyof typeof api> = InputOf<(typeof api)[K]>

export const loginFlow = (request: Request, body: LoginBody) => flow(fallback.login, () => callApi(request, api.login, body))

export const loginByCodeFlow = (request: Request, body: In<'loginByCode'>) =>
  flow(fallback.login, () => callApi(request, api.loginByCode, body))

export const registerFlow = (request: Request, body: In<'register'>) => flow(fallback.register, () => callApi(request, api.register, body))

export const sendCodeFlow = (request: Request, body: In<'sendEmailCode'>) =>
  flow(fallback.sendCode, () => callApi(request, api.sendEmailCode, body))

export const resetPasswordFlow = (request: Request, body: In<'resetPassword'>) =>
  flow(fallback.resetPassword, () => callApi(request, api.resetPassword, body))

export const googleLoginFlow = (request: Request, idToken: string) =>
  flow(fallback.google, () => callApi(request, api.googleNew, { id_token: idToken }))

export const logoutFlow = (request: Request) => flow(fallback.login, () => callApi(request, api.logout, {}))

/** Links the Google account of this id_token to the signed-in person (bindAccount). */
export const bindGoogleFlow = (request: Request, idToken: string) =>
  flow(profileMessages.googleLinkFailed, () => callApi(request, api.bindAccount, { provider: 'google', id_token: idToken }))
