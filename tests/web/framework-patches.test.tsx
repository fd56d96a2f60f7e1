import { createRequire } from 'node:module'
import type { EntryContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import type * as Router from '@remix-run/router'
import { useContext } from 'react'
import { renderToString } from 'react-dom/server'
import { UNSAFE_DataRouterContext, type RouteObject } from 'react-router-dom'
import type * as ReactRouterServer from 'react-router-dom/server'
import { describe, expect, it, vi } from 'vitest'

/**
 * patches/ (decision 010): a server renders the same routes on every request, so what is derived
 * from them alone is derived once. Each test fails on the unpatched packages.
 */
// The file the server loads: @remix-run/react (CommonJS) requires react-router-dom/server.js.
const require = createRequire(import.meta.url)
const { createStaticHandler, createStaticRouter } = require('react-router-dom/server') as typeof ReactRouterServer
// The router as the server runtime and react-router load it (CommonJS).
const { matchRoutes } = require('@remix-run/router') as typeof Router

describe('framework patches: what depends on the routes alone is made once', () => {
  it('@remix-run/router: a pathname is matched once per route tree, and each caller gets its own matches', () => {
    const routes = [
      {
        id: 'root',
        path: '/',
        children: [
          { id: 'order', path: 'order/:id' },
          { id: 'home', index: true },
        ],
      },
    ]
    const first = matchRoutes(routes, '/order/7')
    // Matching decodes the pathname segment by segment; an answer already known is not matched again.
    const decode = vi.spyOn(globalThis, 'decodeURIComponent')
    try {
      const second = matchRoutes(routes, '/order/7')
      expect(decode).not.toHaveBeenCalled()
      expect(second).toEqual(first)
      expect(second).not.toBe(first)
      ;(second![1].params as Record<string, string>).id = 'changed by a caller'
      expect(matchRoutes(routes, '/order/7')![1].params).toEqual({ id: '7' })
      expect(matchRoutes(routes, '/order/8')![1].params).toEqual({ id: '8' })
      expect(decode).toHaveBeenCalled()
    } finally {
      decode.mockRestore()
    }
    expect(matchRoutes(routes, '/nowhere/at/all')).toBeNull()
  })

  it('react-router-dom: createStaticRouter keeps the data routes of a routes array', async () => {
    const routes: RouteObject[] = [{ path: '/', element: <p>home</p> }, { path: '/a' }]
    const handler = createStaticHandler(routes)
    const context = await handler.query(new Request('http://x/'))
    if (context instanceof Response) throw new Error('expected a context')
    const first = createStaticRouter(routes, context)
    const second = createStaticRouter(routes, context)
    expect(second.routes).toBe(first.routes)
    // Another routes array is another set of data routes, and each router has its own state.
    expect(createStaticRouter([{ path: '/' }], context).routes).not.toBe(first.routes)
    expect(second.state).not.toBe(first.state)
  })

  it('@remix-run/react: RemixServer builds the server routes once per build, and still renders each request', async () => {
    const seen: unknown[] = []
    function Probe() {
      seen.push(useContext(UNSAFE_DataRouterContext)?.router.routes)
      return <p>probe</p>
    }
    const build = { root: { id: 'root', path: '', hasLoader: false, hasAction: false, hasErrorBoundary: false, module: '/root.js' } }
    const context = async () => {
      const handler = createStaticHandler([{ id: 'root', path: '/' }])
      const staticHandlerContext = await handler.query(new Request('http://x/'))
      if (staticHandlerContext instanceof Response) throw new Error('expected a context')
      return {
        manifest: { routes: build, entry: { module: '/entry.js', imports: [] }, url: '/manifest.js', version: '1' },
        routeModules: { root: { default: Probe } },
        staticHandlerContext,
        serverHandoffString: '{}',
        future: FUTURE,
        isSpaMode: false,
        serializeError: (error: Error) => ({ message: error.message }),
      } as unknown as EntryContext
    }
    expect(renderToString(<RemixServer context={await context()} url="http://x/" />)).toContain('probe')
    expect(renderToString(<RemixServer context={await context()} url="http://x/" />)).toContain('probe')
    expect(seen).toHaveLength(2)
    expect(seen[1]).toBe(seen[0])
  })
})

const FUTURE = { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true }
