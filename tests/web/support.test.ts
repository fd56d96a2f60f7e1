import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { formatMoney } from '#contract/money'
import { PIN_LOCK_MINUTES, PIN_MAX_TRIES } from '#contract/pin-rules'
import * as support from '~/routes/support'
import { accessFor } from '~/utils/access.server'
import { screenFor } from '~/utils/routes'
import { useTestApi } from '../support/kit'
import { call, jsonOf, makeRequest } from '../support/web'
import { startMiniWeb, type MiniWeb } from './mini-web'

/**
 * Help & Support (/support, public): the support e-mail and the answers, with the installation's
 * own numbers (the withdrawal settings the Withdraw screen applies, review times), as <details>
 * that work without JavaScript; still answering when the api is down. And the CSP: a chat
 * provider's origin is allowed only when CHAT_WIDGET_URL names it.
 */
const api = useTestApi()

afterEach(() => {
  delete process.env.CHAT_WIDGET_URL
  delete process.env.SUPPORT_EMAIL
})

describe('the routes table', () => {
  it('lists /support as a public screen titled Help & Support, and /analytics as a public resource route', () => {
    expect(screenFor('/support')).toMatchObject({ title: 'Help & Support', access: 'public' })
    expect(accessFor('/analytics')).toBe('public')
  })
})

describe('the loader', () => {
  it('gives the withdrawal settings the api applies and the range of review times, to a visitor', async () => {
    const res = await call(support.loader, makeRequest('/support'))
    expect(res.status).toBe(200)
    const data = await jsonOf(res)
    const { wallet } = api.deps.config
    expect(data.info).toEqual({
      currency: wallet.currency,
      withdraw: {
        min: wallet.withdrawMin,
        fee: wallet.withdrawFee,
        dailyMax: wallet.withdrawDailyMax,
        payoutHours: wallet.payoutHours,
        timeZone: wallet.timeZone,
      },
    })
    expect(data.review.fastest).toBeGreaterThan(0)
    expect(data.review.slowest).toBeGreaterThanOrEqual(data.review.fastest)
  })

  it('answers without the numbers when the api cannot be reached', async () => {
    const apiUrl = process.env.API_BASE_URL
    process.env.API_BASE_URL = 'http://127.0.0.1:9'
    try {
      const res = await call(support.loader, makeRequest('/support'))
      expect(res.status).toBe(200)
      expect(await jsonOf(res)).toEqual({ info: null, review: null, conversations: null })
    } finally {
      process.env.API_BASE_URL = apiUrl
    }
  })
})

describe('the page over HTTP (server.ts, the real render, no JavaScript needed)', () => {
  let web: MiniWeb
  beforeAll(async () => {
    web = await startMiniWeb([{ id: 'routes/support', path: 'support', module: support }])
  })
  afterAll(async () => {
    await web?.close()
  })
  const page = () => web.raw({ path: '/support' })

  it('has the support e-mail, the rate-lock promise, the real limits and the PIN rules, in <details>', async () => {
    process.env.SUPPORT_EMAIL = 'help@cardlane.example'
    const res = await page()
    expect(res.status).toBe(200)
    const html = res.text.replace(/<!-- -->/g, '') // React's markers between text parts
    expect(html).toContain('<title>Help &amp; Support - Cardlane</title>')
    expect(html).toContain('href="mailto:help@cardlane.example"')
    expect(html.match(/<details class="cl-faq"/g)?.length).toBe(6)
    expect(html).toContain(support.RATE_LOCK_PROMISE)
    const { wallet } = api.deps.config
    for (const amount of [wallet.withdrawMin, wallet.withdrawFee, wallet.withdrawDailyMax]) {
      expect(html).toContain(formatMoney(amount, wallet.currency))
    }
    expect(html).toContain(`After ${PIN_MAX_TRIES} wrong tries, PIN actions are locked for ${PIN_LOCK_MINUTES} minutes`)
    expect(html).toContain('href="/change-pin?mode=reset"')
    expect(html).toContain('The card is not genuine') // a rejection reason, from the contract
    expect(html).toMatch(/between \d+ (minutes|hours?)[^<]* and \d+/) // review times from the catalogue
  })

  it('names no chat provider in the CSP while CHAT_WIDGET_URL is unset', async () => {
    const csp = String((await page()).headers['content-security-policy'])
    expect(csp).toContain("script-src 'self' 'nonce-")
    expect(csp).toContain("connect-src 'self';")
    expect(csp).toContain("frame-src 'none'")
    const directive = (name: string) => csp.split(';').find((d) => d.startsWith(`${name} `)) ?? ''
    for (const name of ['script-src', 'connect-src', 'frame-src']) expect(directive(name)).not.toMatch(/https?:/)
  })
})

describe('the CSP with a chat provider', () => {
  it("allows the provider's origin, and only it, for its script, its calls and its frame", async () => {
    process.env.CHAT_WIDGET_URL = 'https://chat.example.net/widget/abc.js?key=1'
    // server.ts builds the policy when the app is made: a web started with the setting.
    const web = await startMiniWeb([{ id: 'routes/support', path: 'support', module: support }])
    try {
      const res = await web.raw({ path: '/support' })
      const csp = String(res.headers['content-security-policy'])
      expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/chat\.example\.net;/)
      expect(csp).toContain("connect-src 'self' https://chat.example.net;")
      expect(csp).toContain('frame-src https://chat.example.net;')
      expect(csp).not.toContain('/widget/abc.js')
      // The script itself is not in the page: it loads only when the chat button is tapped.
      expect(res.text).not.toMatch(/<script[^>]*src="https:\/\/chat\.example\.net/)
    } finally {
      await web.close()
    }
  })
})
