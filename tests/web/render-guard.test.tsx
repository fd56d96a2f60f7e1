import { createRequestHandler } from '@remix-run/node'
import { Outlet, Scripts } from '@remix-run/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { streamTimeout } from '~/entry.server'
import { createLoadContext } from '../../server/load-context'
import { serverBuildOf } from '../support/server-build'

/**
 * The entry's guard against a stuck render (an abort after the stream's time) goes once the page
 * is rendered: a guard left to fire held each page's render until it did.
 */
function Root() {
  return (
    <html lang="en">
      <body>
        <Outlet />
        <Scripts />
      </body>
    </html>
  )
}
const build = serverBuildOf([
  { id: 'root', parentId: undefined, path: '', module: { default: Root } },
  { id: 'routes/page', parentId: 'root', path: 'page', module: { default: () => <p>a page</p>, loader: () => ({ words: 'kept' }) } },
])

afterEach(() => {
  vi.useRealTimers()
})

describe('the render guard', () => {
  it('is cleared once the page is rendered: nothing of the render is left waiting for it', async () => {
    // Only the timers: React schedules its work with setImmediate, which stays real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const handle = createRequestHandler(build, 'production')
    const response = await handle(new Request('http://localhost/page'), createLoadContext())
    const html = await response.text()
    expect(response.status).toBe(200)
    expect(html).toContain('<p>a page</p>')
    // The framework keeps a timer of its own for the page's data, no longer than the stream's time;
    // past it, no timer of this page may be left.
    vi.advanceTimersByTime(streamTimeout)
    expect(vi.getTimerCount()).toBe(0)
  })
})
