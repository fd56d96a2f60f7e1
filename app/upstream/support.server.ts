import { supportApi as api } from '#contract/support'
import { callApi } from '~/utils/auth.server'
import { supportMessages as M } from '~/utils/messages'
import { flow } from './flow.server'

/** The public settings Help & Support quotes (/v1/support/info), as the Withdraw screen applies them. */
export const supportInfoFlow = (request: Request) => flow(M.infoFailed, () => callApi(request, api.info, {}))
