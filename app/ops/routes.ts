import { flatRoutes } from '@remix-run/fs-routes'
import type { RouteConfig } from '@remix-run/route-config'
import { ignoredRouteFiles } from '../route-files'

// The console's route tree (decision 052): the file names in app/ops/routes/ are its URLs, each
// beginning with ops. as before, so every path under /ops stays what it was.
export default flatRoutes({ ignoredRouteFiles }) satisfies RouteConfig
