import { readFileSync } from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { afterEach, describe, expect, it } from 'vitest'
import * as download from '~/routes/download'
import * as logout from '~/routes/logout'
import * as offline from '~/routes/offline'
import { seedUser } from '../support/api'
import { closedPort } from '../support/fault-upstream'
import { useTestApi } from '../support/kit'
import { call, jsonOf, signedInJar, submit } from '../support/web'

/**
 * The installable app's server side (decision 048): sign-out clears the site's data, the offline
 * page is nobody's and has no script, the Download page knows an iPhone from its User-Agent, and
 * the service worker's choice of where a notification leads.
 */
const api = useTestApi()

afterEach(() => {
  delete process.env.APP_STORE_URL
  delete process.env.PLAY_STORE_URL
})

describe('sign-out clears this device: Clear-Site-Data "cache", "storage"', () => {
  it('signed out at the api', async () => {
    const { token } = await seedUser(api, { email: `pwa.out.${Date.now()}@example.com`, password: null })
    const res = await submit(logout.action, '/logout', {}, await signedInJar(token))
    expect(res).toHaveRedirect('/')
    expect(res.headers.get('Clear-Site-Data')).toBe('"cache", "storage"')
    expect(res.headers.get('Set-Cookie')).toBeTruthy()
  })

  it('signed out on this device only, with the api unreachable', async () => {
    const { token } = await seedUser(api, { email: `pwa.down.${Date.now()}@example.com`, password: null })
    const jar = await signedInJar(token)
    const realApi = process.env.API_BASE_URL
    process.env.API_BASE_URL = await closedPort()
    try {
      const res = await submit(logout.action, '/logout', {}, jar)
      expect(res.headers.get('Clear-Site-Data')).toBe('"cache", "storage"')
    } finally {
      process.env.API_BASE_URL = realApi
    }
  })

  it('a visitor with no session gets it too (nothing of anyone stays)', async () => {
    const res = await submit(logout.action, '/logout', {})
    expect(res.headers.get('Clear-Site-Data')).toBe('"cache", "storage"')
  })
})

describe('the offline page', () => {
  it('is plain HTML with the shell stylesheet, the mark for the last seen balance, and no script', async () => {
    const res = offline.loader()
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    const html = await res.text()
    expect(html).toMatch(/<link rel="stylesheet" href="[^"]*">/)
    expect(html).toContain('<!--last-seen-->')
    expect(html).toContain('You are offline')
    expect(html).not.toContain('<script')
  })
})

describe('the Download page loader', () => {
  const IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
  const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
  const load = async (userAgent?: string) => {
    const res = await call(
      download.loader,
      new Request('http://localhost/download', { headers: userAgent ? { 'User-Agent': userAgent } : {} }),
    )
    return { res, data: await jsonOf<{ ios: boolean; stores: { appStore: string | null; playStore: string | null } }>(res) }
  }

  it('tells an iPhone from its User-Agent, and says the page varies by it', async () => {
    const iphone = await load(IPHONE)
    expect(iphone.data.ios).toBe(true)
    expect(iphone.res.headers.get('Vary')).toBe('User-Agent')
    expect((await load(ANDROID)).data.ios).toBe(false)
    expect((await load()).data.ios).toBe(false)
  })

  it('store links only where configured', async () => {
    expect((await load(IPHONE)).data.stores).toEqual({ appStore: null, playStore: null })
    process.env.APP_STORE_URL = 'https://apps.apple.com/app/id000000000'
    expect((await load(IPHONE)).data.stores).toEqual({ appStore: process.env.APP_STORE_URL, playStore: null })
  })
})

/** public/sw.js as the browser runs it, in a context of its own: its top-level functions, nothing exported for tests. */
function loadWorker() {
  const listeners: Record<string, unknown> = {}
  const context = vm.createContext({
    self: { addEventListener: (type: string, fn: unknown) => (listeners[type] = fn), location: { origin: 'https://cardlane.example' } },
    URL,
    URLSearchParams,
    Request,
    Response,
    Intl,
  })
  vm.runInContext(readFileSync(path.resolve('public/sw.js'), 'utf8'), context)
  return { listeners, sw: context as unknown as Worker }
}
type Client = { url: string; focus(): Promise<Client>; navigate(url: string): Promise<unknown> }
type Subscription = { options?: unknown; toJSON(): { endpoint?: string; keys?: Record<string, string> } }
type Worker = {
  resubscribe(
    registration: { pushManager: { subscribe(options: unknown): Promise<Subscription> } },
    oldSubscription: Subscription | null,
    newSubscription: Subscription | null,
    send: (url: string, init: RequestInit) => Promise<{ ok: boolean }>,
  ): Promise<boolean>
  notificationTarget(url: unknown, origin: string): string
  openTarget(
    clients: { matchAll(o: unknown): Promise<Client[]>; openWindow(url: string): Promise<unknown> },
    url: unknown,
    origin: string,
  ): Promise<unknown>
}

describe('the service worker: where a notification leads', () => {
  const ORIGIN = 'https://cardlane.example'
  it('a path on this site is followed; a foreign, protocol-relative or odd address leads Home', () => {
    const { sw, listeners } = loadWorker()
    expect(Object.keys(listeners).sort()).toEqual(['activate', 'fetch', 'install', 'notificationclick', 'push', 'pushsubscriptionchange'])
    expect(sw.notificationTarget('/order/42?from=push#top', ORIGIN)).toBe('/order/42?from=push#top')
    for (const bad of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'order/1', '', null, 42])
      expect(sw.notificationTarget(bad, ORIGIN), String(bad)).toBe('/')
  })

  it('an open window of the site is focused and sent there; none open, a new window opens there', async () => {
    const { sw } = loadWorker()
    const went: string[] = []
    const opened: string[] = []
    const windowAt = (url: string): Client => {
      const client: Client = { url, focus: async () => client, navigate: async (to) => went.push(`${url} → ${to}`) }
      return client
    }
    const clients = (open: Client[]) => ({ matchAll: async () => open, openWindow: async (to: string) => opened.push(to) })
    await sw.openTarget(clients([windowAt('https://other.example/'), windowAt(`${ORIGIN}/wallet`)]), '/order/7', ORIGIN)
    expect(went).toEqual([`${ORIGIN}/wallet → /order/7`])
    expect(opened).toEqual([])
    await sw.openTarget(clients([]), 'https://evil.example/', ORIGIN)
    expect(opened).toEqual(['/'])
  })
})

describe('the service worker: a subscription the push service changed', () => {
  const KEYS = { p256dh: 'BPublicKeyOfTheBrowser', auth: 'secretAuth' }
  const made = (endpoint: string): Subscription => ({ options: { userVisibleOnly: true }, toJSON: () => ({ endpoint, keys: KEYS }) })

  it('subscribes again with the old options and registers the new one as the opt-in does', async () => {
    const { sw } = loadWorker()
    const asked: unknown[] = []
    const sent: { url: string; init: RequestInit }[] = []
    const registration = { pushManager: { subscribe: async (options: unknown) => (asked.push(options), made('https://push.example/new')) } }
    const send = async (url: string, init: RequestInit) => (sent.push({ url, init }), { ok: true })
    expect(await sw.resubscribe(registration, made('https://push.example/old'), null, send)).toBe(true)
    expect(asked).toEqual([{ userVisibleOnly: true }])
    expect(sent).toHaveLength(1)
    expect(sent[0]!.url).toBe('/account/push')
    expect(sent[0]!.init).toMatchObject({ method: 'POST', credentials: 'same-origin', redirect: 'manual' })
    expect(Object.fromEntries(new URLSearchParams(String(sent[0]!.init.body)))).toEqual({ endpoint: 'https://push.example/new', ...KEYS })
  })

  it('a subscription the browser already made is registered as it is; none at all, nothing is sent', async () => {
    const { sw } = loadWorker()
    const sent: string[] = []
    const send = async (_url: string, init: RequestInit) => (sent.push(String(init.body)), { ok: false })
    const never = { pushManager: { subscribe: async () => expect.fail('no new subscription was needed') } }
    // Signed out (the site answers a redirect, not ok): false, and the next visit subscribes again.
    expect(await sw.resubscribe(never, null, made('https://push.example/given'), send)).toBe(false)
    expect(new URLSearchParams(sent[0]).get('endpoint')).toBe('https://push.example/given')
    expect(await sw.resubscribe(never, null, null, send)).toBe(false)
    expect(sent).toHaveLength(1)
  })
})
