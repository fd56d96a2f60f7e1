import type { Request } from 'express'
import { accountsApi as api, type CodeType } from '#contract/accounts'
import type { ApiDeps } from '../deps'
import { clientKey } from '../lib/client-address'
import { contractRouter } from '../lib/route'
import { placesOf } from '../lib/sign-in-place'
import { presentedToken } from '../middleware/auth'
import { loginFailLimiter } from '../middleware/rate-limit'
import * as accountDeletion from '../services/account-deletion'
import * as accounts from '../services/accounts'
import * as google from '../services/google'

/** Where the caller is: its device and address (api/lib/sign-in-place.ts). */
const callerOf = (req: Request): accounts.Caller => ({ places: placesOf(req), address: clientKey(req.ip) })

/** SPEC §7 and DESIGN §3: /auth/* — sign-in, registration, codes, password reset, Google, logout. */
export function accountsRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.login, ({ input, req }) => accounts.login(deps, input, callerOf(req)), loginFailLimiter(deps))
  bind(api.register, ({ input, req }) => accounts.register(deps, input, callerOf(req)))
  // The schema allows types 1–5 only.
  bind(api.sendEmailCode, ({ input, user, req }) =>
    accounts.sendEmailCode(deps, { ...input, type: input.type as CodeType }, user, callerOf(req)),
  )
  bind(api.checkEmailCode, ({ input, user }) => accounts.checkEmailCode(deps, { ...input, type: input.type as CodeType }, user))
  bind(api.resetPassword, ({ input }) => accounts.resetPassword(deps, input))
  bind(api.loginByCode, ({ input, req }) => accounts.loginByCode(deps, input, callerOf(req)))
  bind(api.google, async ({ input, req }) => (await accounts.googleSignIn(deps, input.id_token, callerOf(req))).token)
  bind(api.googleNew, ({ input, req }) => accounts.googleSignIn(deps, input.id_token, callerOf(req)))
  bind(api.logout, ({ req }) => accounts.logout(deps, presentedToken(req)))
  bind(api.bindAccount, ({ user, input }) => google.bindGoogle(deps, user, input.id_token))
  bind(api.delAccountInfo, ({ user }) => accountDeletion.delAccountInfo(deps, user))
  bind(api.delAccount, ({ user, input }) => accountDeletion.delAccount(deps, user, input))
  return router
}
