import type { AppLoadContext } from '@remix-run/node'
import { catalogueApi as api, COUNTRIES, type Brand } from '#contract/catalogue'
import type { InputOf } from '#contract/endpoint'
import { sellingMessages as M } from '~/utils/selling-messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** The gift-card catalogue (DESIGN §3 "Catalogue", public calls), one flow per contract call. */
export const giftCardListFlow = (request: Request, context: AppLoadContext) =>
  flow(context, M.catalogueFailed, async () => inOurOrder(await callApi(request, context, api.list, {})))

/** Countries as sellers look for them (COUNTRIES' order: the United States first), not alphabetically. */
const COUNTRY_ORDER = Object.keys(COUNTRIES)
function countryRank(code: string) {
  const rank = COUNTRY_ORDER.indexOf(code)
  return rank < 0 ? COUNTRY_ORDER.length : rank
}
function inOurOrder(brands: Brand[]): Brand[] {
  return brands.map((b) => ({ ...b, countries: [...b.countries].sort((x, y) => countryRank(x.country) - countryRank(y.country)) }))
}

export const giftCardRatesFlow = (request: Request, context: AppLoadContext, query: InputOf<typeof api.rates> = {}) =>
  flow(context, M.catalogueFailed, () => callApi(request, context, api.rates, query))

/** Home's featured cards for a visitor (a signed-in person's come with their user index: homeFlow). */
export const featuredCardsFlow = (request: Request, context: AppLoadContext) =>
  flow(context, M.catalogueFailed, () => callApi(request, context, api.featured, {}))

/**
 * The list and the board (filtered by `query`) in one call: the Trading Plaza, and the rate
 * checker's catalogue, which the browser loads after the page.
 */
export const giftCardCatalogueFlow = (request: Request, context: AppLoadContext, query: InputOf<typeof api.catalogue> = {}) =>
  flow(context, M.catalogueFailed, async () => {
    const { brands, rates } = await callApi(request, context, api.catalogue, query)
    return { brands: inOurOrder(brands), rates }
  })
