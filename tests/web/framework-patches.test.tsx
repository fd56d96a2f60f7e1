import { createRequire } from 'node:module'
import type { EntryContext, ServerBuild } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import type * as Router from '@remix-run/router'
import type * as ServerRuntime from '@remix-run/server-runtime'
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
// The server runtime as @remix-run/node loads it (CommonJS).
const { createRequestHandler, json } = require('@remix-run/server-runtime') as typeof ServerRuntime

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

describe('framework patches: a page request is not copied for each of its loaders', () => {
  /** A build of one root route whose loader records the request it was handed, and the data the page was rendered with. */
  function recordingBuild(seen: Request[], rendered: unknown[] = []): ServerBuild {
    const loader = ({ request }: { request: Request }) => {
      seen.push(request)
      return json({ path: new URL(request.url).search, at: new Date(0), gone: undefined })
    }
    const entry = {
      default: (_request: Request, _status: number, _headers: Headers, context: EntryContext) => {
        rendered.push(context.staticHandlerContext.loaderData.root)
        return new Response('page', { headers: { 'Content-Type': 'text/html' } })
      },
    }
    return {
      mode: 'production',
      entry: { module: entry },
      routes: { root: { id: 'root', path: '', module: { loader, default: () => null } } },
      assets: {
        entry: { module: '/entry.js', imports: [] },
        routes: {
          root: {
            id: 'root',
            path: '',
            module: '/root.js',
            hasLoader: true,
            hasAction: false,
            hasClientAction: false,
            hasClientLoader: false,
            hasErrorBoundary: false,
          },
        },
        version: '1',
        url: '/manifest.js',
      },
      publicPath: '/build/',
      assetsBuildDirectory: 'public/build',
      future: FUTURE,
      isSpaMode: false,
    } as unknown as ServerBuild
  }

  it('@remix-run/server-runtime: a loader gets the request itself when there is no ?index or ?_data to strip', async () => {
    const seen: Request[] = []
    const handle = createRequestHandler(recordingBuild(seen), 'production')
    const page = new Request('http://x/?tab=1')
    expect(await (await handle(page)).text()).toBe('page')
    // Unpatched, each loader got a copy (a new Request, its headers copied, a signal of its own).
    expect(seen[0]).toBe(page)
    // What Remix strips is still stripped, from a copy.
    const data = new Request('http://x/?tab=1&_data=root')
    expect(await (await handle(data)).json()).toEqual({ path: '?tab=1', at: '1970-01-01T00:00:00.000Z' })
    expect(seen[1]).not.toBe(data)
    expect(new URL(seen[1].url).searchParams.has('_data')).toBe(false)
  })

  it('@remix-run/router: a json() answer rendered on the server is parsed from its text, not read back through its body stream', async () => {
    const rendered: unknown[] = []
    const handle = createRequestHandler(recordingBuild([], rendered), 'production')
    const read = vi.spyOn(Response.prototype, 'json')
    try {
      expect((await handle(new Request('http://x/'))).status).toBe(200)
      expect(read).not.toHaveBeenCalled()
    } finally {
      read.mockRestore()
    }
    // Exactly what the browser gets: the JSON text parsed (a date as its string, undefined left out).
    expect(rendered).toEqual([{ path: '', at: '1970-01-01T00:00:00.000Z' }])
    expect(Object.keys(rendered[0] as object)).toEqual(['path', 'at'])
  })
})

const FUTURE = { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true }
