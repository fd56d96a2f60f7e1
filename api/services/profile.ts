import type { SetInfoBody, SetInfoData, UserIndexData } from '#contract/profile'
import type { User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { unauthorized } from '../lib/envelope'
import { toUserInfo, updateProfile } from '../models/users'

/** The signed-in person's own profile: what /v1/user/index shows and setInfo changes. */
export async function userIndex(_deps: ApiDeps, user: User): Promise<UserIndexData> {
  return { userInfo: toUserInfo(user), taskInfos: [], giftCardList: [], unreadCount: 0 }
}

export async function setInfo(deps: ApiDeps, user: User, body: SetInfoBody): Promise<SetInfoData> {
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
}
