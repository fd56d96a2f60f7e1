// What the test kit imports from vitest, for a measuring script run outside vitest
// (scripts/bench-review-queue.mjs): hooks never run, the kit's helpers work as in a test.
const never = () => {
  throw new Error('a test hook in a script: use the kit without hooks')
}
export const beforeAll = () => undefined
export const afterAll = () => undefined
export const afterEach = () => undefined
export const expect = { poll: never }
export const vi = { stubGlobal: never, unstubAllGlobals: never }
