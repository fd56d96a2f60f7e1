import type { AppLoadContext } from '@remix-run/node'
import { supportApi as api } from '#contract/support'
import { supportMessages as M } from '~/utils/shell-messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** The public settings Help & Support quotes (/v1/support/info), as the Withdraw screen applies them. */
export const supportInfoFlow = (request: Request, context: AppLoadContext) =>
  flow(context, M.infoFailed, () => callApi(request, context, api.info, {}))
