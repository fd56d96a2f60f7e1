import type { AppLoadContext } from '@remix-run/node'
import { accountsApi as api, type LoginBody } from '#contract/accounts'
import type { InputOf } from '#contract/endpoint'
import { flowFallbacks as fallback, profileMessages } from '~/utils/messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** The account flows (SPEC §7 /auth, §8 fallbacks), one per contract call. */
type In<K extends keyof typeof api> = InputOf<(typeof api)[K]>

export const loginFlow = (request: Request, context: AppLoadContext, body: LoginBody) =>
  flow(context, fallback.login, () => callApi(request, context, api.login, body))

export const loginByCodeFlow = (request: Request, context: AppLoadContext, body: In<'loginByCode'>) =>
  flow(context, fallback.login, () => callApi(request, context, api.loginByCode, body))

export const registerFlow = (request: Request, context: AppLoadContext, body: In<'register'>) =>
  flow(context, fallback.register, () => callApi(request, context, api.register, body))

export const sendCodeFlow = (request: Request, context: AppLoadContext, body: In<'sendEmailCode'>) =>
  flow(context, fallback.sendCode, () => callApi(request, context, api.sendEmailCode, body))

export const resetPasswordFlow = (request: Request, context: AppLoadContext, body: In<'resetPassword'>) =>
  flow(context, fallback.resetPassword, () => callApi(request, context, api.resetPassword, body))

export const googleLoginFlow = (request: Request, context: AppLoadContext, idToken: string) =>
  flow(context, fallback.google, () => callApi(request, context, api.googleNew, { id_token: idToken }))

export const logoutFlow = (request: Request, context: AppLoadContext) =>
  flow(context, fallback.login, () => callApi(request, context, api.logout, {}))

/** Links the Google account of this id_token to the signed-in person (bindAccount). */
export const bindGoogleFlow = (request: Request, context: AppLoadContext, idToken: string) =>
  flow(context, profileMessages.googleLinkFailed, () =>
    callApi(request, context, api.bindAccount, { provider: 'google', id_token: idToken }),
  )
