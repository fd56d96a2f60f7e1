// GET /file/:id (resource route, login): a card photo or an operator's proof photo, streamed from the
// api to the person it belongs to, with their session. Photos are secrets: there is no public URL,
// no cache keeps them (private, no-store), and anyone else's id is a 404 like an unknown one.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { photoResponse } from '~/upstream/uploads.server'
import { requireToken } from '~/utils/auth.server'

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireToken(request)
  return photoResponse(request, context, params.id ?? '')
}
