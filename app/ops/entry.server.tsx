// The console's document is rendered as the customer's is (app/utils/document.server.tsx), without
// the customer's inline stylesheets: the console links its own, so its build carries none of theirs.
import { documentHandler } from '~/utils/document.server'

export default documentHandler()
export { handleError, streamTimeout } from '~/utils/document.server'
export { settleWebEnv } from '~/utils/env.server'
