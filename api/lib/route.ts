import { Router, type Request, type RequestHandler, type Response } from 'express'
import type { DataInOf, Endpoint, ParsedInputOf, StaffAuth } from '#contract/endpoint'
import { inputSchema } from '#contract/endpoint'
import type { StaffRow, User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { currentUser, requireUser } from '../middleware/auth'
import { requireStaff } from '../middleware/staff'
import { handle } from './envelope'
import { parseInput } from './validate'

/** What a handler is given: the parsed input, and the caller as the record's `auth` says. */
export type RouteContext<E extends Endpoint> = { input: ParsedInputOf<E>; req: Request; res: Response } & (E['auth'] extends 'user'
  ? { user: User }
  : E['auth'] extends 'optional'
    ? { user: User | undefined }
    : E['auth'] extends 'automation'
      ? { actor: string; staff: StaffRow | undefined }
      : E['auth'] extends StaffAuth
        ? { actor: string; staff: StaffRow }
        : object)

export type RouteHandler<E extends Endpoint> = (ctx: RouteContext<E>) => Promise<DataInOf<E>>

const isStaffAuth = (auth: Endpoint['auth']): auth is StaffAuth => auth === 'automation' || auth.startsWith('staff')

/** GET input: the query string without the cache-buster every GET carries (SPEC §7 `_t`). */
function queryInput(req: Request): Record<string, unknown> {
  const { _t, ...rest } = req.query as Record<string, unknown>
  return rest
}

/**
 * A router that mounts handlers from contract records, so the method, path, auth rule and input
 * schema are written once (contract/). Order inside: who is calling (401 first), then the input
 * (400 naming the field), then the handler, whose return value is the envelope's data.
 */
export function contractRouter(deps: ApiDeps) {
  const router = Router()
  function bind<E extends Endpoint>(endpoint: E, handler: RouteHandler<E>, ...before: RequestHandler[]) {
    const run = handle(async (req, res) => {
      const user =
        endpoint.auth === 'user' ? await requireUser(deps, req) : endpoint.auth === 'optional' ? await currentUser(deps, req) : undefined
      const caller = isStaffAuth(endpoint.auth) ? await requireStaff(deps, req, endpoint.auth) : undefined
      const raw = endpoint.method === 'GET' ? queryInput(req) : (req.body ?? {})
      const input = parseInput(inputSchema(endpoint), raw) as ParsedInputOf<E>
      return handler({ input, req, res, user, actor: caller?.actor, staff: caller?.staff } as RouteContext<E>)
    })
    if (endpoint.method === 'GET') router.get(endpoint.path, ...before, run)
    else router.post(endpoint.path, ...before, run)
  }
  return { router, bind }
}
