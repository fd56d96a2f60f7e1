import { describe, expect, it } from 'vitest'
import { STAFF_ROLES, type Endpoint } from '#contract/endpoint'
import { deskAuth, OPS_DESKS, type DeskName } from '#contract/ops/desks'
import { opsMoneyApi, opsPayoutsApi } from '#contract/ops/money'
import { payoutDeskApi } from '#contract/ops/payouts'
import { peopleDeskApi } from '#contract/ops/people'
import { reviewDeskApi } from '#contract/ops/review'
import { staffDeskApi } from '#contract/ops/staff'
import { supportDeskApi } from '#contract/ops/support'
import { opsNav } from '~/ops/desks'
import * as dashboard from '~/ops/routes/ops._index'
import * as audit from '~/ops/routes/ops.audit'
import * as payouts from '~/ops/routes/ops.payouts'
import * as people from '~/ops/routes/ops.people'
import * as rates from '~/ops/routes/ops.rates'
import * as review from '~/ops/routes/ops.review._index'
import * as staffDesk from '~/ops/routes/ops.staff'
import * as support from '~/ops/routes/ops.support'
import { staffJar } from '../support/console'
import { useSellingApi } from '../support/selling'
import { bearer } from '../support/staff'
import { load } from '../support/web'

/**
 * One desk table (contract/ops/desks.ts, decision 047) is read three times: the console's menu, the
 * page guard and the api's role of each desk's calls. For every desk and every role, the menu shows
 * the desk exactly when its page opens and exactly when the api answers its calls (no 403).
 */
const api = useSellingApi({ web: true })

/** Each desk's page and the api calls it makes (its loader's and its forms'). */
const desks: Record<DeskName, { loader: unknown; calls: Endpoint[] }> = {
  dashboard: { loader: dashboard.loader, calls: [peopleDeskApi.dashboard] },
  review: { loader: review.loader, calls: [reviewDeskApi.queue, reviewDeskApi.claim, reviewDeskApi.detail] },
  payouts: {
    loader: payouts.loader,
    calls: [
      opsMoneyApi.withdrawals,
      opsMoneyApi.updateWithdrawal,
      opsMoneyApi.approveWithdrawal,
      opsPayoutsApi.attention,
      opsPayoutsApi.finalizeOtp,
      opsPayoutsApi.resolveConflict,
      payoutDeskApi.revealAccount,
    ],
  },
  rates: { loader: rates.loader, calls: [reviewDeskApi.pendingRateChanges, reviewDeskApi.rateHistory, reviewDeskApi.setRate] },
  people: { loader: people.loader, calls: [peopleDeskApi.findPeople, opsMoneyApi.pendingAdjustments, opsMoneyApi.adjust] },
  staff: { loader: staffDesk.loader, calls: [staffDeskApi.list, staffDeskApi.invite, staffDeskApi.reset, staffDeskApi.role] },
  audit: { loader: audit.loader, calls: [staffDeskApi.audit] },
  support: { loader: support.loader, calls: [supportDeskApi.list, supportDeskApi.reply] },
}

describe('the desk table: menu ⇔ page ⇔ api', () => {
  for (const role of STAFF_ROLES) {
    it(`a ${role} sees in the menu exactly the desks whose page opens and whose api answers`, async () => {
      const { jar, staff } = await staffJar(api, role)
      const menu = opsNav(role).map((r) => r.path)
      const headers = bearer(staff.token)
      for (const [name, desk] of Object.entries(OPS_DESKS) as [DeskName, (typeof OPS_DESKS)[DeskName]][]) {
        const shown = menu.includes(desk.path)
        const page = await load(desks[name].loader, desk.path, jar)
        expect(page.status, `${role} opens ${desk.path}`).toBe(shown ? 200 : 403)
        for (const call of desks[name].calls) {
          // An empty input: a role the api refuses is a 403 before the input is read, any other answer is not.
          const answer = call.method === 'GET' ? await api.get(call.path, { headers }) : await api.post(call.path, {}, { headers })
          expect(answer.status === 403, `${role} calls ${call.method} ${call.path} for ${desk.path}`).toBe(!shown)
        }
      }
    })
  }

  it('every desk call takes its role from the table (or is automation: an admin or the break-glass token)', () => {
    for (const [name, desk] of Object.entries(desks) as [DeskName, (typeof desks)[DeskName]][]) {
      for (const call of desk.calls) {
        const expected = OPS_DESKS[name].role === 'admin' ? [deskAuth(name), 'automation'] : [deskAuth(name)]
        expect(expected, `${call.path} on the ${name} desk`).toContain(call.auth)
      }
    }
  })
})
