import { documentHandler } from './utils/document.server'
import { stylesheetText } from './utils/stylesheet-text.server'

// The customer's documents carry their stylesheets inline (decision 058).
export default documentHandler(stylesheetText)
export { handleError, streamTimeout } from './utils/document.server'

/** For the web process's start (server/app.ts): settings are read once there, not on every call. */
export { settleWebEnv } from './utils/env.server'
