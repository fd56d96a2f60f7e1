// "What would I get?" before signing up: brand, country, card type and face value → the payout.
// A GET form to the sell page, so without JavaScript "Check rate" opens it with the payout worked
// out and the choices made; with JavaScript the payout shows here as you type (payoutFor, the
// api's own rule) and the lists offer only what each brand is bought as. The fields are controlled
// from the first render, so hydration never switches them from uncontrolled to controlled.
import { Form } from '@remix-run/react'
import { useState } from 'react'
import { faceValueProblem, payoutFor, type Brand, type Rate } from '#contract/catalogue'
import { formatMoney, parseAmount } from '#contract/money'
import { Button } from './button'
import { RateText } from './rate-row'
import { useHydrated } from './ui'

export function RateChecker({ brands, rates }: { brands: Brand[]; rates: Rate[] }) {
  const hydrated = useHydrated()
  const [brandId, setBrandId] = useState(brands[0]?.brandId ?? '')
  const brand = brands.find((b) => b.brandId === brandId)
  const [countryCode, setCountryCode] = useState(brand?.countries[0]?.country ?? '')
  const country = brand?.countries.find((c) => c.country === countryCode) ?? brand?.countries[0]
  const [cardType, setCardType] = useState<string>(country?.cardTypes[0]?.cardType ?? 'physical')
  const offer = country?.cardTypes.find((t) => t.cardType === cardType) ?? country?.cardTypes[0]
  const [faceValue, setFaceValue] = useState('100')
  const rate =
    brand && country && offer
      ? rates.find((r) => r.brandId === brand.brandId && r.country === country.country && r.cardType === offer.cardType)
      : undefined

  // Without JavaScript every country and type is offered; the sell page says which are not bought.
  const countries = hydrated && brand ? brand.countries.map((c) => ({ code: c.country, name: c.countryName })) : allCountries(brands)
  const types = hydrated && country ? country.cardTypes.map((t) => t.cardType) : ['physical', 'ecode']

  let result: { payout?: string; problem?: string } = {}
  if (hydrated && rate && offer && country) {
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
              const next = brands.find((b) => b.brandId === e.currentTarget.value)
              setBrandId(e.currentTarget.value)
              setCountryCode(next?.countries[0]?.country ?? '')
              setCardType(next?.countries[0]?.cardTypes[0]?.cardType ?? 'physical')
            }}
          >
            {brands.map((b) => (
              <option key={b.brandId} value={b.brandId}>
                {b.name}
              </option>
            ))}
          </select>
        </div>
        <div className="cl-field">
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
            Face value{country && hydrated ? ` (${country.currency})` : ''}
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
      {hydrated ? (
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
      <Button type="submit" variant={hydrated ? 'secondary' : 'primary'} block>
        {hydrated ? 'Continue to sell' : 'Check rate'}
      </Button>
    </Form>
  )
}

function allCountries(brands: Brand[]) {
  const seen = new Map<string, string>()
  for (const b of brands) for (const c of b.countries) if (!seen.has(c.country)) seen.set(c.country, c.countryName)
  return [...seen].map(([code, name]) => ({ code, name }))
}
