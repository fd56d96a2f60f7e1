// Shared by both processes (the api imports it from here: the web's bundle holds only server/).
import type { Server } from 'node:http'

/** How long a stop waits for requests in flight: under what an orchestrator waits before SIGKILL. */
export const DRAIN_MS = 25_000

/**
 * Closes the listening socket, lets requests in flight finish and closes each keep-alive
 * connection as soon as it is idle; after `drainMs` whatever is left is cut.
 */
export function drainServer(server: Server, drainMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50)
    const cut = setTimeout(() => server.closeAllConnections(), drainMs)
    server.close(() => {
      clearInterval(idle)
      clearTimeout(cut)
      resolve()
    })
    server.closeIdleConnections()
  })
}
