/**
 * What the web process (server/) hands every loader and action besides the request: the state of
 * one incoming request. Made by server/load-context.ts, read here by type only: app/ never imports
 * server/, and nothing per request lives in a module or on the global object.
 */

/** The GET answers one incoming request has shared between its loaders (upstream/request-memo.server.ts). */
export type RequestMemo = Map<string, Promise<unknown>>

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** This response's CSP nonce: the inline scripts Remix renders carry it. */
    readonly cspNonce: string
    /** The visitor's address as Express decided it (TRUST_PROXY), forwarded to the api for its limits. */
    readonly clientAddress: string
    /** This request's id: in the web's and the api's log lines for it, the X-Request-Id header, the error page's reference. */
    readonly requestId: string
    /** Reports how an api call ended to the web's metrics (server/metrics.ts): contract path, outcome, seconds. */
    readonly observeUpstream: (call: string, outcome: string, seconds: number) => void
    readonly memo: RequestMemo
    /** The bytes this route's body may have (server/body-limit.ts); an upload route reads files up to it. */
    readonly bodyLimit: number
    /** This request's path as a log line may write it: a set-up link's token masked (server/log-path.ts). */
    readonly logPath: string
  }
}
