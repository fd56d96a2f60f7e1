// The console's document is rendered as the customer's is: the same CSP nonce, request id,
// streaming and error log (app/entry.server.tsx), one copy of that logic for both builds.
export { default, handleError, settleWebEnv, streamTimeout } from '~/entry.server'
