import { mkdirSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { payoutFor } from '#contract/catalogue'
import { formatMoney } from '#contract/money'
import type { Order } from '#contract/orders'
import type { WalletInfo } from '#contract/wallet'
import { seedUser } from '../support/api'
import { expectToast, gotoIn, hydrated, phone, readFirst, signedInPhone, signIn, TEST_PASSWORD, useSellingBrowserApp } from '../support/app'
import { axeViolations } from '../support/axe'
import { newEmail } from '../support/kit'
import { jpeg, newCode, ops, photo, sold, upload } from '../support/selling'
import { testStaffToken } from '../support/staff'

/**
 * Selling as a person does it: Debian Chromium, a 390×844 phone, JavaScript on and off, the
 * production build and the real api on a throw-away database (photos in a temporary folder);
 * operators review through the api's /admin calls, as `npm run ops` does.
 */
const { app, browser } = useSellingBrowserApp('browser-selling')

const goto = gotoIn(() => app.url)

/** A small PNG of one colour: a "photo" of a card. */
const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer()

const wallet = async (token: string) => (await app.api.get<WalletInfo>('/v1/wallet/info', { token })).body.data

/** A session token of a person, made through the api's own sign-in (for its calls in the test). */
async function tokenOf(email: string) {
  const res = await app.api.post<string>('/auth/login', { email, password: TEST_PASSWORD })
  if (res.body.code !== 200) throw new Error(`login: ${res.text}`)
  return res.body.data
}

/** The person's messages about an order, newest last (there is no messages screen yet; the api writes them). */
const messagesAbout = async (orderId: string) =>
  (
    await app.api.db.selectFrom('notifications').select(['title', 'content']).where('ref_id', '=', orderId).orderBy('created_at').execute()
  ).map((m) => m.title)

for (const js of [true, false]) {
  describe(`JavaScript ${js ? 'on' : 'off'}`, () => {
    it('a visitor checks a rate → signs in → sells an e-code → success → history → detail; the operator pays it', async () => {
      const email = newEmail('journey')
      await seedUser(app.api, { email, password: TEST_PASSWORD })
      const { context, page } = await phone(browser, js)
      await goto(page, js, '/')

      // Home: the rate checker, before any account.
      const checker = page.getByRole('form', { name: 'Check a rate' })
      await checker.getByLabel('Gift card').selectOption('apple')
      await checker.getByLabel('Country').selectOption('US')
      await checker.getByLabel('Card type').selectOption('ecode')
      await checker.getByLabel(/^Face value/).fill('100')
      const rate = (await app.api.get<{ rate: string }[]>('/v1/giftcard/rates?brandId=apple&country=US&cardType=ecode')).body.data[0].rate
      const payout = formatMoney(payoutFor(10_000, rate, 'USD', 'NGN'), 'NGN')
      if (js) await expect.poll(() => checker.textContent()).toContain(payout) // as you type
      await checker.getByRole('button', { name: js ? 'Continue to sell' : 'Check rate' }).click()
      await page.waitForURL(/\/order\/sell\?brandId=apple&country=US&cardType=ecode&faceValue=100$/)
      await expect.poll(() => page.getByText(`You get ${payout}`).first().isVisible()).toBe(true)
      expect(await page.getByLabel('Face value of card 1').inputValue()).toBe('100')

      // Selling needs an account: sign in, and come back with the choices.
      await readFirst(page)
      await page.getByRole('button', { name: 'Sign in to sell' }).click()
      await page.waitForURL(/\/login\?redirectTo=/)
      if (js) await hydrated(page)
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD)
      await readFirst(page)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${app.url}/order/sell?brandId=apple&country=US&cardType=ecode&faceValue=100`)
      if (js) await hydrated(page)
      expect(await page.getByLabel('Face value of card 1').inputValue()).toBe('100')
      const code = newCode()
      await page.getByLabel('Code of card 1').fill(code.match(/.{4}/g)!.join('-'))
      await readFirst(page)
      await page.getByRole('button', { name: js ? `Sell for ${payout}` : 'Sell card' }).click()

      // Success: the number, the locked payout, the queue, what happens next.
      await page.waitForURL(/\/order\/submit-success\?id=/)
      await expectToast(page, 'Order submitted')
      const orderId = new URL(page.url()).searchParams.get('id')!
      const order = (await app.api.get<Order>(`/v1/order/detail?id=${orderId}`, { token: await tokenOf(email) })).body.data
      expect(order.quotedPayout).toBe(payoutFor(10_000, rate, 'USD', 'NGN'))
      const main = page.getByRole('main')
      expect(await main.textContent()).toContain(order.orderNo)
      expect(await main.textContent()).toMatch(/Next in the queue|Number \d+ in the queue/)
      expect(await main.textContent()).toContain('about 15 minutes')
      expect(await page.content()).not.toContain(code) // the code never comes back, masked or not

      // The order, then History (its Back), then the order again from its row.
      await page.getByRole('link', { name: 'See the order' }).click()
      await page.waitForURL(`${app.url}/order/${orderId}`)
      await readFirst(page)
      await page.getByRole('link', { name: 'Back' }).click()
      await page.waitForURL(`${app.url}/history`)
      await readFirst(page)
      await expect
        .poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).getAttribute('aria-current'))
        .toBe('page')
      await page.getByRole('link', { name: new RegExp(`Apple.*${payout.replace(/[.$]/g, '\\$&')}`) }).click()
      await page.waitForURL(`${app.url}/order/${orderId}`)
      await expect.poll(() => page.getByText(`•••• ${code.slice(-4)}`).isVisible()).toBe(true)
      await expect.poll(() => page.getByText('In queue').first().isVisible()).toBe(true)

      // The operator pays it (as `npm run ops -- order <id> claim`, then `complete`).
      await ops(app.api).claim(orderId)
      await ops(app.api).complete(orderId, 'Redeemed, thank you.')
      await page.reload()
      await expect.poll(() => page.getByText('Paid to your wallet').first().isVisible()).toBe(true)
      await expect.poll(() => page.getByText('Redeemed, thank you.').first().isVisible()).toBe(true)
      expect(await wallet(await tokenOf(email))).toMatchObject({ balance: order.quotedPayout })
      expect(await messagesAbout(orderId)).toEqual(['Order received', 'Order in review', 'Order completed'])
      await goto(page, js, '/')
      await expect.poll(() => page.getByText(payout).first().isVisible()).toBe(true) // the balance card
      await context.close()
    })

    it('the payout as you type (or by “Check rate”), for several cards in one order', async () => {
      const { context, page } = await signedInPhone(browser, app, { js })
      await goto(page, js, '/order/sell?brandId=apple&country=US&cardType=ecode')
      const rate = (await app.api.get<{ rate: string }[]>('/v1/giftcard/rates?brandId=apple&country=US&cardType=ecode')).body.data[0].rate
      const one = payoutFor(10_000, rate, 'USD', 'NGN')
      await page.getByLabel('Face value of card 1').fill('100')
      if (!js) {
        await expect.poll(() => page.getByRole('button', { name: 'Check rate' }).isVisible()).toBe(true)
        await page.getByRole('button', { name: 'Check rate' }).click()
      }
      await expect
        .poll(() =>
          page
            .getByText(`You get ${formatMoney(one, 'NGN')}`)
            .first()
            .isVisible(),
        )
        .toBe(true)
      await readFirst(page)
      await page.getByRole('button', { name: 'Add another card' }).click()
      await expect.poll(() => page.getByLabel('Face value of card 2').inputValue()).toBe('100')
      await page.getByLabel('Face value of card 2').fill('5')
      if (js) await expect.poll(() => page.getByText('The face value must be between US$10.00 and US$500.00').isVisible()).toBe(true) // as you type
      await page.getByLabel('Face value of card 2').fill('50')
      if (!js) {
        await readFirst(page)
        await page.getByRole('button', { name: 'Check rate' }).click()
      }
      const total = formatMoney(one + payoutFor(5_000, rate, 'USD', 'NGN'), 'NGN')
      await expect.poll(() => page.getByText(total).first().isVisible()).toBe(true)
      await context.close()
    })

    it('a rate that moved after the page was drawn: the new payout is shown, and sold once confirmed', async () => {
      const { context, page, token } = await signedInPhone(browser, app, { js })
      await goto(page, js, '/order/sell?brandId=walmart&country=US&cardType=ecode&faceValue=100')
      const moved = js ? '1111.11' : '1222.22'
      await ops(app.api).setRate('walmart', 'US', 'ecode', moved)
      await page.getByLabel('Code of card 1').fill(newCode())
      await readFirst(page)
      await page.getByRole('button', { name: /^Sell/ }).click()
      const payout = formatMoney(payoutFor(10_000, moved, 'USD', 'NGN'), 'NGN')
      await expect.poll(() => page.locator('form').getByRole('alert').first().textContent()).toContain(`you would get ${payout}`)
      expect(await app.api.get<{ total: number }>('/v1/order/page', { token }).then((r) => r.body.data.total)).toBe(0)
      // Without JavaScript the page came back from the server, and codes never do: typed again.
      if (!js) await page.getByLabel('Code of card 1').fill(newCode())
      await readFirst(page)
      await page.getByRole('button', { name: `Confirm ${payout}` }).click()
      await page.waitForURL(/\/order\/submit-success\?id=/)
      const orderId = new URL(page.url()).searchParams.get('id')!
      expect((await app.api.get<Order>(`/v1/order/detail?id=${orderId}`, { token })).body.data).toMatchObject({ quotedRate: moved })
      await context.close()
    })

    it('a physical card sold with two photos; the order shows them to its owner', async () => {
      const { context, page, token } = await signedInPhone(browser, app, { js })
      await goto(page, js, '/order/sell?brandId=amazon&country=US&cardType=physical')
      await page.getByLabel('Face value of card 1').fill('50')
      const photos = [
        { name: 'front.png', mimeType: 'image/png', buffer: await png(200, 40, 40) },
        { name: 'back.png', mimeType: 'image/png', buffer: await png(40, 40, 200) },
      ]
      await page.getByLabel('Photos of card 1').setInputFiles(photos)
      if (js) {
        // Drawn at once, uploaded one by one: both done before the form is sent.
        await expect.poll(() => page.getByRole('img', { name: /^Card 1, \d of 2$/ }).count()).toBe(2)
        await expect.poll(() => page.locator('progress').count(), { timeout: 15_000 }).toBe(0)
      }
      await readFirst(page)
      await page.getByRole('button', { name: /^Sell (card|for)/ }).click()
      await page.waitForURL(/\/order\/submit-success\?id=/)
      const orderId = new URL(page.url()).searchParams.get('id')!
      const order = (await app.api.get<Order>(`/v1/order/detail?id=${orderId}`, { token })).body.data
      expect(order.cards[0].imageIds).toHaveLength(2)
      await goto(page, js, `/order/${orderId}`)
      const shown = page.getByRole('img', { name: /^Card 1, \d of 2$/ })
      expect(await shown.count()).toBe(2)
      await expect
        .poll(() =>
          shown.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)),
        )
        .toBe(true)
      await context.close()
    })

    it('a rejection says why, with the operator’s note and proof photo', async () => {
      const { context, page, token } = await signedInPhone(browser, app, { js })
      const order = await sold(app.api, token, { brandId: 'steam', cards: [{ faceValue: 5_000, cardCodes: [newCode()] }] })
      await ops(app.api).claim(order.id)
      // A proof is the operator's own upload (a seller's photo is refused as proof).
      const proof = (await upload(app.api, { admin: await testStaffToken(app.api) }, await jpeg(800, 600))).body.data.fileId
      await ops(app.api).reject(order.id, 'ALREADY_USED', { note: 'Steam shows it was redeemed on 3 May.', proofImageId: proof })
      await goto(page, js, `/order/${order.id}`)
      const why = page.getByRole('region', { name: 'Why the card was rejected' })
      expect(await why.textContent()).toContain('The card had already been used when we tried to redeem it')
      expect(await why.textContent()).toContain('Steam shows it was redeemed on 3 May.')
      await expect
        .poll(() =>
          why.getByRole('img', { name: 'What our team saw when redeeming the card' }).evaluate((i) => (i as HTMLImageElement).naturalWidth),
        )
        .toBeGreaterThan(0)
      await expect.poll(() => page.getByText('Rejected').first().isVisible()).toBe(true)
      await context.close()
    })

    it('a lower payout accepted (the wallet gets it), and one declined (nothing, the order closes)', async () => {
      const { context, page, token } = await signedInPhone(browser, app, { js })
      const offer = async () => {
        const o = await sold(app.api, token)
        await ops(app.api).claim(o.id)
        await ops(app.api).propose(o.id, 'Only $60 was left on the card', [
          { cardId: o.cards[0].cardId, payout: Math.floor(o.quotedPayout * 0.6), reasonCode: 'ALREADY_USED' },
        ])
        return { ...o, offered: Math.floor(o.quotedPayout * 0.6) }
      }
      const accepted = await offer()
      await goto(page, js, `/order/${accepted.id}`)
      const proposal = page.getByRole('region', { name: 'We can pay less than the quote' })
      expect(await proposal.textContent()).toContain('Only $60 was left on the card')
      expect(await proposal.textContent()).toContain(formatMoney(accepted.quotedPayout, 'NGN'))
      expect(await proposal.textContent()).toMatch(/Answer by .+\. Without an answer by then the offer lapses as if declined/)
      await proposal.getByRole('button', { name: `Accept ${formatMoney(accepted.offered, 'NGN')}` }).click()
      await expectToast(page, `Offer accepted: ${formatMoney(accepted.offered, 'NGN')} is in your wallet`)
      expect(await wallet(token)).toMatchObject({ balance: accepted.offered })

      const declined = await offer()
      await goto(page, js, `/order/${declined.id}`)
      await page.getByText('Decline the offer', { exact: true }).click()
      await readFirst(page)
      await page.getByRole('button', { name: 'Yes, decline the offer' }).click()
      await expectToast(page, 'Offer declined')
      await expect.poll(() => page.getByText('Declined').first().isVisible()).toBe(true)
      expect(await wallet(token)).toMatchObject({ balance: accepted.offered })
      await context.close()
    })

    it('cancel while pending asks first, then closes the order', async () => {
      const { context, page, token } = await signedInPhone(browser, app, { js })
      const order = await sold(app.api, token)
      await goto(page, js, `/order/${order.id}`)
      const yes = page.getByRole('button', { name: 'Yes, cancel the order' })
      expect(await yes.isVisible()).toBe(false) // behind "Cancel the order"
      await page.getByText('Cancel the order', { exact: true }).click()
      await readFirst(page)
      await yes.click()
      await expectToast(page, 'Order cancelled')
      await expect.poll(() => page.getByText('Cancelled').first().isVisible()).toBe(true)
      await context.close()
    })
  })
}

describe('the upload route behind the real server', () => {
  it('a body that says it is larger than a photo is refused before it is read', async () => {
    const { token } = await seedUser(app.api, { email: newEmail('big') })
    const { context } = await phone(browser, false)
    await signIn(context, app.url, token)
    const cookie = (await context.cookies(app.url)).map((c) => `${c.name}=${c.value}`).join('; ')
    await context.close()
    const url = new URL('/file/upload', app.url)
    const answer = await new Promise<{ status: number; connection: string | undefined; sent: number }>((resolve, reject) => {
      let sent = 0
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: { cookie, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(60 * 1024 * 1024) },
        },
        (res) => {
          res.resume()
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, sent })
          req.destroy()
        },
      )
      req.on('error', (error) => (sent > 0 ? undefined : reject(error)))
      const chunk = Buffer.alloc(64 * 1024, 1)
      const pump = () => {
        while (sent < 60 * 1024 * 1024 && req.write(chunk)) sent += chunk.length
      }
      req.on('drain', pump)
      pump()
    })
    expect(answer.status).toBe(413)
    expect(answer.connection).toBe('close')
    expect(answer.sent).toBeLessThan(20 * 1024 * 1024) // refused long before the 60 MB it announced
  })
})

describe('accessibility (axe-core) on every selling screen, light and dark', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`${colorScheme}: no violations`, { timeout: 180_000 }, async () => {
      const { token } = await seedUser(app.api, { email: newEmail('axe') })
      const pending = await sold(app.api, token, { cards: [{ faceValue: 10_000, cardCodes: [newCode(), '1234'] }] })
      const proposed = await sold(app.api, token, {
        brandId: 'amazon',
        cardType: 'physical',
        cards: [{ faceValue: 10_000, imageIds: [await photo(app.api, token)] }],
      })
      await ops(app.api).claim(proposed.id)
      await ops(app.api).propose(proposed.id, 'Part of it was used', [
        { cardId: proposed.cards[0].cardId, payout: 1_000, reasonCode: 'ALREADY_USED' },
      ])
      const rejected = await sold(app.api, token)
      await ops(app.api).claim(rejected.id)
      await ops(app.api).reject(rejected.id, 'OTHER', {
        note: 'The card is from another region.',
        proofImageId: (await upload(app.api, { admin: await testStaffToken(app.api) }, await jpeg(800, 600))).body.data.fileId,
      })
      const visitor = ['/', '/order/sell', '/order/sell?brandId=steam&country=US&cardType=ecode&faceValue=50']
      const member = [
        '/',
        '/order/sell?brandId=apple&country=US&cardType=ecode&faceValue=100',
        '/order/sell?brandId=amazon&country=US&cardType=physical',
        `/order/submit-success?id=${pending.id}`,
        '/history',
        '/history?status=declined',
        `/order/${pending.id}`,
        `/order/${proposed.id}`,
        `/order/${rejected.id}`,
        '/order/no-such-order',
        '/trading-plaza',
      ]
      const found: string[] = []
      for (const [who, paths] of [
        ['visitor', visitor],
        ['member', member],
      ] as const) {
        for (const js of [true, false]) {
          // "Without JavaScript" here is the server's markup with the app's scripts held back, so
          // axe (which needs JavaScript itself) can still run on it.
          const { context, page } = await phone(browser, true, { colorScheme })
          if (!js) await page.route(/\/assets\/.*\.js$/, (route) => route.abort())
          if (who === 'member') await signIn(context, app.url, token)
          for (const path of paths) {
            await goto(page, js, path)
            const violations = await axeViolations(page)
            found.push(...violations.map((v) => `${who} js=${js} ${path} ${v}`))
          }
          await context.close()
        }
      }
      expect(found).toEqual([])
    })
  }
})

describe('screenshots (390×844 and 320 wide, light and dark) for a person to look at', () => {
  it('every selling screen: nothing wider than the phone, every control at least 44 px tall', { timeout: 600_000 }, async () => {
    const dir = process.env.SCREENSHOT_DIR ?? 'test-results/selling'
    mkdirSync(dir, { recursive: true })
    const { token } = await seedUser(app.api, { email: newEmail('shots'), password: TEST_PASSWORD })
    const pending = await sold(app.api, token, {
      cards: [
        { faceValue: 10_000, cardCodes: [newCode()] },
        { faceValue: 5_000, cardCodes: [newCode(), '1234'] },
      ],
    })
    const proposed = await sold(app.api, token, {
      brandId: 'amazon',
      cardType: 'physical',
      cards: [{ faceValue: 10_000, imageIds: [await photo(app.api, token), await photo(app.api, token)] }],
    })
    await ops(app.api).claim(proposed.id)
    await ops(app.api).propose(proposed.id, 'The card had $60 left on it when we redeemed it', [
      { cardId: proposed.cards[0].cardId, payout: Math.floor(proposed.cards[0].quotedPayout * 0.6), reasonCode: 'ALREADY_USED' },
    ])
    const rejected = await sold(app.api, token, { brandId: 'steam', cards: [{ faceValue: 5_000, cardCodes: [newCode()] }] })
    await ops(app.api).claim(rejected.id)
    await ops(app.api).reject(rejected.id, 'INVALID_ECODE', { note: 'Steam says the code does not exist.' })
    const completed = await sold(app.api, token, { brandId: 'razer-gold', cards: [{ faceValue: 2_000, cardCodes: [newCode()] }] })
    await ops(app.api).claim(completed.id)
    await ops(app.api).complete(completed.id)
    const screens: Array<[name: string, path: string, member: boolean]> = [
      ['home-visitor', '/', false],
      ['home-member', '/', true],
      ['sell-brands', '/order/sell', true],
      ['sell-ecode', '/order/sell?brandId=apple&country=US&cardType=ecode&faceValue=100', true],
      ['sell-denominations', '/order/sell?brandId=steam&country=US&cardType=ecode', true],
      ['sell-photos', '/order/sell?brandId=amazon&country=US&cardType=physical', true],
      ['sell-visitor', '/order/sell?brandId=apple&country=US&cardType=ecode&faceValue=100', false],
      ['success', `/order/submit-success?id=${pending.id}`, true],
      ['history', '/history', true],
      ['order-pending', `/order/${pending.id}`, true],
      ['order-proposed', `/order/${proposed.id}`, true],
      ['order-rejected', `/order/${rejected.id}`, true],
      ['order-completed', `/order/${completed.id}`, true],
      ['plaza', '/trading-plaza', true],
    ]
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const size of [
        { width: 390, height: 844 },
        { width: 320, height: 568 },
      ]) {
        for (const [name, path, member] of screens) {
          const { context, page } = await phone(browser, true, { ...size, colorScheme })
          if (member) await signIn(context, app.url, token)
          await goto(page, true, path)
          await page.evaluate(() => document.querySelectorAll('.cl-toaster').forEach((t) => t.remove()))
          const wide = await page.evaluate(() => document.documentElement.scrollWidth)
          expect(wide, `${name} at ${size.width}`).toBeLessThanOrEqual(size.width)
          const small = await page.evaluate(() =>
            [
              ...document.querySelectorAll(
                'main a, main button, main summary, main select, main input:not([type=hidden]):not([type=radio]), main label.cl-denom, main label.cl-button',
              ),
            ]
              // A visually hidden file input is reached through its label, which is measured instead.
              .filter((el) => !el.classList.contains('cl-visually-hidden'))
              .filter((el) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().height < 44)
              .map(
                (el) =>
                  `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(el.getBoundingClientRect().height)}px`,
              ),
          )
          expect(small, `${name} at ${size.width}`).toEqual([])
          // No text runs out of its box (under the button beside it): a box of text whose content is
          // wider than itself while it lets the overflow show.
          const spilled = await page.evaluate(() =>
            [...document.querySelectorAll('main *')]
              .filter((el) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim()))
              .filter((el) => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible')
              .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 40)}"`),
          )
          expect(spilled, `${name} at ${size.width}`).toEqual([])
          await page.screenshot({ path: `${dir}/${name}-${size.width}-${colorScheme}.png`, fullPage: true })
          await context.close()
        }
      }
    }
  })
})
