import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { flatRoutes } from '@remix-run/dev/dist/config/flat-routes.js'
import { describe, expect, it } from 'vitest'
import { ignoredRouteFiles } from '../../app/route-files'

/**
 * A form with no action posts to its route's URL, and Remix adds `?index` when that route is an
 * index route. Without JavaScript the page that answers (a refusal shown in place) then keeps
 * `?index` in the address bar. So no screen that takes a form is an index route: a path with
 * children of its own is a plain route beside them (`wallet.withdraw.tsx` + `wallet.withdraw_.$id.tsx`).
 */
const appDir = path.resolve(__dirname, '../../app')
/** The customer's app and the console's (decision 052). */
const appDirs = [appDir, path.join(appDir, 'ops')]

describe('form URLs', () => {
  it('no route with an action is an index route (no ?index after a post without JavaScript)', async () => {
    const indexWithAction: string[] = []
    for (const dir of appDirs) {
      for (const route of Object.values(flatRoutes(dir, ignoredRouteFiles))) {
        if (!route.index) continue
        const mod = (await import(pathToFileURL(path.join(dir, route.file)).href)) as { action?: unknown }
        if (mod.action) indexWithAction.push(route.file)
      }
    }
    expect(indexWithAction).toEqual([])
  })

  it('/wallet/withdraw and /wallet/withdraw/:id are two screens, neither inside the other', () => {
    const routes = Object.values(flatRoutes(appDir, ignoredRouteFiles))
    const withdraw = routes.find((r) => r.file === 'routes/wallet.withdraw.tsx')
    const detail = routes.find((r) => r.file === 'routes/wallet.withdraw_.$id.tsx')
    expect(withdraw?.index).toBeFalsy()
    expect(detail?.parentId).toBe('root')
    expect(detail?.path).toBe('wallet/withdraw/:id')
  })
})
