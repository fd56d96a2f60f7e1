import { catalogueApi as api } from '#contract/catalogue'
import type { ApiDeps } from '../deps'
import { contractRouter } from '../lib/route'
import * as catalogue from '../services/catalogue'

/** /v1/giftcard/*: the public catalogue, the rates board and quotes. */
export function catalogueRoutes(deps: ApiDeps) {
  const { router, bind } = contractRouter(deps)
  bind(api.list, () => catalogue.giftCardList(deps))
  bind(api.featured, () => catalogue.featuredGiftCards(deps))
  bind(api.rates, ({ input }) => catalogue.giftCardRates(deps, input))
  bind(api.catalogue, ({ input }) => catalogue.giftCardCatalogue(deps, input))
  bind(api.quote, ({ input }) => catalogue.quote(deps, input))
  return router
}
