import { mkdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatRate, parseRate, payoutFor, type Rate } from '#contract/catalogue'
import { formatMoney } from '#contract/money'
import { expectToast, hydrated, readFirst, useBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { desktop, staffDesktop } from '../support/console-browser'
import { newEmail } from '../support/kit'
import { bearer, seedStaff } from '../support/staff'
import { requestId, walletInfo, walletUser } from '../support/wallet'

/** The dashboard and the admin desk in Chromium at 1280×800, JavaScript on and off. */
const { app, browser } = useBrowserApp()

const MIN = 100_000_000 // ADJUSTMENT_APPROVAL_MIN's default

/** A large credit asked by another admin (through the api): it waits for a second admin. */
async function askedByAnother() {
  const person = await walletUser(app.api, { balance: 0, card: false })
  const maker = await seedStaff(app.api, { role: 'admin' })
  const asked = await app.api.post(
    '/admin/wallet/adjust',
    { userId: person.userId, amount: MIN + 5_000, reason: 'Refund of a lost card', requestId: requestId() },
    { headers: bearer(maker.token) },
  )
  expect(asked.body.data).toMatchObject({ type: 'adjustment_request', status: 'pending' })
  return { person, maker }
}

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    // The plots come drawn from the loader (decision 062): after a navigation inside the page as well.
    it('the charts draw after following a link: the dashboard from the menu, a rate’s history from its row', async () => {
      const board = (await app.api.get<Rate[]>('/v1/giftcard/rates')).body.data.filter((r) => r.currency === 'USD')
      const r = board[js ? 2 : 3]!
      const admin = await seedStaff(app.api, { role: 'admin' })
      const set = await app.api.post(
        '/admin/giftcard/rate',
        { brandId: r.brandId, country: r.country, cardType: r.cardType, rate: formatRate(parseRate(r.rate)! + 10_000), confirmed: true },
        { headers: bearer(admin.token) },
      )
      expect(set.body.code, set.text).toBe(200)
      const { context, page } = await staffDesktop(browser, app, 'admin', js)
      await page.goto(`${app.url}/ops/people`)
      // With JavaScript the links navigate in the page: a mark set on the window stays.
      if (js) await hydrated(page).then(() => page.evaluate(() => Object.assign(window, { stayed: true })))
      await page.getByRole('navigation', { name: 'Desks', exact: true }).getByRole('link', { name: 'Dashboard' }).click()
      const waits = page.getByRole('img', { name: /^What waits, and how much is late/ })
      await expect.poll(() => waits.locator('rect').count()).toBeGreaterThan(0)
      expect(await waits.textContent()).toContain('Withdrawals')
      await page.getByRole('navigation', { name: 'Desks', exact: true }).getByRole('link', { name: 'Rates and ETAs' }).click()
      const row = page
        .getByRole('row')
        .filter({ has: page.getByRole('form', { name: `New rate for ${r.brandName} ${r.country} ${r.cardType}` }) })
      await row.getByRole('link', { name: 'History' }).click()
      const line = page.getByRole('img', { name: new RegExp(`^${r.brandName} ${r.country} ${r.cardType}: rate over time`) })
      await expect.poll(() => line.locator('path.visx-linepath').count()).toBe(1)
      expect(await line.locator('circle').count()).toBeGreaterThanOrEqual(2)
      expect(await page.evaluate(() => 'stayed' in window)).toBe(js)
      await context.close()
    })

    it('an admin approves a large adjustment another admin asked for; the money moves once', async () => {
      const { person, maker } = await askedByAnother()
      const { context, page, staff } = await staffDesktop(browser, app, 'admin', js)
      await page.goto(`${app.url}/ops/people/${person.userId}`)
      const row = page.getByRole('row').filter({ hasText: maker.email })
      await expect.poll(() => row.isVisible()).toBe(true)
      await row.getByRole('button', { name: 'Approve' }).click()
      await expectToast(page, 'Adjustment approved')
      await expect.poll(async () => (await walletInfo(app.api, person.token)).balance).toBe(MIN + 5_000)
      await expect.poll(() => page.getByText('Waiting for a second admin').count()).toBe(0)
      const entries = await app.api.db.selectFrom('balance_logs').selectAll().where('user_id', '=', person.userId).execute()
      expect(entries).toHaveLength(1)
      expect(staff.email).not.toBe(maker.email)
      await context.close()
    })

    it('the maker sees their own request but no Approve button', async () => {
      const { person } = await askedByAnother()
      const { context, page } = await staffDesktop(browser, app, 'admin', js)
      await page.goto(`${app.url}/ops/people`)
      await expect.poll(() => page.getByRole('row').filter({ hasText: person.email }).count()).toBe(1)
      await context.close()
    })

    it('a reviewer has no link to the admin desk, and its URL is a 403 page', async () => {
      const { context, page } = await staffDesktop(browser, app, 'reviewer', js)
      await page.goto(`${app.url}/ops`)
      const nav = page.getByRole('navigation', { name: 'Desks' })
      await expect.poll(() => nav.getByRole('link', { name: 'Dashboard' }).isVisible()).toBe(true)
      for (const name of ['People', 'Staff', 'Rates and ETAs', 'Audit log']) expect(await nav.getByRole('link', { name }).count()).toBe(0)
      const res = await page.goto(`${app.url}/ops/people`)
      expect(res?.status()).toBe(403)
      await expect
        .poll(() =>
          page
            .getByText(/403|not your desk|access/i)
            .first()
            .isVisible(),
        )
        .toBe(true)
      await context.close()
    })

    it(`disabling a staff member asks first (${js ? 'in the row' : 'on a page of its own'}), then signs them out`, async () => {
      const target = await seedStaff(app.api, { role: 'reviewer' })
      const { context, page } = await staffDesktop(browser, app, 'admin', js)
      await page.goto(`${app.url}/ops/staff`)
      const row = page.getByRole('row').filter({ hasText: target.email })
      let dialogs = 0
      page.on('dialog', () => void dialogs++)
      await row.getByRole('button', { name: 'Disable' }).click()
      const question = page.getByRole('group', { name: `Disable ${target.email}? They are signed out at once.` })
      await expect.poll(() => question.isVisible()).toBe(true)
      expect(new URL(page.url()).searchParams.get('disable')).toBe(js ? null : target.email)
      // Cancel leaves them as they were.
      await readFirst(page)
      await question.getByRole('link', { name: 'Cancel' }).click()
      await expect.poll(() => question.isVisible()).toBe(false)
      expect((await app.api.get('/staff/me', { headers: bearer(target.token) })).status).toBe(200)
      await readFirst(page)
      await row.getByRole('button', { name: 'Disable' }).click()
      await expect.poll(() => question.isVisible()).toBe(true)
      await readFirst(page)
      await question.getByRole('button', { name: 'Disable' }).click()
      await expectToast(page, `${target.email} is disabled and signed out`)
      expect(dialogs).toBe(0)
      expect((await app.api.get('/staff/me', { headers: bearer(target.token) })).status).toBe(401)
      await context.close()
    })

    it(
      'a rate ten times the one in force asks first (old → new, the change, a US$100 card), then waits for a second admin',
      { timeout: 150_000 },
      async () => {
        const board = (await app.api.get<Rate[]>('/v1/giftcard/rates')).body.data.filter((r) => r.currency === 'USD')
        const r = board[js ? 0 : 1]!
        const typo = formatRate(parseRate(r.rate)! * 10)
        const { context, page } = await staffDesktop(browser, app, 'admin', js)
        await page.goto(`${app.url}/ops/rates`)
        const form = page.getByRole('form', { name: `New rate for ${r.brandName} ${r.country} ${r.cardType}` })
        await readFirst(page)
        await form.getByLabel('New rate').fill(typo)
        await form.getByRole('button', { name: 'Save' }).click()
        const step = page.getByRole('alertdialog', { name: /^Check this rate/ })
        await expect.poll(() => step.isVisible()).toBe(true)
        const text = await step.innerText()
        expect(text).toContain(`${r.rate} → ${typo}`)
        expect(text).toContain('+900.00 %')
        expect(text).toContain(`A US$100.00 card pays`)
        expect(text).toContain(formatMoney(payoutFor(10_000, typo, 'USD', r.payoutCurrency), r.payoutCurrency))
        if (js) await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('rate-check-title')
        const dir = process.env.SCREENSHOT_DIR ?? 'test-results/ops-admin'
        mkdirSync(dir, { recursive: true })
        await page.screenshot({ path: `${dir}/rates-check-1280-js-${js ? 'on' : 'off'}.png` })
        // axe runs in the page: with JavaScript on only.
        if (js) expect(await axeViolations(page, { scope: 'body' })).toEqual([])
        await readFirst(page)
        await step.getByRole('button', { name: `Confirm ${typo}` }).click()
        await expectToast(page, 'waits for a second admin')
        const rateNow = async () =>
          (await app.api.get<Rate[]>(`/v1/giftcard/rates?brandId=${r.brandId}&country=${r.country}&cardType=${r.cardType}`)).body.data[0]!
            .rate
        expect(await rateNow()).toBe(r.rate)
        const mine = page.getByRole('row').filter({ hasText: typo })
        await expect.poll(() => mine.getByText('Another admin must approve').isVisible()).toBe(true)
        await context.close()

        const checker = await staffDesktop(browser, app, 'admin', js)
        await checker.page.goto(`${app.url}/ops/rates`)
        await checker.page.getByRole('row').filter({ hasText: typo }).getByRole('button', { name: 'Approve' }).click()
        await expectToast(checker.page, 'is in force')
        expect(await rateNow()).toBe(typo)
        await checker.context.close()
      },
    )

    it('an admin invites a staff member and the set-up link opens the set-up page', async () => {
      const { context, page } = await staffDesktop(browser, app, 'admin', js)
      await page.goto(`${app.url}/ops/staff`)
      const email = newEmail('invitee')
      await page.getByLabel('E-mail').fill(email)
      await page.getByLabel('Role of the new staff member').selectOption('payouts')
      await page.getByRole('button', { name: 'Invite' }).click()
      const box = page.getByRole('status').filter({ hasText: `${email} is invited` })
      await expect.poll(() => box.isVisible()).toBe(true)
      const link = await box.getByRole('link').getAttribute('href')
      expect(link).toMatch(/^\/ops\/setup\//)
      await expect.poll(() => page.getByRole('row').filter({ hasText: email }).isVisible()).toBe(true)
      const other = await desktop(browser, js)
      await other.page.goto(`${app.url}${link}`)
      await expect.poll(() => other.page.getByRole('heading', { name: 'Set up your console account' }).isVisible()).toBe(true)
      await expect.poll(() => other.page.getByText(email).first().isVisible()).toBe(true)
      await other.context.close()
      await context.close()
    })
  })
}

describe('every page of the dashboard and the admin desk', () => {
  it('axe reports nothing, no console error; screenshots at 1280×800 (the dashboard also at 390)', { timeout: 180_000 }, async () => {
    const dir = process.env.SCREENSHOT_DIR ?? 'test-results/ops-admin'
    mkdirSync(dir, { recursive: true })
    const { person } = await askedByAnother()
    // A request like another waiting one, and an admin nobody confirmed yet.
    const { person: twin, maker } = await askedByAnother()
    await app.api.post(
      '/admin/wallet/adjust',
      { userId: twin.userId, amount: MIN + 5_000, reason: 'Refund of a lost card', requestId: requestId() },
      { headers: bearer(maker.token) },
    )
    await seedStaff(app.api, { role: 'admin', confirmed: false, email: newEmail('new-admin') })
    const { context, page } = await staffDesktop(browser, app, 'admin', true)
    const found: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 404/.test(m.text())) found.push(`console: ${m.text().slice(0, 200)}`)
    })
    const pages = [
      ['dashboard', '/ops'],
      ['rates', '/ops/rates?history=apple%3AUS%3Aecode#history'],
      ['people', '/ops/people'],
      ['person', `/ops/people/${person.userId}`],
      ['staff', '/ops/staff'],
      ['audit', '/ops/audit'],
    ] as const
    for (const [name, path] of pages) {
      await page.goto(`${app.url}${path}`)
      found.push(...(await axeViolations(page, { scope: 'body' })).map((v) => `${name} ${v}`))
      await page.screenshot({ path: `${dir}/${name}-1280.png`, fullPage: true })
    }
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${app.url}/ops`)
    await page.screenshot({ path: `${dir}/dashboard-390.png`, fullPage: true })
    found.push(...(await axeViolations(page, { scope: 'body' })).map((v) => `dashboard-390 ${v}`))
    expect(found, found.join('\n')).toEqual([])
    await context.close()
  })
})
