// The sell page's choices as links (brand, country, card type): each works without JavaScript and is a URL.
import type { ReactNode } from 'react'
import type { Brand } from '#contract/catalogue'
import { BrandTile } from '~/components/brand-tile'
import { Card } from '~/components/card'
import { Icon } from '~/components/icon'
import { Link } from '~/components/link'
import { cx } from '~/components/ui'
import { choiceQuery, HERE } from './choice'

export function BrandPicker({ brands }: { brands: Brand[] }) {
  return (
    <section className="cl-section" aria-labelledby="sell-brands">
      <h2 id="sell-brands" className="cl-section__title">
        Which gift card are you selling?
      </h2>
      <ul className="cl-brandgrid">
        {brands.map((b) => (
          <li key={b.brandId}>
            <Link to={choiceQuery({ brandId: b.brandId })} className="cl-brandgrid__item">
              <BrandTile brandId={b.brandId} logo={b.logo} size="lg" />
              <span className="cl-brandgrid__name">{b.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function ChosenBrand({ brand }: { brand: Brand }) {
  return (
    <Card className="cl-chosen">
      <BrandTile brandId={brand.brandId} logo={brand.logo} size="lg" />
      <div className="cl-chosen__text">
        <h2 className="cl-chosen__name">{brand.name}</h2>
        <p className="cl-chosen__eta">
          <Icon name="clock" size={16} /> About {brand.etaMinutes} min to review
        </p>
      </div>
      <Link to={HERE} className="cl-link cl-link--touch cl-chosen__change" aria-label={`Change gift card (now ${brand.name})`}>
        Change
      </Link>
    </Card>
  )
}

export type Chip = { key: string; to: string; label: string; sub?: ReactNode; current: boolean }

/** One choice as a row of links: it works without JavaScript and every choice is a URL. */
export function ChipGroup({ label, items }: { label: string; items: Chip[] }) {
  const id = `chips-${label.replace(/\W+/g, '-').toLowerCase()}`
  return (
    <section className="cl-section cl-chipgroup" aria-labelledby={id}>
      <h2 id={id} className="cl-section-label">
        {label}
      </h2>
      <ul className="cl-chips">
        {items.map((item) => (
          <li key={item.key}>
            <Link
              to={item.to}
              replace
              className={cx('cl-chip', item.sub !== undefined && 'cl-chip--tall')}
              aria-current={item.current ? 'true' : undefined}
            >
              <span className="cl-chip__label">
                {item.current ? <Icon name="check-circle" size={16} className="cl-chip__check" /> : null}
                {item.label}
              </span>
              {item.sub ? <span className="cl-chip__sub">{item.sub}</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
