// Trading Plaza (SPEC §2, login): the rates board — every brand × country × card type we buy, its
// rate now, its change over the last 24 hours, and a way to sell it. Search and filters are a GET
// form, so they work without JavaScript and every view of the board is a URL. The board is paged by
// brand (a few brands a page, each with all its rates), so no page is one long list.
import { type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useLoaderData, useSubmit } from '@remix-run/react'
import { useEffect, useRef, type FormEvent } from 'react'
import type { Brand, Rate } from '#contract/catalogue'
import { COUNTRIES } from '#contract/rates'
import { BrandTile } from '~/components/brand-tile'
import { Button, ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { Link } from '~/components/link'
import { cardTypeLabel, countryName, RateChange, RateText, sellHref } from '~/components/rate-row'
import { Screen } from '~/components/screen'
import { useHydrated } from '~/components/ui'
import plazaStyles from '~/styles/screens/plaza.css?url'
import { giftCardCatalogueFlow } from '~/upstream/catalogue.server'
import { loaded } from '~/upstream/flow.server'
import { requireToken } from '~/utils/auth.server'
import { sellingMessages as M } from '~/utils/selling-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'

export const handle = stylesheetHandle(plazaStyles)
export const links = stylesheetLinks(handle)

const COUNTRY_CODES = Object.keys(COUNTRIES)
const TYPES = ['physical', 'ecode'] as const
const BRANDS_PER_PAGE = 4

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const url = new URL(request.url)
  // Filters a person can type into the URL: anything unknown reads as "all", never an error.
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 40)
  const askedCountry = (url.searchParams.get('country') ?? '').toUpperCase()
  const country = COUNTRY_CODES.includes(askedCountry) ? askedCountry : ''
  const askedType = url.searchParams.get('cardType') ?? ''
  const cardType = (TYPES as readonly string[]).includes(askedType) ? (askedType as (typeof TYPES)[number]) : ''
  const { brands, rates } = loaded(
    await giftCardCatalogueFlow(request, context, { ...(country && { country }), ...(cardType && { cardType }) }),
  )
  const needle = q.toLowerCase()
  const shown = rates.filter((r) => !needle || r.brandName.toLowerCase().includes(needle) || r.brandId.includes(needle))
  // The board grouped by brand, in the catalogue's order; within a brand, its countries as the
  // sell page lists them (the United States first), physical before e-code.
  const groups = brands
    .map((brand) => {
      const countries = brand.countries.map((c) => c.country)
      const rank = (r: Rate) => countries.indexOf(r.country) * 2 + (r.cardType === 'physical' ? 0 : 1)
      return {
        brand: { brandId: brand.brandId, name: brand.name, logo: brand.logo, etaMinutes: brand.etaMinutes },
        rates: shown.filter((r) => r.brandId === brand.brandId).sort((a, b) => rank(a) - rank(b)),
      }
    })
    .filter((g) => g.rates.length > 0)
  const pages = Math.max(1, Math.ceil(groups.length / BRANDS_PER_PAGE))
  const asked = Number(url.searchParams.get('page'))
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, pages) : 1
  return {
    groups: groups.slice((page - 1) * BRANDS_PER_PAGE, page * BRANDS_PER_PAGE),
    filters: { q, country, cardType },
    count: shown.length,
    page,
    pages,
  }
}

type Group = { brand: Pick<Brand, 'brandId' | 'name' | 'logo' | 'etaMinutes'>; rates: Rate[] }

/** With JavaScript the board follows the search as it is typed (and the filters as they change). */
function useFilterAsYouType() {
  const submit = useSubmit()
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => () => clearTimeout(timer.current), [])
  return (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget
    clearTimeout(timer.current)
    timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), TYPING_PAUSE_MS)
  }
}

const TYPING_PAUSE_MS = 250

export default function TradingPlazaScreen() {
  const { groups, filters, count, page, pages } = useLoaderData<typeof loader>()
  const filtered = Boolean(filters.q || filters.country || filters.cardType)
  const hydrated = useHydrated()
  const onChange = useFilterAsYouType()
  return (
    <Screen backTo="/">
      <Form method="get" className="cl-plaza-filters" role="search" aria-label="Rates" onChange={onChange}>
        <div className="cl-field">
          <label className="cl-field__label" htmlFor="plaza-q">
            Search cards
          </label>
          <div className="cl-plaza-search">
            <input
              id="plaza-q"
              name="q"
              type="search"
              className="cl-input"
              defaultValue={filters.q}
              placeholder="Apple, Steam…"
              maxLength={40}
              autoComplete="off"
            />
          </div>
        </div>
        <div className="cl-plaza-filters__row">
          <div className="cl-field">
            <label className="cl-field__label" htmlFor="plaza-country">
              Country
            </label>
            <select id="plaza-country" name="country" className="cl-input" defaultValue={filters.country}>
              <option value="">All countries</option>
              {COUNTRY_CODES.map((c) => (
                <option key={c} value={c}>
                  {countryName(c)}
                </option>
              ))}
            </select>
          </div>
          <div className="cl-field">
            <label className="cl-field__label" htmlFor="plaza-type">
              Card type
            </label>
            <select id="plaza-type" name="cardType" className="cl-input" defaultValue={filters.cardType}>
              <option value="">All types</option>
              {TYPES.map((t) => (
                <option key={t} value={t}>
                  {cardTypeLabel(t)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="cl-plaza-filters__actions">
          {hydrated ? null : (
            <Button type="submit" variant="primary" icon="list">
              Show rates
            </Button>
          )}
          {filtered ? (
            <Link to="/trading-plaza" className="cl-link cl-link--touch">
              Clear
            </Link>
          ) : null}
        </div>
      </Form>

      <p className="cl-plaza-note" aria-live="polite">
        {count === 1 ? '1 rate' : `${count} rates`}. You get the rate times the card&rsquo;s value; change is over the last 24 hours.
      </p>

      {groups.length === 0 ? (
        <Card className="cl-empty">
          <span className="cl-icon-tile" aria-hidden="true">
            <Icon name="info" size={28} />
          </span>
          <h2 className="cl-empty__title">{M.noRates}</h2>
          <p className="cl-empty__text">{M.noRatesText}</p>
          <ButtonLink to="/trading-plaza" variant="secondary" block>
            Show every rate
          </ButtonLink>
        </Card>
      ) : (
        groups.map((g) => <BrandRates key={g.brand.brandId} group={g} />)
      )}
      {pages > 1 ? <Pager page={page} pages={pages} filters={filters} /> : null}
    </Screen>
  )
}

/** Previous and next page of the board, with the same search and filters. */
function Pager({ page, pages, filters }: { page: number; pages: number; filters: Record<string, string> }) {
  const href = (to: number) => {
    const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v))
    if (to > 1) query.set('page', String(to))
    return query.size ? `/trading-plaza?${query}` : '/trading-plaza'
  }
  return (
    <nav className="cl-plaza-pager" aria-label="Pages of rates">
      {page > 1 ? (
        <Link to={href(page - 1)} className="cl-button cl-button--secondary" rel="prev">
          <Icon name="chevron-left" size={20} /> Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="cl-plaza-pager__where">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={href(page + 1)} className="cl-button cl-button--secondary" rel="next">
          Next <Icon name="chevron-right" size={20} />
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}

function BrandRates({ group: { brand, rates } }: { group: Group }) {
  const headingId = `plaza-${brand.brandId}`
  return (
    <section className="cl-card cl-card--flush cl-plaza-brand" aria-labelledby={headingId}>
      <div className="cl-plaza-brand__head">
        <BrandTile brandId={brand.brandId} logo={brand.logo} />
        <div>
          <h2 id={headingId} className="cl-plaza-brand__name">
            {brand.name}
          </h2>
          <p className="cl-plaza-brand__eta">Reviewed in about {brand.etaMinutes} min</p>
        </div>
      </div>
      <ul className="cl-plaza-rates">
        {rates.map((r) => (
          <li key={`${r.country}-${r.cardType}`} className="cl-plaza-rate">
            <div className="cl-plaza-rate__what">
              <span className="cl-plaza-rate__country">{countryName(r.country)}</span>
              <span className="cl-plaza-rate__type">{cardTypeLabel(r.cardType)}</span>
            </div>
            <div className="cl-plaza-rate__figures">
              <RateText rate={r} />
              <RateChange rate={r} />
            </div>
            <Link
              to={sellHref(r)}
              className="cl-button cl-button--secondary cl-plaza-rate__sell"
              aria-label={`Sell ${brand.name} ${countryName(r.country)} ${cardTypeLabel(r.cardType).toLowerCase()}`}
            >
              Sell
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
