import { opsRouteFor, isOpsPath } from '../ops/desks'
import { matchesPath, resourceRoutes, screenFor, type Access } from './routes'

// Who may open a path, asked only on the server (the root's loader, the guards' tests): apart from
// routes.ts so the browser's copy of the screens table does not carry the console's as well.

/** Unknown paths are public: they answer 404 without revealing whether you are signed in. */
export function accessFor(pathname: string): Access {
  // The operator console (/ops/*) has its own table and its own sign-in (app/ops/desks.ts).
  if (isOpsPath(pathname)) return opsRouteFor(pathname)?.access ?? 'staff'
  return screenFor(pathname)?.access ?? resourceRoutes.find((r) => matchesPath(r.path, pathname))?.access ?? 'public'
}
