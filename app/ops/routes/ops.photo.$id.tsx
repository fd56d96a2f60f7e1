// GET /ops/photo/:id (resource route, reviewers): a card photo or a proof photo streamed through the
// api's /admin/file/get with the reviewer's own Bearer token, never a customer's cookie. No cache
// keeps it; an unknown id is a 404.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireStaff } from '~/ops/staff.server'
import { photoResponse } from '~/upstream/uploads.server'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { token } = await requireStaff(request, context)
  return photoResponse(request, context, params.id ?? '', { staffToken: token })
}
