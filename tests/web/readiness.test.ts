import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Lifecycle } from '../../server/health'
import { useTestApi } from '../support/kit'
import { startWeb, type RunningWeb } from './web-app'

/**
 * The web's /readyz: ready only when it is not stopping and the api's own /readyz says ready, so a
 * balancer never sends pages to a web whose api cannot answer them. /healthz: alive.
 */
const api = useTestApi()
const lifecycle: Lifecycle = { stopping: false }
let web: RunningWeb
beforeAll(async () => {
  web = await startWeb({ lifecycle })
})
afterAll(async () => {
  await web?.close()
})

const readyz = async (base: string) => {
  const res = await fetch(`${base}/readyz`)
  return { status: res.status, body: await res.json() }
}

describe('web /readyz', () => {
  it('is ready when the api is ready; /healthz says alive', async () => {
    expect(await readyz(web.url)).toEqual({ status: 200, body: { ready: true, api: 'ok' } })
    const alive = await fetch(`${web.url}/healthz`)
    expect([alive.status, await alive.text()]).toEqual([200, 'OK'])
  })

  it("is not ready while the api's /readyz is not", async () => {
    api.deps.lifecycle.stopping = true
    try {
      expect(await readyz(web.url)).toEqual({ status: 503, body: { ready: false, api: 'not ready' } })
    } finally {
      api.deps.lifecycle.stopping = false
    }
  })

  it('is not ready when the api cannot be reached', async () => {
    const before = process.env.API_BASE_URL
    process.env.API_BASE_URL = 'http://127.0.0.1:9'
    const orphan = await startWeb()
    process.env.API_BASE_URL = before
    try {
      expect(await readyz(orphan.url)).toEqual({ status: 503, body: { ready: false, api: 'down' } })
    } finally {
      await orphan.close()
    }
  })

  it('answers 503 first once the process is stopping', async () => {
    lifecycle.stopping = true
    expect(await readyz(web.url)).toEqual({ status: 503, body: { ready: false, process: 'stopping' } })
    lifecycle.stopping = false
  })
})
