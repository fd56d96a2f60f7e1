import type { GoogleNewData } from '#contract/auth'
import type { UserInfo } from '#contract/user'
import { apiPost } from './auth.server'
import { logger } from './logger.server'
import { flowFallbacks } from './messages'
import { UpstreamError } from './upstream.server'

/**
 * The account flows of SPEC §8: each answers {success:false, msg} with the server's msg,
 * or the thrown error's message, or the flow's own fallback. Expiry is not a flow failure:
 * apiPost throws the redirect to /login for it.
 */
export type FlowResult<T> = { success: true; data: T } | { success: false; msg: string }

async function flow<T>(fallback: string, run: () => Promise<T>): Promise<FlowResult<T>> {
  try {
    return { success: true, data: await run() }
  } catch (error) {
    if (error instanceof Response) throw error
    // Anything but the api's answer is our bug, not the user's: log it.
    if (!(error instanceof UpstreamError)) logger.error({ err: error }, 'flow failed')
    const message = error instanceof Error ? error.message.trim() : ''
    return { success: false, msg: message || fallback }
  }
}

const data = async <T>(p: Promise<{ data: T }>) => (await p).data

export const loginFlow = (request: Request, body: { email: string; password: string }) =>
  flow(flowFallbacks.login, () => data(apiPost<string>(request, '/auth/login', body)))

export const loginByCodeFlow = (request: Request, body: { email: string; verifyCode: string }) =>
  flow(flowFallbacks.login, () => data(apiPost<string>(request, '/auth/loginByCode', body)))

export const registerFlow = (request: Request, body: { email: string; password: string; verifyCode: string }) =>
  flow(flowFallbacks.register, () => data(apiPost<string>(request, '/auth/register', body)))

export const sendCodeFlow = (request: Request, body: { email: string; type: number }) =>
  flow(flowFallbacks.sendCode, () => data(apiPost<null>(request, '/auth/sendEmailCode', body)))

export const checkCodeFlow = (request: Request, body: { email: string; type: number; verifyCode: string }) =>
  flow(flowFallbacks.resetPassword, () => data(apiPost<null>(request, '/auth/checkEmailCode', body)))

export const resetPasswordFlow = (request: Request, body: { email: string; password: string; verifyCode: string }) =>
  flow(flowFallbacks.resetPassword, () => data(apiPost<null>(request, '/auth/resetPassword', body)))

export const updateProfileFlow = (request: Request, body: { userName?: string; headImg?: string | null }) =>
  flow(flowFallbacks.updateProfile, () => data(apiPost<UserInfo>(request, '/v1/user/setInfo', body)))

export const googleLoginFlow = (request: Request, idToken: string) =>
  flow(flowFallbacks.google, () => data(apiPost<GoogleNewData>(request, '/auth/googleNew', { id_token: idToken })))

export const logoutFlow = (request: Request) =>
  flow(flowFallbacks.login, () => data(apiPost<null>(request, '/auth/logout', {})))
