// Rates as a person reads them: "₦1,180.00 per US$1", the change over 24 hours with its
// direction in words (colour only supports it), and a featured card's row with a way to sell it.
import type { GiftCard, Rate } from '#contract/catalogue'
import { formatMoney, minorDigits } from '#contract/money'
import { COUNTRIES, payoutFor, rateChangePercent } from '#contract/rates'
import { BrandTile } from './brand-tile'
import { Link } from './link'
import { cx } from './ui'

/** "US$1", "£1": one unit of a currency, without the zeros. */
export function oneUnit(currency: string): string {
  return formatMoney(10 ** minorDigits(currency), currency).replace(/\.0+$/, '')
}

/** What one unit of the card's currency pays, rounded down as every payout is (payoutFor). */
export function ratePerUnit(rate: Pick<Rate, 'rate' | 'currency' | 'payoutCurrency'>): string {
  return formatMoney(payoutFor(10 ** minorDigits(rate.currency), rate.rate, rate.currency, rate.payoutCurrency), rate.payoutCurrency)
}

export const countryName = (code: string) => COUNTRIES[code as keyof typeof COUNTRIES]?.name ?? code
export const cardTypeLabel = (cardType: string) => (cardType === 'ecode' ? 'E-code' : 'Physical card')

/** "₦1,180.00 per US$1" */
export function RateText({ rate, className }: { rate: Pick<Rate, 'rate' | 'currency' | 'payoutCurrency'>; className?: string }) {
  return (
    <span className={cx('cl-rate', className)}>
      <span className="cl-rate__value">{ratePerUnit(rate)}</span> <span className="cl-rate__unit">per {oneUnit(rate.currency)}</span>
    </span>
  )
}

/** "+1.25%" in green, "−0.50%" in red, "0.00%" muted, or "New" when there was no rate a day ago. */
export function RateChange({ rate }: { rate: Pick<Rate, 'rate' | 'rate24hAgo'> }) {
  const change = rateChangePercent(rate.rate, rate.rate24hAgo)
  if (change === null)
    return (
      <span className="cl-change cl-change--flat">
        New<span className="cl-visually-hidden"> today</span>
      </span>
    )
  const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'flat'
  const text = `${change > 0 ? '+' : change < 0 ? '−' : ''}${Math.abs(change).toFixed(2)}%`
  return (
    <span className={`cl-change cl-change--${direction}`}>
      <span aria-hidden="true">{direction === 'up' ? '▲ ' : direction === 'down' ? '▼ ' : ''}</span>
      <span className="cl-visually-hidden">{direction === 'flat' ? 'unchanged, ' : `${direction} `}</span>
      {text}
      <span className="cl-visually-hidden"> in 24 hours</span>
    </span>
  )
}

export function sellHref(v: { brandId: string; country?: string; cardType?: string }): string {
  const query = new URLSearchParams({ brandId: v.brandId })
  if (v.country) query.set('country', v.country)
  if (v.cardType) query.set('cardType', v.cardType)
  return `/order/sell?${query}`
}

/**
 * A featured card on Home: its tile and name, its best rate in dollars when it has dollar cards
 * ("Up to ₦1,180.00 per US$1"; rates in other currencies do not compare), its review time, and Sell.
 */
export function RateRow({ card }: { card: GiftCard }) {
  return (
    <div className="cl-raterow">
      <BrandTile brandId={card.brandId} logo={card.logo} />
      <div className="cl-raterow__text">
        <p className="cl-raterow__name">{card.name}</p>
        <p className="cl-raterow__rate">
          Up to <RateText rate={card.bestRate} />
        </p>
        <p className="cl-raterow__meta">Reviewed in about {card.etaMinutes} min</p>
      </div>
      <Link
        to={sellHref({ brandId: card.brandId })}
        className="cl-button cl-button--primary cl-raterow__sell"
        aria-label={`Sell ${card.name}`}
      >
        Sell
      </Link>
    </div>
  )
}
