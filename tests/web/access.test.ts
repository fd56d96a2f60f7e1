import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { flatRoutes } from '@remix-run/dev/dist/config/flat-routes.js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { opsRoutes as opsDeskRoutes } from '~/ops/desks'
import * as root from '~/root'
import { meta } from '~/root'
import * as login from '~/routes/login'
import { accessFor } from '~/utils/access.server'
import { transportMessages } from '~/utils/messages'
import { safeRedirect } from '~/utils/redirect'
import { resourceRoutes, screens, screenFor } from '~/utils/routes'
import { commitSession, getSession } from '~/utils/session.server'
import { combineHeaders } from '~/utils/toast.server'
import { ignoredRouteFiles } from '../../app/route-files'
import { isCrossSiteMutation } from '../../server/request-guard'
import { closedPort } from '../support/fault-upstream'
import { CookieJar, call, jsonOf, load, makeRequest, signedInJar, submit } from '../support/web'

const appDir = path.resolve(__dirname, '../../app')

/**
 * The routes as Remix itself sees them: its own flat-routes convention over app/routes (folders
 * with route.tsx, `_index`, `$param`, layouts, pathless `_x`), with app/routes.ts's ignored
 * files, each with the URL pattern its parents add up to. Nothing here re-implements file naming.
 */
type RouteEntry = { id: string; file: string; path: string }
function routeTree(dir: string): RouteEntry[] {
  const manifest = flatRoutes(dir, ignoredRouteFiles)
  const full = (id: string | undefined): string => {
    const route = id ? manifest[id] : undefined
    if (!route) return ''
    const own = route.path ? `/${route.path}` : ''
    return full(route.parentId) + own
  }
  return Object.values(manifest).map((r) => ({ id: r.id, file: path.join(dir, r.file), path: full(r.id) || '/' }))
}

/**
 * What a route module owes its access rule, by calling its loader and action as Remix would:
 * login-required ones send a visitor to /login (the way back kept for a GET), guest ones send a
 * signed-in person home. Answers the broken promises; [] when the module keeps them all.
 */
async function accessProblems(route: RouteEntry): Promise<string[]> {
  const mod = await import(route.file)
  const pathname = route.path.replace(/:\w+\??/g, '1')
  const problems: string[] = []
  const redirectsTo = (res: Response, expected: string) =>
    [302, 303].includes(res.status) && (res.headers.get('Location') ?? '') === expected
  switch (accessFor(pathname)) {
    case 'login': {
      const target = `${pathname}?x=1`
      if (typeof mod.loader !== 'function') problems.push(`${route.path}: a login-required screen needs a loader that guards it`)
      else if (!redirectsTo(await load(mod.loader, target), `/login?redirectTo=${encodeURIComponent(target)}`))
        problems.push(`${route.path}: its loader answers a visitor without sending them to /login`)
      if (mod.action && !redirectsTo(await call(mod.action, makeRequest(pathname, { form: { a: 'b' } })), '/login'))
        problems.push(`${route.path}: its action answers a visitor without sending them to /login`)
      break
    }
    case 'staff': {
      // The console: no staff session (a customer's session is not one) → the staff sign-in.
      const target = `${pathname}?x=1`
      const customer = await signedInJar('some-token')
      for (const jar of [undefined, customer]) {
        if (typeof mod.loader !== 'function') problems.push(`${route.path}: a console page needs a loader that guards it`)
        else if (!redirectsTo(await load(mod.loader, target, jar), `/ops/login?redirectTo=${encodeURIComponent(target)}`))
          problems.push(`${route.path}: its loader answers someone without a staff session without sending them to /ops/login`)
        if (mod.action && !redirectsTo(await call(mod.action, makeRequest(pathname, { form: { a: 'b' }, jar })), '/ops/login'))
          problems.push(`${route.path}: its action answers someone without a staff session without sending them to /ops/login`)
      }
      break
    }
    case 'guest': {
      const jar = await signedInJar('some-token')
      if (typeof mod.loader !== 'function' || !redirectsTo(await load(mod.loader, pathname, jar), '/'))
        problems.push(`${route.path}: its loader lets a signed-in person stay`)
      if (mod.action && !redirectsTo(await call(mod.action, makeRequest(pathname, { form: { a: 'b' }, jar })), '/'))
        problems.push(`${route.path}: its action lets a signed-in person post`)
      break
    }
  }
  return problems
}

// The customer's build and the console's (app/ops, decision 052): each its own route tree.
const customerRoutes = routeTree(appDir)
const opsRouteFiles = routeTree(path.join(appDir, 'ops'))
const appRoutes = [...customerRoutes, ...opsRouteFiles]
const tablePaths = new Set([...screens.map((s) => s.path), ...resourceRoutes.map((r) => r.path), ...opsDeskRoutes.map((r) => r.path)])

describe('the route table is the one place for access and titles (SPEC §2)', () => {
  it('lists the 23 screens of the specification, and those the product adds (Help & Support and its conversations, Rewards, notification settings, unsubscribe)', () => {
    expect(screens).toHaveLength(29)
    expect(new Set(screens.map((s) => s.path)).size).toBe(29)
    expect(screens.slice(23).map((s) => s.path)).toEqual([
      '/support',
      '/support/new',
      '/support/:id',
      '/tasks',
      '/account/notifications',
      '/unsubscribe/:token',
    ])
    expect(
      screens
        .filter((s) => s.access === 'public')
        .map((s) => s.path)
        .sort(),
    ).toEqual(['/', '/download', '/forgot-password', '/order/sell', '/support', '/unsubscribe/:token', '/user/privacy'].sort())
    expect(
      screens
        .filter((s) => s.access === 'guest')
        .map((s) => s.path)
        .sort(),
    ).toEqual(['/login', '/register'])
  })

  it('matches concrete paths, specific before parameterised', () => {
    expect(screenFor('/order/sell')?.screen).toBe('SellGiftCard')
    expect(screenFor('/order/123')?.screen).toBe('OrderDetail')
    expect(screenFor('/wallet/withdraw')?.screen).toBe('Withdraw')
    expect(screenFor('/wallet/withdraw/9')?.screen).toBe('WithdrawDetail')
    expect(accessFor('/no/such/page')).toBe('public')
  })

  it('reads the routes Remix builds (its flat-routes), so every route of the app is seen', () => {
    expect(appRoutes.map((r) => r.path).sort()).toEqual(
      expect.arrayContaining([
        '/',
        '/login',
        '/register',
        '/account',
        '/edit-profile',
        '/user/privacy',
        '/logout',
        '/auth/google/callback',
      ]),
    )
  })

  it("the customer's tree has none of the console's paths, the console's nothing but them (decision 052)", () => {
    expect(customerRoutes.filter((r) => r.path === '/ops' || r.path.startsWith('/ops/'))).toEqual([])
    expect(opsRouteFiles.length).toBeGreaterThan(0)
    expect(opsRouteFiles.filter((r) => r.path !== '/ops' && !r.path.startsWith('/ops/'))).toEqual([])
  })

  it('every route Remix serves is in the table', () => {
    for (const route of appRoutes) expect(tablePaths, `${path.relative(appDir, route.file)} → ${route.path}`).toContain(route.path)
  })

  for (const route of appRoutes) {
    it(`${route.path} keeps its access rule in its loader and its action (${accessFor(route.path.replace(/:\w+\??/g, '1'))})`, async () => {
      expect(await accessProblems(route)).toEqual([])
    })
  }

  it('every screen has its own ErrorBoundary (built on the one GeneralErrorBoundary)', async () => {
    for (const route of appRoutes) {
      const mod = await import(route.file)
      if (mod.default) expect(mod.ErrorBoundary, `${route.path} has no ErrorBoundary`).toBeTypeOf('function')
    }
  })

  describe('a folder route with an unguarded loader is caught (app/routes/wallet.withdraw/route.tsx)', () => {
    // Under the project (its tmp/): vitest's Vite loads no module from outside it.
    mkdirSync(path.resolve('tmp'), { recursive: true })
    const fixture = mkdtempSync(path.resolve('tmp', 'cardlane-routes-'))
    afterAll(() => rmSync(fixture, { recursive: true, force: true }))
    mkdirSync(path.join(fixture, 'routes', 'wallet.withdraw'), { recursive: true })
    writeFileSync(path.join(fixture, 'root.tsx'), 'export default function Root() { return null }\n')
    // The trap: a screen in a folder, its loader answering without asking who is there.
    writeFileSync(
      path.join(fixture, 'routes', 'wallet.withdraw', 'route.tsx'),
      'export async function loader() { return new Response(JSON.stringify({ balance: 150000 })) }\nexport default function Withdraw() { return null }\n',
    )
    writeFileSync(path.join(fixture, 'routes', 'wallet.withdraw', 'helpers.ts'), 'export const notARoute = true\n')

    it('Remix sees the folder as /wallet/withdraw (its helpers are not routes)', () => {
      expect(routeTree(fixture).map((r) => r.path)).toEqual(['/wallet/withdraw'])
    })

    it('and the access check reports it', async () => {
      const withdraw = routeTree(fixture).find((r) => r.path === '/wallet/withdraw')!
      expect(await accessProblems(withdraw)).toEqual(['/wallet/withdraw: its loader answers a visitor without sending them to /login'])
    })
  })

  it('titles every screen "Title - Brand"', () => {
    for (const s of screens) {
      const pathname = s.path.replace(/:(\w+)/g, '42')
      const tags = meta({ data: { env: { brandName: 'Cardlane' } }, location: { pathname } } as never) as { title?: string }[]
      expect(tags.find((t) => t.title)?.title).toBe(`${s.title} - Cardlane`)
    }
    expect(screenFor('/set-pin')?.title).toBe('Set Withdrawal PIN')
    expect(screenFor('/change-pin')?.title).toBe('Change Withdrawal PIN')
    expect(screenFor('/user/privacy')?.title).toBe('Privacy Policy')
    expect(screenFor('/download')?.title).toBe('Download app')
  })
})

describe('when the api is down, the app is not', () => {
  let saved: string | undefined
  beforeAll(async () => {
    saved = process.env.API_BASE_URL
    process.env.API_BASE_URL = await closedPort()
  })
  afterAll(() => {
    if (saved === undefined) delete process.env.API_BASE_URL
    else process.env.API_BASE_URL = saved
  })

  it.each(['/user/privacy', '/download', '/', '/no/such/page'])(
    '%s renders for a signed-in person, with the catalogue message as a toast, and signs nobody out',
    async (pathname) => {
      const res = await load(root.loader, pathname, await signedInJar('some-token'))
      expect(res.status).toBe(200)
      expect(await jsonOf(res)).toMatchObject({ user: null, signedIn: true, toast: { type: 'error', message: transportMessages.refused } })
      expect(res.headers.get('Set-Cookie')).toBeNull()
    },
  )

  it.each(['/account', '/edit-profile'])('%s, which needs the api, answers 503 with the message for the Retry screen', async (pathname) => {
    const res = await load(root.loader, pathname, await signedInJar('some-token'))
    expect(res.status).toBe(503)
    expect(await jsonOf(res)).toEqual({ message: transportMessages.refused })
    expect(res.headers.get('Set-Cookie')).toBeNull()
  })

  it('a visitor gets Login as always, and a sign-in says what happened beside the form', async () => {
    expect((await load(root.loader, '/login')).status).toBe(200)
    const res = await submit(login.action, '/login', { intent: 'password', email: 'a@example.com', password: 'whatever it is' })
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).result.error['']).toEqual([transportMessages.refused])
  })
})

describe('safeRedirect keeps redirects on our origin', () => {
  it.each([
    ['/account', '/account'],
    ['/order/5?tab=x', '/order/5?tab=x'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/%5Cevil.example', '/'],
    ['/%5cevil.example', '/'],
    ['/%2F%2Fevil.example', '/'],
    ['%2F%2Fevil.example', '/'],
    ['https://evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/\tevil', '/'],
    ['', '/'],
    [null, '/'],
  ])('%s → %s', (input, expected) => {
    expect(safeRedirect(input as string | null)).toBe(expected)
  })
})

describe('the session cookie', () => {
  const saved = { ...process.env }
  afterEach(() => {
    process.env = { ...saved }
  })

  it('is httpOnly and SameSite=Lax; in production Secure with the __Host- prefix', async () => {
    const session = await getSession(makeRequest('/'))
    session.set('token', 't')
    const dev = await commitSession(session)
    expect(dev).toMatch(/^cardlane_session=/)
    expect(dev).toMatch(/HttpOnly/i)
    expect(dev).toMatch(/SameSite=Lax/i)
    expect(dev).toMatch(/Path=\//)
    expect(dev).not.toMatch(/Secure/i)

    process.env.NODE_ENV = 'production'
    process.env.SESSION_SECRET = 'a'.repeat(40)
    const prod = await commitSession(session)
    expect(prod).toMatch(/^__Host-cardlane_session=/)
    expect(prod).toMatch(/Secure/i)
    expect(prod).not.toMatch(/Domain=/i)
  })

  it('refuses to start in production without a secret', async () => {
    process.env.NODE_ENV = 'production'
    delete process.env.SESSION_SECRET
    await expect(getSession(makeRequest('/'))).rejects.toThrow(/SESSION_SECRET/)
  })

  it('keeps sessions signed with the previous secret during a rotation, and drops forged ones', async () => {
    process.env.SESSION_SECRET = 'old-secret-old-secret-old-secret-00'
    const jar = new CookieJar()
    const session = await getSession(makeRequest('/'))
    session.set('token', 'kept')
    jar.absorb(new Response(null, { headers: { 'Set-Cookie': await commitSession(session) } }))

    process.env.SESSION_SECRET = 'new-secret-new-secret-new-secret-11,old-secret-old-secret-old-secret-00'
    expect((await getSession(makeRequest('/', { jar }))).get('token')).toBe('kept')

    process.env.SESSION_SECRET = 'new-secret-new-secret-new-secret-11'
    expect((await getSession(makeRequest('/', { jar }))).get('token')).toBeUndefined()
  })

  it('a cookie verified once (getSession remembers it) still gives each read its own session; a tampered one stays nobody', async () => {
    const jar = new CookieJar()
    const session = await getSession(makeRequest('/'))
    session.set('token', 'mine')
    session.flash('toast', { type: 'success', message: 'Saved', id: 't1' })
    jar.absorb(new Response(null, { headers: { 'Set-Cookie': await commitSession(session) } }))

    const first = await getSession(makeRequest('/', { jar }))
    expect(first.get('toast')?.message).toBe('Saved') // reading a flash unsets it, in this session only
    first.set('token', 'changed')
    const second = await getSession(makeRequest('/', { jar }))
    expect(second.get('token')).toBe('mine')
    expect(second.get('toast')?.message).toBe('Saved')

    const cookie = jar.header()
    const tampered = cookie.replace(/=([A-Za-z0-9])/, (_, c: string) => `=${c === 'e' ? 'f' : 'e'}`)
    for (let i = 0; i < 2; i++) {
      expect((await getSession(makeRequest('/', { headers: { Cookie: tampered } }))).get('token')).toBeUndefined()
    }
  })

  it('combineHeaders keeps two Set-Cookie headers', () => {
    const h = combineHeaders({ 'Set-Cookie': 'a=1; Path=/' }, new Headers({ 'Set-Cookie': 'b=2; Path=/' }))
    expect(h.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/'])
  })
})

describe('unsafe methods from another site are refused', () => {
  const base = { host: 'app.example', origin: undefined, secFetchSite: undefined } as const
  it.each([
    [{ ...base, method: 'GET', secFetchSite: 'cross-site' }, false],
    [{ ...base, method: 'POST', secFetchSite: 'same-origin', origin: 'https://app.example' }, false],
    [{ ...base, method: 'POST' }, false],
    [{ ...base, method: 'POST', secFetchSite: 'cross-site' }, true],
    [{ ...base, method: 'POST', secFetchSite: 'same-site' }, true],
    [{ ...base, method: 'POST', origin: 'https://evil.example' }, true],
    [{ ...base, method: 'POST', origin: 'null' }, true],
    [{ ...base, method: 'DELETE', origin: 'https://evil.example' }, true],
    [{ ...base, method: 'POST', origin: 'https://app.example' }, false],
  ])('%o → %s', (input, refused) => {
    expect(isCrossSiteMutation(input as never)).toBe(refused)
  })
})
