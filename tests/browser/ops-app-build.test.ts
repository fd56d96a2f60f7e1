import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPS_BRAND } from '~/ops/desks'
import { commitStaffSession, emptyStaffSession } from '~/ops/session.server'
import { startApp, type RunningApp } from '../support/app'
import { seedStaff } from '../support/staff'

/**
 * The console is an app of its own (decision 052): the production builds (`npm run build`) and the
 * web serving them prove that a customer page ranks, loads and ships nothing of the console, and
 * the console ships none of the customer's screens.
 */
type Manifest = {
  version: string
  entry: { module: string; imports: string[] }
  routes: Record<string, { id: string; module: string; imports?: string[] }>
}

function clientManifest(clientDir: string): Manifest {
  const assets = path.resolve(clientDir, 'assets')
  if (!existsSync(assets)) throw new Error('No build: run `npm run build` first (npm test does).')
  const file = readdirSync(assets).find((name) => /^manifest-[a-z0-9]+\.js$/i.test(name))!
  return JSON.parse(
    readFileSync(path.join(assets, file), 'utf8')
      .replace(/^window\.__remixManifest=/, '')
      .replace(/;\s*$/, ''),
  ) as Manifest
}
const serverRoutes = async (file: string) => Object.keys(((await import(path.resolve(file))) as { routes: object }).routes)
const isConsole = (id: string) => id === 'routes/ops' || id.startsWith('routes/ops.') || id.startsWith('routes/ops_.')
const scriptsOf = (m: Manifest) => [
  m.entry.module,
  ...m.entry.imports,
  ...Object.values(m.routes).flatMap((r) => [r.module, ...(r.imports ?? [])]),
]

const customer = clientManifest('build/client')
const ops = clientManifest('build/ops/client')

describe('the builds', () => {
  it("the customer's server build holds no console route; the console's nothing but its own and its root", async () => {
    const customerIds = await serverRoutes('build/server/index.js')
    expect(customerIds.filter(isConsole)).toEqual([])
    expect(customerIds).toContain('routes/wallet._index')
    const opsIds = await serverRoutes('build/ops/server/index.js')
    expect(opsIds.filter((id) => id !== 'root' && !isConsole(id))).toEqual([])
    expect(opsIds).toContain('routes/ops.review._index')
  })

  it("the customer's client manifest names no desk and no file under /ops; the console's only its own files", () => {
    expect(Object.keys(customer.routes).filter(isConsole)).toEqual([])
    expect(scriptsOf(customer).filter((url) => !url.startsWith('/assets/'))).toEqual([])
    expect(Object.keys(ops.routes).filter((id) => id !== 'root' && !isConsole(id))).toEqual([])
    expect(scriptsOf(ops).filter((url) => !url.startsWith('/ops/assets/'))).toEqual([])
  })

  it("the console's build carries its own stylesheets and none of the customer's", () => {
    const sheets = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.css'))
    // A built sheet is named after its source: ops-<hash>.css from ops.css.
    const names = (files: string[]) => files.map((name) => name.replace(/-[\w-]{8}\.css$/, '')).sort()
    expect(names(sheets('build/ops/client/assets'))).toEqual(
      names(sheets('app/ops/styles').map((name) => name.replace('.css', '-xxxxxxxx.css'))),
    )
  })

  it("no customer script carries the console's code; the console ships no customer screen", () => {
    const customerScripts = readdirSync('build/client/assets').filter((name) => name.endsWith('.js'))
    expect(customerScripts.filter((name) => readFileSync(path.join('build/client/assets', name), 'utf8').includes(OPS_BRAND))).toEqual([])
    // Every script of the console's build is one its manifest names (a desk's, its root's, their
    // chunks) or one those import on first use (a form's validation, decision 059): no customer
    // screen is among its files, and none of its routes is a customer's.
    const named = new Set(scriptsOf(ops).map((url) => path.basename(url)))
    for (const name of named)
      for (const [, later] of readFileSync(path.join('build/ops/client/assets', name), 'utf8').matchAll(/import\("\.\/([\w.-]+\.js)"\)/g))
        named.add(later!)
    const opsScripts = readdirSync('build/ops/client/assets').filter((name) => name.endsWith('.js') && !name.startsWith('manifest-'))
    expect(opsScripts.filter((name) => !named.has(name))).toEqual([])
  })
})

describe('as served', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app.close()
  })

  it("a customer page's document names nothing under /ops; the console's sign-in nothing of the customer's build", async () => {
    for (const page of ['/', '/login', '/wallet']) {
      const html = await (await fetch(`${app.url}${page}`)).text()
      expect(html, page).toContain(`/assets/manifest-${customer.version}.js`)
      expect(html, page).not.toContain('/ops/assets')
    }
    const login = await fetch(`${app.url}/ops/login`)
    expect(login.status).toBe(200)
    const html = await login.text()
    expect(html).toContain(`/ops/assets/manifest-${ops.version}.js`)
    expect(html).not.toMatch(/["'(]\/assets\//)
  })

  it("a console page's document links and inlines no customer stylesheet, only the console's own", async () => {
    // The builds name a file by its content: a customer sheet compiled into the console's build
    // keeps its customer name (app-<hash>.css), and an inlined one its customer text.
    const customerSheets = readdirSync('build/client/assets').filter((name) => name.endsWith('.css'))
    const customerTexts = customerSheets.map((name) => readFileSync(path.join('build/client/assets', name), 'utf8').trim())
    const staff = await seedStaff(app.api, { role: 'admin' })
    const session = await emptyStaffSession()
    session.set('token', staff.token)
    session.set('email', staff.email)
    session.set('role', staff.role)
    const cookie = (await commitStaffSession(session)).split(';')[0]!
    // The sign-in, a desk of each layout, and the root's error page (a path no desk has).
    for (const page of ['/ops/login', '/ops', '/ops/review', '/ops/payouts', '/ops/support', '/ops/no-such-desk']) {
      const headers: Record<string, string> = page === '/ops/login' ? {} : { cookie }
      const res = await fetch(`${app.url}${page}`, { headers, redirect: 'manual' })
      expect(res.status, page).toBe(page === '/ops/no-such-desk' ? 404 : 200)
      const html = await res.text()
      const sheets = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*>/g)].map(([tag]) => /href="([^"]+)"/.exec(tag)?.[1] ?? '')
      expect(
        sheets.filter((href) => customerSheets.includes(path.basename(href))),
        page,
      ).toEqual([])
      expect(
        sheets.filter((href) => /\/ops\/assets\/ops-[\w-]+\.css$/.test(href)),
        page,
      ).toHaveLength(1)
      const inline = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map(([, text]) => text!.trim())
      expect(
        inline.filter((text) => customerTexts.includes(text)),
        page,
      ).toEqual([])
    }
  })

  it("lazy route discovery on the customer's side never returns a desk", async () => {
    const patch = await fetch(`${app.url}/__manifest?p=/&p=/wallet&p=/login&version=${customer.version}`)
    expect(patch.status).toBe(200)
    expect(Object.keys((await patch.json()) as object).filter(isConsole)).toEqual([])
    // A customer page asking for a console path is sent to a document load, never given a desk.
    for (const query of ['p=/ops', 'p=/ops/review', 'p=/&p=/ops/review']) {
      const res = await fetch(`${app.url}/__manifest?${query}&version=${customer.version}`)
      expect(res.status, query).toBe(204)
      expect(res.headers.get('x-remix-reload-document'), query).toBe('true')
    }
    // The console's own discovery gets its desks.
    const desks = await fetch(`${app.url}/__manifest?p=/ops/review&version=${ops.version}`)
    expect(Object.keys((await desks.json()) as object)).toContain('routes/ops.review._index')
  })
})
