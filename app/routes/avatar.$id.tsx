// GET /avatar/:id (resource route, login): a profile photo (headImg "/avatar/<id>", set by Edit
// Profile), streamed from the api to the person it belongs to, with their session. Anyone else's id,
// a card photo's id and an unknown one are all a 404. Their own browser may cache it briefly.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { photoResponse } from '~/upstream/uploads.server'
import { requireToken } from '~/utils/auth.server'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireToken(request)
  return photoResponse(request, context, params.id ?? '', 'avatar')
}
