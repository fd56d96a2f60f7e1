import { staffDeskApi, staffApi as api } from '#contract/ops/staff'
import { contractRouter } from '../../lib/route'
import type { SellingDeps } from '../../lib/selling-deps'
import { staffLoginFailLimiter } from '../../middleware/rate-limit'
import { bearerOf } from '../../middleware/staff'
import * as staff from '../../services/ops/staff'

/** /staff/*: staff sign-in and set-up; /admin/staff/* and /admin/audit/*: admins manage staff, read the log. */
export function staffRoutes(deps: SellingDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.login, ({ input }) => staff.login(deps, input), staffLoginFailLimiter(deps))
  bind(api.verify, ({ input }) => staff.verify(deps, input))
  bind(api.logout, async ({ req }) => {
    await staff.logout(deps, bearerOf(req))
    return null
  })
  bind(api.me, async ({ staff: me }) => staff.toStaffMember(me))
  bind(api.setupStart, ({ input }) => staff.setupStart(deps, input))
  bind(api.setupComplete, ({ input }) => staff.setupComplete(deps, input))
  bind(staffDeskApi.invite, ({ actor, staff: me, input }) => staff.invite(deps, { actor, staff: me }, input))
  bind(staffDeskApi.list, () => staff.listStaff(deps))
  bind(staffDeskApi.role, ({ actor, staff: me, input }) => staff.changeRole(deps, { actor, staff: me }, input))
  bind(staffDeskApi.disable, ({ actor, staff: me, input }) => staff.disable(deps, { actor, staff: me }, input))
  bind(staffDeskApi.reset, ({ actor, staff: me, input }) => staff.reset(deps, { actor, staff: me }, input))
  bind(staffDeskApi.audit, ({ input }) => staff.auditLog(deps, input))
  bind(staffDeskApi.confirm, ({ actor, staff: me, input }) => staff.confirm(deps, { actor, staff: me }, input))
  return router
}
