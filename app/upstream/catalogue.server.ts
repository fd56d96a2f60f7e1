import { catalogueApi as api, COUNTRIES, type Brand } from '#contract/catalogue'
import type { InputOf } from '#contract/endpoint'
import { profileApi, type GiftCard } from '#contract/profile'
import { callApi } from '~/utils/auth.server'
import { sellingMessages as M } from '~/utils/messages'
import { flow } from './flow.server'

/** The gift-card catalogue (DESIGN §3 "Catalogue", public calls), one flow per contract call. */
export const giftCardListFlow = (request: Request) => flow(M.catalogueFailed, async () => inOurOrder(await callApi(request, api.list, {})))

/** Countries as sellers look for them (COUNTRIES' order: the United States first), not alphabetically. */
const COUNTRY_ORDER = Object.keys(COUNTRIES)
function countryRank(code: string) {
  const rank = COUNTRY_ORDER.indexOf(code)
  return rank < 0 ? COUNTRY_ORDER.length : rank
}
function inOurOrder(brands: Brand[]): Brand[] {
  return brands.map((b) => ({ ...b, countries: [...b.countries].sort((x, y) => countryRank(x.country) - countryRank(y.country)) }))
}

export const giftCardRatesFlow = (request: Request, query: InputOf<typeof api.rates> = {}) =>
  flow(M.catalogueFailed, () => callApi(request, api.rates, query))

/**
 * Home's featured cards: the signed-in person's come with their user info (`giftCardList` of
 * /v1/user/index, SPEC §7); a visitor's are read from the public catalogue in the same shape, with
 * the whole list for the rate checker.
 */
export function featuredCardsFlow(request: Request, signedIn: boolean) {
  return flow(M.catalogueFailed, async () => {
    if (signedIn) return { giftCardList: (await callApi(request, profileApi.index, {})).giftCardList, brands: null, rates: null }
    const [list, rates] = await Promise.all([callApi(request, api.list, {}), callApi(request, api.rates, {})])
    const brands = inOurOrder(list)
    const giftCardList: GiftCard[] = brands
      .filter((b) => b.featured)
      .map((b) => ({
        brandId: b.brandId,
        name: b.name,
        logo: b.logo,
        etaMinutes: b.etaMinutes,
        rates: rates.filter((r) => r.brandId === b.brandId),
      }))
      .filter((card) => card.rates.length > 0)
    return { giftCardList, brands, rates }
  })
}
