import { reviewDeskApi } from '#contract/ops/review'
import { uploadsApi as api } from '#contract/uploads'
import { contractRouter } from '../lib/route'
import type { SellingDeps } from '../lib/selling-deps'
import * as uploads from '../services/uploads'

/**
 * Photos in (multipart: mounted before the api's JSON-only rule, see api/app.ts) and out (bytes,
 * to the owner; to operators under /admin).
 */
/** The handler wrote the image bytes to the response itself: there is no envelope `data` to return. */
const streamed = () => undefined as never

export function uploadsRoutes(deps: SellingDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.upload, ({ user, req, res }) => uploads.uploadPhoto(deps, { userId: user.id }, req, res))
  bind(api.file, ({ user, input, res }) => uploads.readOwnPhoto(deps, user.id, input.id, res).then(streamed))
  bind(api.avatar, ({ user, req, res }) => uploads.uploadPhoto(deps, { userId: user.id }, req, res, 'avatar'))
  bind(api.avatarFile, ({ user, input, res }) => uploads.readOwnAvatar(deps, user.id, input.id, res).then(streamed))
  bind(reviewDeskApi.upload, ({ actor, req, res }) => uploads.uploadPhoto(deps, { operator: actor }, req, res))
  bind(reviewDeskApi.file, ({ input, res }) => uploads.readAnyPhoto(deps, input.id, res).then(streamed))
  return router
}
