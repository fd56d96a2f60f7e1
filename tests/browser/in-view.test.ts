import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hydrated, phone, readFirst, signedInPhone, signIn, useSellingBrowserApp } from '../support/app'
import { chooseBank, GTBANK } from '../support/bank-picker'
import { newCode, ops, sold } from '../support/selling'
import { admin, validNuban, walletUser, withdraw } from '../support/wallet'

/**
 * What a person needs is where they can see it: a refusal in view and focused (not under the
 * sticky Sell bar), nothing under the help button on any screen, and the Withdraw limits said while
 * typing. Debian Chromium, phones of 390×844 and 320×568, the production build and the real api.
 */
const { app, browser } = useSellingBrowserApp('in-view')

const SIZES = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
]

/**
 * The app behind a proxy that sends each page drawn after a post (JavaScript off) in two pieces:
 * up to the sticky action bar, then, a moment later, the rest; as a slow network or a busy phone
 * delivers or parses it. A refusal scrolled to only while the page still ends at it lands under
 * the bar once the rest arrives.
 */
function useSlowAnswers() {
  let server: Server | undefined
  let url = ''
  beforeAll(async () => {
    server = createServer((req, res) => {
      const headers = { ...req.headers, 'accept-encoding': 'identity' }
      const upstream = request(`${app.url}${req.url}`, { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        if (req.method !== 'POST' || !String(answer.headers['content-type']).startsWith('text/html')) return answer.pipe(res)
        const parts: Buffer[] = []
        answer.on('data', (part: Buffer) => parts.push(part))
        answer.on('end', () => {
          const page = Buffer.concat(parts)
          const bar = page.indexOf('class="cl-actionbar')
          const cut = bar < 0 ? page.length : page.lastIndexOf('<', bar)
          res.write(page.subarray(0, cut))
          setTimeout(() => res.end(page.subarray(cut)), 1500)
        })
      })
      req.pipe(upstream)
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    url = `http://localhost:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))
  return () => url
}
const slowUrl = useSlowAnswers()

/** Where the alert is against the viewport and the sticky bars, and whether it (or what is in it) has the focus. */
async function placeOf(page: Page) {
  return page.evaluate(() => {
    const alert = document.querySelector('form [role="alert"]')!
    const box = alert.getBoundingClientRect()
    const top = document.querySelector('header.cl-topbar')!.getBoundingClientRect().bottom
    const bars = Array.from(document.querySelectorAll('.cl-actionbar')).map((b) => b.getBoundingClientRect().top)
    const bottom = Math.min(window.innerHeight, ...bars)
    return {
      top: box.top,
      bottom: box.bottom,
      visibleFrom: top,
      visibleTo: bottom,
      focused: alert.contains(document.activeElement),
      id: alert.id,
    }
  })
}

/**
 * After the submit: the answer's page whole and loaded, then where the refusal settles: focused,
 * below the top bar, above the actions. The address bar names the refusal without JavaScript (the
 * fragment that brings it into view), and nothing more with it.
 */
async function expectRefusalInView(page: Page, js: boolean, shot: string) {
  await page.locator('form [role="alert"]').waitFor()
  await page.locator('.cl-actionbar').first().waitFor()
  await page.waitForLoadState('load')
  await expect.poll(() => placeOf(page).then((p) => p.focused && p.top >= p.visibleFrom && p.bottom <= p.visibleTo)).toBe(true)
  const { id } = await placeOf(page)
  expect(new URL(page.url()).hash).toBe(js ? '' : `#${id}`)
  await page.screenshot({ path: `${SHOTS}/${shot}.png` })
}

const SHOTS = process.env.SHOTS_DIR ?? tmpdir()

let rateStep = 0
for (const js of [true, false]) {
  for (const size of SIZES) {
    const where = `JavaScript ${js ? 'on' : 'off'}, ${size.width} px, the answer arriving in pieces`
    it(`Sell, ${where}: the refusal is brought into view, clear of the bars, and focused`, async () => {
      const { context, page } = await signedInPhone(browser, app, { js, ...size })
      await page.goto(`${slowUrl()}/order/sell?brandId=walmart&country=US&cardType=ecode&faceValue=100`)
      if (js) await hydrated(page)
      // The rate moves after the page was drawn: the api refuses the old one (a refusal of the whole form).
      await ops(app.api).setRate('walmart', 'US', 'ecode', `1${String(++rateStep).padStart(3, '0')}.50`)
      await page.getByLabel('Code of card 1').fill(newCode())
      await readFirst(page)
      await page.getByRole('button', { name: /^Sell/ }).click()
      await expectRefusalInView(page, js, `in-view-sell-${js ? 'js' : 'nojs'}-${size.width}`)
      await context.close()
    })

    it(`Withdraw, ${where}: a wrong PIN's refusal is brought into view, clear of the bar, and focused`, async () => {
      const u = await walletUser(app.api, { balance: 5_000_000 })
      const { context, page } = await phone(browser, js, size)
      await signIn(context, app.url, u.token)
      await page.goto(`${slowUrl()}/wallet/withdraw`)
      if (js) await hydrated(page)
      await page.getByLabel(/^Amount/).fill('5,000')
      await page.getByLabel('Your withdrawal PIN').fill('111111') // not the PIN walletUser set
      await readFirst(page)
      await page.getByRole('button', { name: 'Withdraw' }).click()
      await expectRefusalInView(page, js, `in-view-withdraw-${js ? 'js' : 'nojs'}-${size.width}`)
      expect(await page.locator('form [role="alert"]').textContent()).toContain('Wrong PIN')
      await context.close()
    })
  }
}

/**
 * Where a refused submit's answer settles on the PIN screens: the form's refusal box if the answer
 * has one, else the refused field (JavaScript's own check); in view between the top bar and the
 * sticky bar, and focused with JavaScript (or named by the fragment without).
 */
async function expectAnswerInView(page: Page, js: boolean, shot: string) {
  await page.locator('.cl-form-error, [aria-invalid="true"]').first().waitFor()
  await page.locator('.cl-actionbar').first().waitFor()
  await page.waitForLoadState('load')
  const place = () =>
    page.evaluate(() => {
      // The box, or (JavaScript's own check, no box) the refused field, must be seen; the focus is
      // on the box or on a refused field.
      const active = document.activeElement
      const field = active instanceof HTMLElement && active.getAttribute('aria-invalid') === 'true' ? active : null
      const formError = document.querySelector<HTMLElement>('.cl-form-error')
      const target = formError ?? field ?? document.querySelector<HTMLElement>('[aria-invalid="true"]')!
      const boxes = [target.getBoundingClientRect()]
      const top = document.querySelector('header.cl-topbar')!.getBoundingClientRect().bottom
      const bars = Array.from(document.querySelectorAll('.cl-actionbar')).map((b) => b.getBoundingClientRect().top)
      const bottom = Math.min(window.innerHeight, ...bars)
      return {
        inView: boxes.every((b) => b.top >= top && b.bottom <= bottom),
        focused: field !== null || target.contains(active),
        id: formError?.id ?? target.id,
        at: `${boxes.map((b) => `${b.top}-${b.bottom}`).join(',')} in ${top}-${bottom}, focus ${active?.tagName}#${active?.id}`,
      }
    })
  await page.screenshot({ path: `${SHOTS}/${shot}.png` })
  await expect.poll(() => place().then((p) => (p.inView && p.focused ? true : p.at))).toBe(true)
  if (!js) expect(new URL(page.url()).hash).toBe(`#${(await place()).id}`)
}

for (const js of [true, false]) {
  for (const size of SIZES) {
    const where = `JavaScript ${js ? 'on' : 'off'}, ${size.width} px, the answer arriving in pieces`
    it(`Set PIN, ${where}: two different PINs are refused in view, clear of the bar, and focused`, async () => {
      const u = await walletUser(app.api, { pin: null })
      const { context, page } = await phone(browser, js, size)
      await signIn(context, app.url, u.token)
      await page.goto(`${slowUrl()}/set-pin`)
      if (js) await hydrated(page)
      await page.getByLabel('New PIN', { exact: true }).fill('482913')
      await page.getByLabel('New PIN again').fill('482914')
      await readFirst(page)
      await page.getByRole('button', { name: 'Set PIN' }).click()
      await expectAnswerInView(page, js, `in-view-set-pin-${js ? 'js' : 'nojs'}-${size.width}`)
      await context.close()
    })

    it(`Change PIN, ${where}: a wrong current PIN is refused in view, clear of the bar, and focused`, async () => {
      const u = await walletUser(app.api)
      const { context, page } = await phone(browser, js, size)
      await signIn(context, app.url, u.token)
      await page.goto(`${slowUrl()}/change-pin`)
      if (js) await hydrated(page)
      await page.getByLabel('Current PIN').fill('111111') // not the PIN walletUser set
      await page.getByLabel('New PIN', { exact: true }).fill('482913')
      await page.getByLabel('New PIN again').fill('482913')
      await readFirst(page)
      await page.getByRole('button', { name: 'Change PIN' }).click()
      await expectAnswerInView(page, js, `in-view-change-pin-${js ? 'js' : 'nojs'}-${size.width}`)
      expect(await page.locator('.cl-form-error').textContent()).toContain('Wrong PIN')
      await context.close()
    })

    it(`Add bank account, ${where}: a wrong PIN is refused in view, clear of the bar, and focused`, async () => {
      // Payouts by hand (this app's default): the person types the account's name; a bank that
      // names accounts is the same form with the name filled (tests/browser/payouts.test.ts).
      const u = await walletUser(app.api, { card: false })
      const { context, page } = await phone(browser, js, size)
      await signIn(context, app.url, u.token)
      await page.goto(`${slowUrl()}/wallet/add-bank-card`)
      if (js) await hydrated(page)
      await chooseBank(page, GTBANK)
      await page.getByLabel('Account number').fill(validNuban('058'))
      await page.getByLabel('Account name').fill('Adaeze Obi')
      await page.getByLabel('Your withdrawal PIN').fill('111111') // not the PIN walletUser set
      await readFirst(page)
      await page.getByRole('button', { name: 'Add bank account' }).click()
      await expectAnswerInView(page, js, `in-view-add-bank-card-${js ? 'js' : 'nojs'}-${size.width}`)
      expect(await page.locator('.cl-form-error').textContent()).toContain('Wrong PIN')
      await context.close()
    })
  }
}

describe('the help button', () => {
  it('on every screen, at 390 and 320 px, covers no control and no amount of money', { timeout: 300_000 }, async () => {
    // A person with everything to show: balance, a withdrawal paid and one on its way, orders.
    const u = await walletUser(app.api, { balance: 5_000_000 })
    const paid = (await withdraw(app.api, u, 2_000_000)).body.data
    await admin(app.api).post('/admin/withdraw/update', { id: paid.id, status: 'processing' })
    await admin(app.api).post('/admin/withdraw/update', { id: paid.id, status: 'success', reference: 'NIP-9' })
    await withdraw(app.api, u, 1_000_000)
    const order = await sold(app.api, u.token)
    const visitor = ['/', '/login', '/register', '/forgot-password', '/download', '/user/privacy', '/order/sell']
    const member = [
      '/',
      '/account',
      '/edit-profile',
      '/notification',
      '/tasks',
      '/history',
      `/order/${order.id}`,
      '/order/sell?brandId=walmart&country=US&cardType=ecode',
      '/trading-plaza',
      '/wallet',
      '/wallet/bank-cards',
      '/wallet/add-bank-card',
      '/wallet/withdraw',
      `/wallet/withdraw-success?id=${paid.id}`,
      `/wallet/withdraw/${paid.id}`,
      '/change-pin',
      '/delete-account',
    ]
    const covered: string[] = []
    for (const size of SIZES) {
      const { context, page } = await phone(browser, true, size)
      const look = async (path: string) => {
        await page.goto(`${app.url}${path}`)
        await hydrated(page)
        for (const where of ['top', 'bottom'] as const) {
          if (where === 'bottom') await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
          const hits = await page.evaluate(() => {
            const help = Array.from(document.querySelectorAll<HTMLElement>('a[href="/support"]')).find((a) =>
              /Help|Chat/.test(a.getAttribute('aria-label') ?? ''),
            )
            if (!help) return ['(no help button)']
            const a = help.getBoundingClientRect()
            const banner = document.querySelector('header.cl-topbar')!
            const bar = banner.getBoundingClientRect()
            const needed = document.querySelectorAll<HTMLElement>(
              'a, button, input, select, textarea, summary, [role="button"], .cl-amount',
            )
            return Array.from(needed)
              .filter((el) => el !== help && !help.contains(el) && !el.contains(help))
              .filter((el) => {
                const b = el.getBoundingClientRect()
                const shown = b.width > 0 && b.height > 0 && getComputedStyle(el).visibility !== 'hidden'
                // Where the two boxes meet. Content scrolled under the sticky top bar is hidden by
                // the whole bar, not by the button; the bar's own controls count wherever they meet.
                const top = Math.max(a.top, b.top)
                const bottom = Math.min(a.bottom, b.bottom)
                const meet = shown && a.left < b.right && b.left < a.right && top < bottom
                return meet && (banner.contains(el) || bottom > bar.bottom)
              })
              .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 30)}"`)
          })
          covered.push(...hits.map((h) => `${size.width} ${path} (${where}): ${h}`))
        }
      }
      for (const path of visitor) await look(path)
      await signIn(context, app.url, u.token)
      for (const path of member) await look(path)
      await context.close()
    }
    expect(covered).toEqual([])
  })
})

describe('Withdraw says the limits while the amount is typed', () => {
  for (const js of [true, false]) {
    it(`JavaScript ${js ? 'on' : 'off'}: under the minimum and over the day, before any PIN; no "You receive" for either`, async () => {
      const u = await walletUser(app.api, { balance: 60_000_000 })
      await withdraw(app.api, u, 40_000_000)
      const { context, page } = await phone(browser, js)
      await signIn(context, app.url, u.token)
      await page.goto(`${app.url}/wallet/withdraw`)
      if (js) await hydrated(page)
      const amount = page.getByLabel(/^Amount/)
      const receive = page.locator('.cl-summary__receive')
      for (const [typed, message] of [
        ['500', 'The smallest withdrawal is ₦1,000.00'],
        ['150,000', 'You can withdraw up to ₦100,000.00 more today'],
      ]) {
        await amount.fill(typed)
        if (!js) {
          await readFirst(page)
          await page.getByRole('button', { name: 'Check what I receive' }).click()
          await page.waitForLoadState()
        }
        await expect.poll(() => page.getByText(message).count()).toBeGreaterThan(0)
        expect(await receive.textContent()).toContain('—')
      }
      await amount.fill('5,000')
      if (!js) {
        await readFirst(page)
        await page.getByRole('button', { name: 'Check what I receive' }).click()
        await page.waitForLoadState()
      }
      await expect.poll(() => receive.textContent()).toContain('4,950.00')
      await context.close()
    })
  }
})

describe('nothing a person reads is cut at 320 px', () => {
  /** Each piece of text in `selector`: how many lines it takes, and whether all of it fits its box (no ellipsis, no overflow). */
  const textOf = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((elements) =>
      elements.map((el) => {
        const range = document.createRange()
        range.selectNodeContents(el)
        const text = range.getBoundingClientRect()
        const { left, right, top, bottom, height } = el.getBoundingClientRect()
        const box = { left, right, top, bottom, height, width: right - left }
        // Lines are counted on the text alone (an icon beside it is not a line of its own).
        const tops: number[] = []
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const part = document.createRange()
          part.selectNodeContents(node)
          for (const r of Array.from(part.getClientRects())) if (r.width > 1) tops.push(r.top)
        }
        tops.sort((a, b) => a - b)
        const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1] > 8).length
        return { text: (el.textContent ?? '').trim(), lines, fits: el.scrollWidth <= el.clientWidth && text.width <= box.width + 0.5, box }
      }),
    )
  type Box = { left: number; right: number; top: number; bottom: number }
  const apart = (a: Box, b: Box) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top

  it("the wallet's Bank cards and Withdraw read on one line each, side by side, 44 px tall", async () => {
    const u = await walletUser(app.api, { balance: 500_000 })
    const { context, page } = await phone(browser, true, SIZES[1])
    await signIn(context, app.url, u.token)
    await page.goto(`${app.url}/wallet`)
    await hydrated(page)
    const [cards, withdrawal] = await textOf(page, '.cl-wallet-actions .cl-button')
    expect([cards.text, withdrawal.text]).toEqual(['Bank cards', 'Withdraw'])
    for (const button of [cards, withdrawal]) {
      expect(button.lines, button.text).toBe(1)
      expect(button.box.height, button.text).toBeGreaterThanOrEqual(44)
      expect(button.box.right, button.text).toBeLessThanOrEqual(SIZES[1].width)
    }
    expect(apart(cards.box, withdrawal.box)).toBe(true)
    await context.close()
  })

  it("an open order on Home shows the brand's whole name beside or above its amount, never cut", async () => {
    const u = await walletUser(app.api)
    await sold(app.api, u.token)
    const { context, page } = await phone(browser, true, SIZES[1])
    await signIn(context, app.url, u.token)
    await page.goto(`${app.url}/`)
    await hydrated(page)
    const [name] = await textOf(page, '.cl-orderrow__name')
    const [amount] = await textOf(page, '.cl-orderrow__amount')
    expect(name.text).toBe('Apple')
    expect(name.fits).toBe(true)
    expect(amount.fits).toBe(true)
    expect(apart(name.box, amount.box)).toBe(true)
    await context.close()
  })
})
