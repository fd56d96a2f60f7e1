import { afterAll, beforeAll } from 'vitest'
import { startTestApi, type StartTestApiOptions, type TestApi } from './api'

/**
 * The real api on a throw-away database for one test file: started before its tests, closed
 * after, and (unless `web: false`) the web's API_BASE_URL pointed at it. Use the returned object
 * inside tests only; it forwards to the running api.
 */
export function useTestApi(options: StartTestApiOptions & { web?: boolean } = {}): TestApi {
  let api: TestApi | undefined
  beforeAll(async () => {
    api = await startTestApi(options)
    if (options.web !== false) process.env.API_BASE_URL = api.url
  })
  afterAll(async () => {
    await api?.close()
  })
  return new Proxy({} as TestApi, {
    get(_target, key) {
      if (!api) throw new Error('useTestApi(): the api is started in beforeAll; use it inside tests')
      const value = Reflect.get(api, key)
      return typeof value === 'function' ? value.bind(api) : value
    },
  })
}

let emails = 0
/** A fresh address per call, readable in failures. */
export const newEmail = (tag = 'person') => `${tag}.${++emails}.${Date.now()}@example.com`
