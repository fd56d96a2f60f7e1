import { createSession, type Session, type SessionData, type SessionStorage } from '@remix-run/node'

/**
 * A cookie session storage's getSession, each signed Cookie header checked once. A page's loaders
 * read their session several times (root or frame, guard, each api call's token), side by side, and
 * each read is a parse and an HMAC; the same signed header always holds the same data, so the first
 * check is shared and what it found kept. A header that fails (tampered, old secret, empty) is not
 * kept. Bounded: the oldest entry goes first. `forget` drops them all (the storage was built again
 * with other secrets).
 */
export function verifiedOnce<D extends SessionData, F extends SessionData>(max = 1000) {
  type Held = Session<D, F>['data']
  // The data as the cookie holds it (flash keys included), which createSession takes back as it is.
  const verified = new Map<string, Promise<Held | null>>()
  return {
    async getSession(storage: SessionStorage<D, F>, header: string | null): Promise<Session<D, F>> {
      if (!header) return storage.getSession(header)
      let held = verified.get(header)
      if (!held) {
        held = storage.getSession(header).then((session) => (Object.keys(session.data).length > 0 ? { ...session.data } : null))
        if (verified.size >= max) verified.delete(verified.keys().next().value as string)
        verified.set(header, held)
        const mine = held
        const drop = () => verified.get(header) === mine && verified.delete(header)
        held.then((data) => data || drop(), drop)
      }
      const data = await held
      // A fresh session each time: a loader that sets or flashes must not change another's.
      return data ? createSession<D, F>({ ...data } as unknown as D) : storage.getSession(null)
    },
    forget: () => verified.clear(),
  }
}
