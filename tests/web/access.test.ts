import { readdirSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { meta } from '~/root'
import { safeRedirect } from '~/utils/redirect'
import { isCrossSiteMutation } from '~/utils/request-guard.server'
import { accessFor, resourceRoutes, screens, screenFor } from '~/utils/routes'
import { commitSession, getSession } from '~/utils/session.server'
import { combineHeaders } from '~/utils/toast.server'
import { CookieJar, call, expectRedirect, load, makeRequest } from '../support/web'

const routesDir = path.resolve(__dirname, '../../app/routes')

/** Remix v2 flat routes: `wallet.withdraw.$id.tsx` → /wallet/withdraw/:id, `_index` → /. */
function routePath(file: string) {
  const name = file.replace(/\.(tsx|ts)$/, '')
  if (name === '_index') return '/'
  return '/' + name.split('.').filter((s) => s !== '_index').map((s) => (s.startsWith('$') ? `:${s.slice(1)}` : s)).join('/')
}
const routeFiles = readdirSync(routesDir).filter((f) => /\.(tsx|ts)$/.test(f))

async function signedInJar() {
  const jar = new CookieJar()
  const session = await getSession(makeRequest('/'))
  session.set('token', 'some-token')
  jar.absorb(new Response(null, { headers: { 'Set-Cookie': await commitSession(session) } }))
  return jar
}

describe('the route table is the one place for access and titles (SPEC §2)', () => {
  it('lists the 23 screens of the specification', () => {
    expect(screens).toHaveLength(23)
    expect(new Set(screens.map((s) => s.path)).size).toBe(23)
    expect(screens.filter((s) => s.access === 'public').map((s) => s.path).sort()).toEqual(
      ['/', '/download', '/forgot-password', '/order/sell', '/user/privacy'].sort(),
    )
    expect(screens.filter((s) => s.access === 'guest').map((s) => s.path).sort()).toEqual(['/login', '/register'])
  })

  it('matches concrete paths, specific before parameterised', () => {
    expect(screenFor('/order/sell')?.screen).toBe('SellGiftCard')
    expect(screenFor('/order/123')?.screen).toBe('OrderDetail')
    expect(screenFor('/wallet/withdraw')?.screen).toBe('Withdraw')
    expect(screenFor('/wallet/withdraw/9')?.screen).toBe('WithdrawDetail')
    expect(accessFor('/no/such/page')).toBe('public')
  })

  it('every route file is in the table', () => {
    const known = new Set([...screens.map((s) => s.path), ...resourceRoutes.map((r) => r.path)])
    for (const file of routeFiles) expect(known, `${file} → ${routePath(file)}`).toContain(routePath(file))
  })

  for (const file of routeFiles) {
    const pathname = routePath(file).replace(/:(\w+)/g, '1')
    const access = accessFor(pathname)
    if (access === 'login') {
      it(`${pathname} sends a visitor to /login and back (loader and action)`, async () => {
        const mod = await import(path.join(routesDir, file))
        expect(mod.loader, `${file} must have a loader that applies the guard`).toBeTypeOf('function')
        expectRedirect(await load(mod.loader, `${pathname}?x=1`), `/login?redirectTo=${encodeURIComponent(`${pathname}?x=1`)}`)
        if (mod.action) {
          const res = await call(mod.action, makeRequest(pathname, { form: { a: 'b' } }))
          expectRedirect(res, '/login')
        }
      })
    }
    if (access === 'guest') {
      it(`${pathname} sends a signed-in user home`, async () => {
        const mod = await import(path.join(routesDir, file))
        expectRedirect(await load(mod.loader, pathname, await signedInJar()), '/')
        expectRedirect(await call(mod.action, makeRequest(pathname, { form: { a: 'b' }, jar: await signedInJar() })), '/')
      })
    }
  }

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
