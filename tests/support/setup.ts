import { afterEach, vi } from 'vitest'

// A test that makes the app log an error has found something: fail it (Epic Stack habit).
let errors: unknown[][] = []
const original = console.error
console.error = (...args: unknown[]) => {
  errors.push(args)
  original(...args)
}
afterEach(() => {
  const seen = errors
  errors = []
  vi.restoreAllMocks()
  if (seen.length) throw new Error(`console.error was called:\n${seen.map((a) => a.map(String).join(' ')).join('\n')}`)
})
