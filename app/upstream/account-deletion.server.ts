import { accountsApi as api, type DelAccountBody } from '#contract/accounts'
import { callApi } from '~/utils/auth.server'
import { deleteAccountMessages as M } from '~/utils/messages'
import { flow } from './flow.server'

/** Deleting the account (DESIGN §3 delAccount), one flow per contract call. */
export const delAccountInfoFlow = (request: Request) => flow(M.infoFailed, () => callApi(request, api.delAccountInfo, {}))

export const delAccountFlow = (request: Request, body: DelAccountBody) => flow(M.deleteFailed, () => callApi(request, api.delAccount, body))
