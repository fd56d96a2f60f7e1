import type { AppLoadContext } from '@remix-run/node'
import { accountsApi as api, type DelAccountBody } from '#contract/accounts'
import { deleteAccountMessages as M } from '~/utils/messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** Deleting the account (DESIGN §3 delAccount), one flow per contract call. */
export const delAccountInfoFlow = (request: Request, context: AppLoadContext) =>
  flow(context, M.infoFailed, () => callApi(request, context, api.delAccountInfo, {}))

export const delAccountFlow = (request: Request, context: AppLoadContext, body: DelAccountBody) =>
  flow(context, M.deleteFailed, () => callApi(request, context, api.delAccount, body))
