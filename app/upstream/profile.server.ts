import { profileApi as api, type SetInfoBody } from '#contract/profile'
import { callApi } from '~/utils/auth.server'
import { flowFallbacks as fallback } from '~/utils/messages'
import { flow } from './flow.server'

/** The signed-in person's profile (SPEC §7 /v1/user/setInfo; the index is read by auth.server). */
export const updateProfileFlow = (request: Request, body: SetInfoBody) =>
  flow(fallback.updateProfile, () => callApi(request, api.setInfo, body))
