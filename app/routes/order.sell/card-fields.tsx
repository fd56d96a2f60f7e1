// One card's fields on the sell page: its face value (typed, or chosen among the card's
// denominations) and, for an e-code, its code and PIN.
import type { CardTypeOffer } from '#contract/catalogue'
import { amountInputValue, formatMoney } from '#contract/money'
import { ErrorList } from '~/components/forms'
import { cx } from '~/components/ui'
import { currencySymbol, readFaceValue } from './choice'

export function FaceValueField({
  prefix,
  position,
  offer,
  currency,
  value,
  onChange,
  errors,
  live,
}: {
  prefix: string
  position: number
  offer: CardTypeOffer
  currency: string
  value: string
  onChange?: (value: string) => void
  errors?: string[]
  live?: string
}) {
  const name = `${prefix}.faceValue`
  const id = `${prefix}-face-value`
  const shown = errors?.length ? errors : live ? [live] : []
  if (offer.denominations && offer.denominations.length > 0) {
    return <DenominationField {...{ name, id, position, currency, value, onChange, shown }} denominations={offer.denominations} />
  }
  return (
    <div className={cx('cl-field', shown.length > 0 && 'is-invalid')}>
      <label className="cl-field__label" htmlFor={id}>
        Face value of card {position}
      </label>
      {/* The currency sits inside the field's frame, beside what is typed, at any width. */}
      <div className="cl-moneyinput">
        <span className="cl-moneyinput__currency" aria-hidden="true">
          {currencySymbol(currency)}
        </span>
        <input
          id={id}
          name={name}
          className="cl-moneyinput__input"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={value}
          onChange={onChange ? (e) => onChange(e.currentTarget.value) : undefined}
          aria-invalid={shown.length > 0 || undefined}
          aria-describedby={cx(shown.length > 0 && `${id}-error`, `${id}-help`)}
        />
      </div>
      <div className="cl-field__footer">
        <ErrorList id={`${id}-error`} errors={shown} />
        <p id={`${id}-help`} className="cl-field__help">
          {formatMoney(offer.minFaceValue, currency)} to {formatMoney(offer.maxFaceValue, currency)}
        </p>
      </div>
    </div>
  )
}

type DenominationProps = {
  name: string
  id: string
  position: number
  currency: string
  value: string
  onChange?: (value: string) => void
  shown: string[]
  denominations: number[]
}

/** A card sold only at set face values: one radio each. */
function DenominationField({ name, id, position, currency, value, onChange, shown, denominations }: DenominationProps) {
  const chosen = readFaceValue(value, currency)
  return (
    <fieldset
      className={cx('cl-field', 'cl-denoms', shown.length > 0 && 'is-invalid')}
      aria-describedby={shown.length ? `${id}-error` : undefined}
    >
      <legend className="cl-field__label">Face value of card {position}</legend>
      <div className="cl-denoms__list">
        {denominations.map((d) => (
          <label key={d} className="cl-denom">
            <input
              type="radio"
              name={name}
              value={amountInputValue(d, currency)}
              defaultChecked={chosen === d}
              onChange={onChange ? (e) => onChange(e.currentTarget.value) : undefined}
            />
            <span>{formatMoney(d, currency).replace(/\.00$/, '')}</span>
          </label>
        ))}
      </div>
      <ErrorList id={`${id}-error`} errors={shown} />
    </fieldset>
  )
}

export function CodeFields({ prefix, position, errors }: { prefix: string; position: number; errors: Record<string, string[]> }) {
  const field = (part: 'code' | 'pin', label: string, help: string) => {
    const id = `${prefix}-${part}`
    const list = errors[`${prefix}.${part}`]
    return (
      <div className={cx('cl-field', Boolean(list?.length) && 'is-invalid')}>
        <label className="cl-field__label" htmlFor={id}>
          {label}
        </label>
        <input
          id={id}
          name={`${prefix}.${part}`}
          className="cl-input cl-input--cardcode"
          // A secret: never offered back by the browser, never corrected, never capitalised oddly.
          autoComplete="off"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          maxLength={100}
          aria-invalid={list?.length ? true : undefined}
          aria-describedby={cx(Boolean(list?.length) && `${id}-error`, `${id}-help`)}
        />
        <div className="cl-field__footer">
          <ErrorList id={`${id}-error`} errors={list} />
          <p id={`${id}-help`} className="cl-field__help">
            {help}
          </p>
        </div>
      </div>
    )
  }
  return (
    <>
      {field('code', `Code of card ${position}`, 'Letters and digits, as printed. Spaces and dashes do not matter.')}
      {field('pin', `PIN of card ${position} (if it has one)`, 'Leave empty when the card has no PIN.')}
    </>
  )
}
