import { Router } from 'express'
import { setInfoBody, type SetInfoData, type UserIndexData } from '#contract/user'
import type { ApiDeps } from '../deps'
import { handle, unauthorized } from '../lib/envelope'
import { parseInput } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { toUserInfo, updateProfile } from '../models/users'

/** /v1/user/*: the signed-in user's own data. Later issues add PIN, balance log, messages, tasks. */
export function userRoutes(deps: ApiDeps): Router {
  const r = Router()

  r.get(
    '/v1/user/index',
    handle(async (req): Promise<UserIndexData> => {
      const user = await requireUser(deps, req)
      return { userInfo: toUserInfo(user), taskInfos: [], giftCardList: [], unreadCount: 0 }
    }),
  )

  r.post(
    '/v1/user/setInfo',
    handle(async (req): Promise<SetInfoData> => {
      const user = await requireUser(deps, req)
      const body = parseInput(setInfoBody, req.body)
      const updated = await updateProfile(
        deps.db,
        user.id,
        {
          ...(body.userName !== undefined && { user_name: body.userName }),
          ...(body.headImg !== undefined && { head_img: body.headImg }),
        },
        deps.now(),
      )
      if (!updated) throw unauthorized() // the account went away mid-request
      return toUserInfo(updated)
    }),
  )

  return r
}
