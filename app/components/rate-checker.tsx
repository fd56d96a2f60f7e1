// "What would I get?" before signing up: brand, country, card type and face value → the payout.
// A GET form to the sell page, so without JavaScript "Check rate" opens it with the payout worked
// out and the choices made. With JavaScript the catalogue is fetched once the page is up (/catalogue:
// Home's document stays small), then the payout shows here as you type (payoutFor, the api's own
// rule) and the lists offer only what each brand is bought as. Until then — and without
// JavaScript — it is the plain form: the featured brands, every country and both types. The fields
// are controlled from the first render, so hydration never switches them to controlled.
import { Form } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { Brand, Rate } from '#contract/catalogue'
import { formatMoney, parseAmount } from '#contract/money'
import { COUNTRIES, faceValueProblem, payoutFor } from '#contract/rates'
import { Button } from './button'
import { RateText } from './rate-row'

type Choice = { brandId: string; name: string }

const ALL_COUNTRIES = Object.entries(COUNTRIES).map(([code, c]) => ({ code, name: c.name }))

type Catalogue = { brands: Brand[]; rates: Rate[] }

export function RateChecker({ choices }: { choices: Choice[] }) {
  // A plain fetch, not a fetcher: if it fails (offline, api down) the checker simply stays the
  // plain form, where a fetcher's error would replace Home with its error page.
  const [catalogue, setCatalogue] = useState<Catalogue | null>(null)
  useEffect(() => {
    const abort = new AbortController()
    fetch('/catalogue', { signal: abort.signal, headers: { accept: 'application/json' } })
      .then((res) => (res.ok ? (res.json() as Promise<Catalogue>) : null))
      .then((data) => {
        if (data?.brands && data.rates) setCatalogue({ brands: data.brands, rates: data.rates })
      })
      .catch(() => undefined)
    return () => abort.abort()
  }, [])
  const live = catalogue !== null
  const brands: Choice[] = catalogue?.brands ?? choices
  const rates = catalogue?.rates ?? []

  const [brandId, setBrandId] = useState(choices[0]?.brandId ?? '')
  const brand = catalogue?.brands.find((b) => b.brandId === brandId)
  const [countryCode, setCountryCode] = useState('US')
  const country = brand?.countries.find((c) => c.country === countryCode) ?? brand?.countries[0]
  const [cardType, setCardType] = useState<string>('physical')
  const offer = country?.cardTypes.find((t) => t.cardType === cardType) ?? country?.cardTypes[0]
  const [faceValue, setFaceValue] = useState('100')
  const rate =
    brand && country && offer
      ? rates.find((r) => r.brandId === brand.brandId && r.country === country.country && r.cardType === offer.cardType)
      : undefined

  // Until the catalogue is here every country and type is offered; the sell page says which are not bought.
  const countries = live && brand ? brand.countries.map((c) => ({ code: c.country, name: c.countryName })) : ALL_COUNTRIES
  const types = live && country ? country.cardTypes.map((t) => t.cardType) : ['physical', 'ecode']

  let result: { payout?: string; problem?: string } = {}
  if (live && rate && offer && country) {
    const minor = faceValue.includes('-') ? undefined : parseAmount(faceValue, country.currency)
    const problem = minor && minor > 0 ? faceValueProblem(offer, minor, country.currency)?.msg : 'Enter the face value like 100 or 25.50'
    result =
      problem || !minor
        ? { problem }
        : { payout: formatMoney(payoutFor(minor, rate.rate, country.currency, rate.payoutCurrency), rate.payoutCurrency) }
  }

  return (
    <Form method="get" action="/order/sell" className="cl-checker" aria-labelledby="checker-title">
      <h2 id="checker-title" className="cl-checker__title">
        Check a rate
      </h2>
      <div className="cl-checker__grid">
        <div className="cl-field cl-checker__brand">
          <label className="cl-field__label" htmlFor="checker-brand">
            Gift card
          </label>
          <select
            id="checker-brand"
            name="brandId"
            className="cl-input"
            value={brandId}
            onChange={(e) => {
              const next = catalogue?.brands.find((b) => b.brandId === e.currentTarget.value)
              setBrandId(e.currentTarget.value)
              if (next) {
                setCountryCode(next.countries[0]?.country ?? 'US')
                setCardType(next.countries[0]?.cardTypes[0]?.cardType ?? 'physical')
              }
            }}
          >
            {brands.map((b) => (
              <option key={b.brandId} value={b.brandId}>
                {b.name}
              </option>
            ))}
          </select>
        </div>
        <div className="cl-field cl-checker__country">
          <label className="cl-field__label" htmlFor="checker-country">
            Country
          </label>
          <select
            id="checker-country"
            name="country"
            className="cl-input"
            value={country?.country ?? countryCode}
            onChange={(e) => {
              const next = brand?.countries.find((c) => c.country === e.currentTarget.value)
              setCountryCode(e.currentTarget.value)
              if (next && !next.cardTypes.some((t) => t.cardType === cardType)) setCardType(next.cardTypes[0]?.cardType ?? 'physical')
            }}
          >
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="cl-field">
          <label className="cl-field__label" htmlFor="checker-type">
            Card type
          </label>
          <select
            id="checker-type"
            name="cardType"
            className="cl-input"
            value={offer?.cardType ?? cardType}
            onChange={(e) => setCardType(e.currentTarget.value)}
          >
            {types.map((t) => (
              <option key={t} value={t}>
                {t === 'ecode' ? 'E-code' : 'Physical'}
              </option>
            ))}
          </select>
        </div>
        <div className="cl-field">
          <label className="cl-field__label" htmlFor="checker-value">
            Face value{country && live ? ` (${country.currency})` : ''}
          </label>
          <input
            id="checker-value"
            name="faceValue"
            className="cl-input"
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            value={faceValue}
            onChange={(e) => setFaceValue(e.currentTarget.value)}
          />
        </div>
      </div>
      {live ? (
        <p className="cl-checker__result" aria-live="polite">
          {result.payout ? (
            <>
              You get <strong className="cl-amount cl-amount--lg">{result.payout}</strong>
              {rate ? (
                <span className="cl-checker__rate">
                  <RateText rate={rate} />
                </span>
              ) : null}
            </>
          ) : (
            <span className="cl-muted">{result.problem ?? ' '}</span>
          )}
        </p>
      ) : null}
      <Button type="submit" variant={live ? 'secondary' : 'primary'} block>
        {live ? 'Continue to sell' : 'Check rate'}
      </Button>
    </Form>
  )
}
