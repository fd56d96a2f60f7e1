import { z } from 'zod'
import { STAFF_ROLES, type StaffRole } from './ops/staff-rules'

/**
 * One record per api call: method, path, what it takes and what it answers. The api mounts its
 * handler from the record (api/lib/route.ts), the web calls it through one typed function that
 * parses `data` with the record's schema (app/upstream/client.server.ts), and a test checks
 * that the two sides list the same calls (tests/api/contract.test.ts).
 *
 * `auth`: 'public' anyone; 'user' needs a live customer token (401 otherwise); 'optional' reads a
 * token when one is sent (sendEmailCode for the signed-in code types). Operators (the web never
 * calls these) are staff members signed in with password and authenticator code, presenting
 * `Authorization: Bearer <staff token>`: 'staff' any role, 'staff:<role>' that role or admin
 * (admin can do everything). 'automation' is a staff admin OR the break-glass ADMIN_TOKEN, only
 * for calls a script may make (bootstrapping the first admin, the books check, stats); the token
 * is refused everywhere else and audited as actor `admin-token` where it is accepted.
 */
export { STAFF_ROLES, type StaffRole }
export type StaffAuth = 'staff' | `staff:${StaffRole}` | 'automation'
export type Auth = 'public' | 'user' | 'optional' | StaffAuth

export type GetEndpoint<Q extends z.ZodTypeAny = z.ZodTypeAny, D extends z.ZodTypeAny = z.ZodTypeAny, A extends Auth = Auth> = {
  method: 'GET'
  path: string
  auth: A
  /** The query string (every GET also carries `_t`, which is not part of it). */
  query: Q
  data: D
}

export type PostEndpoint<B extends z.ZodTypeAny = z.ZodTypeAny, D extends z.ZodTypeAny = z.ZodTypeAny, A extends Auth = Auth> = {
  method: 'POST'
  path: string
  auth: A
  body: B
  data: D
}

export type Endpoint = GetEndpoint | PostEndpoint

/** What the caller sends: the body of a POST, the query of a GET (before parsing). */
export type InputOf<E extends Endpoint> = E extends PostEndpoint<infer B> ? z.input<B> : E extends GetEndpoint<infer Q> ? z.input<Q> : never
/** What the handler receives after parsing. */
export type ParsedInputOf<E extends Endpoint> =
  E extends PostEndpoint<infer B> ? z.output<B> : E extends GetEndpoint<infer Q> ? z.output<Q> : never
/** The envelope's `data` as the web reads it. */
export type DataOf<E extends Endpoint> = z.output<E['data']>
/** The envelope's `data` as the api writes it. */
export type DataInOf<E extends Endpoint> = z.input<E['data']>

export const get = <A extends Auth, Q extends z.ZodTypeAny, D extends z.ZodTypeAny>(
  path: string,
  auth: A,
  query: Q,
  data: D,
): GetEndpoint<Q, D, A> => ({
  method: 'GET',
  path,
  auth,
  query,
  data,
})

export const post = <A extends Auth, B extends z.ZodTypeAny, D extends z.ZodTypeAny>(
  path: string,
  auth: A,
  body: B,
  data: D,
): PostEndpoint<B, D, A> => ({
  method: 'POST',
  path,
  auth,
  body,
  data,
})

/** POSTs that take nothing (an empty object, or no body at all); any field is refused. */
export const noInput = z.object({}).strict()
/** GETs without parameters: unknown query parameters are ignored, as on every GET. */
export const noQuery = z.object({})
/** Calls that answer no data. */
export const noData = z.null()

/** The input schema of a record, whichever its method. */
export const inputSchema = (e: Endpoint): z.ZodTypeAny => (e.method === 'GET' ? e.query : e.body)
