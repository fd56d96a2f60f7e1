import { accountsApi as api, type CodeType } from '#contract/accounts'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import { presentedToken } from '../middleware/auth'
import { loginFailLimiter } from '../middleware/rate-limit'
import * as accountDeletion from '../services/account-deletion'
import * as accounts from '../services/accounts'
import * as google from '../services/google'

/** SPEC §7 and DESIGN §3: /auth/* — sign-in, registration, codes, password reset, Google, logout. */
export function accountsRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.login, ({ input }) => accounts.login(deps, input), loginFailLimiter(deps))
  bind(api.register, ({ input }) => accounts.register(deps, input))
  // The schema allows types 1–5 only.
  bind(api.sendEmailCode, ({ input, user, req }) =>
    accounts.sendEmailCode(deps, { ...input, type: input.type as CodeType }, user, req.ip ?? 'unknown'),
  )
  bind(api.checkEmailCode, ({ input, user }) => accounts.checkEmailCode(deps, { ...input, type: input.type as CodeType }, user))
  bind(api.resetPassword, ({ input }) => accounts.resetPassword(deps, input))
  bind(api.loginByCode, ({ input }) => accounts.loginByCode(deps, input))
  bind(api.google, async ({ input }) => (await accounts.googleSignIn(deps, input.id_token)).token)
  bind(api.googleNew, ({ input }) => accounts.googleSignIn(deps, input.id_token))
  bind(api.logout, ({ req }) => accounts.logout(deps, presentedToken(req)))
  bind(api.bindAccount, ({ user, input }) => google.bindGoogle(deps, user, input.id_token))
  bind(api.delAccountInfo, ({ user }) => accountDeletion.delAccountInfo(deps, user))
  bind(api.delAccount, ({ user, input }) => accountDeletion.delAccount(deps, user, input))
  return router
}
