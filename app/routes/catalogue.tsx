// The rate checker's catalogue as JSON (every brand, what is bought of it, and the board), for
// Home's "Check a rate" once the page is up: Home's document carries one line a featured brand,
// not the whole catalogue (docs/performance.md). Public, like the catalogue itself.
import { type LoaderFunctionArgs } from '@remix-run/node'
import { giftCardCatalogueFlow } from '~/upstream/catalogue.server'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const result = await giftCardCatalogueFlow(request, context)
  if (!result.success) return Response.json({ brands: null, rates: null, message: result.msg }, { status: 503 })
  // Rates move: the browser may keep this for a short while only; the sell page asks the api anew.
  return Response.json({ ...result.data, message: null }, { headers: { 'Cache-Control': 'public, max-age=30' } })
}
