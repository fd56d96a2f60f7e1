// The bank of an account, among hundreds (decision 039). With JavaScript: a combobox (ARIA 1.2,
// list autocomplete) that narrows the list as the person types, arrows and Enter to choose, the
// chosen bank's code in a hidden `bankCode`. Without it: a search field of its own GET form
// (`?bank=`, the page narrows the list on the server) and a native <select> of the matches.
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { searchBanks } from '#contract/bank-card-rules'
import type { Bank } from '#contract/bank-cards'
import { FieldFrame, SelectField, useFieldA11y, type FieldInputProps } from './forms'
import { Icon } from './icon'
import { cx, useHydrated } from './ui'

/** The GET form the search field belongs to without JavaScript; render <BankSearchForm> outside the post form. */
export const BANK_SEARCH_FORM = 'bank-search'

/** Rows shown at once: more are reached by typing. */
const SHOWN = 60

export function BankSearchForm({ action, redirectTo }: { action: string; redirectTo: string }) {
  const hydrated = useHydrated()
  if (hydrated) return null
  return (
    <form id={BANK_SEARCH_FORM} method="get" action={action} role="search" aria-label="Bank search" hidden>
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
    </form>
  )
}

type Props = {
  banks: Bank[]
  /** What was searched for without JavaScript (`?bank=`). */
  query: string
  inputProps: FieldInputProps
  errors?: string[]
  onPick: (code: string) => void
}

export function BankPicker(props: Props) {
  return useHydrated() ? <BankCombobox {...props} /> : <BankSelect {...props} />
}

/** No JavaScript: the search field (its own GET form) and a select of what it found. */
function BankSelect({ banks, query, inputProps, errors }: Props) {
  const chosen = typeof inputProps.defaultValue === 'string' ? inputProps.defaultValue : ''
  const found = query ? searchBanks(banks, query) : banks
  const options = found.length ? found : banks
  // The bank already chosen stays choosable whatever was searched.
  const withChosen = chosen && !options.some((b) => b.code === chosen) ? [...banks.filter((b) => b.code === chosen), ...options] : options
  const searchId = `${inputProps.id ?? 'bank'}-search`
  return (
    <div className="cl-bank-picker">
      <div className="cl-field">
        <label className="cl-field__label" htmlFor={searchId}>
          Find your bank
        </label>
        <div className="cl-bank-picker__search">
          <input
            id={searchId}
            type="search"
            name="bank"
            form={BANK_SEARCH_FORM}
            defaultValue={query}
            className="cl-input"
            placeholder="Bank or wallet name, e.g. OPay"
            autoComplete="off"
            maxLength={60}
          />
          <button type="submit" form={BANK_SEARCH_FORM} className="cl-button cl-button--secondary cl-bank-picker__find">
            Find
          </button>
        </div>
        {query ? (
          <p className="cl-field__help" role="status">
            {found.length
              ? `${found.length} ${found.length === 1 ? 'bank matches' : 'banks match'} “${query}”.`
              : `No bank matches “${query}”: all banks are listed.`}
          </p>
        ) : null}
      </div>
      <SelectField
        label="Bank"
        inputProps={{
          id: inputProps.id,
          name: inputProps.name,
          form: inputProps.form,
          'aria-describedby': inputProps['aria-describedby'],
          'aria-invalid': inputProps['aria-invalid'],
          key: `${inputProps.key ?? ''}${query}`,
          defaultValue: chosen || (query && found.length === 1 ? found[0].code : ''),
        }}
        errors={errors}
        placeholder={query && found.length ? `Choose one of ${found.length}` : 'Choose your bank'}
        options={withChosen.map((b) => ({ value: b.code, label: b.name }))}
      />
    </div>
  )
}

/** JavaScript: type to narrow, arrows to move, Enter or a tap to choose. */
function BankCombobox({ banks, query, inputProps, errors, onPick }: Props) {
  const a11y = useFieldA11y({ inputProps, errors, help: undefined })
  const initial = banks.find((b) => b.code === inputProps.defaultValue)
  const [chosen, setChosen] = useState<Bank | undefined>(initial)
  const [text, setText] = useState(initial?.name ?? query)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const listId = useId()
  const statusId = useId()
  const listRef = useRef<HTMLUListElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const typed = chosen && text === chosen.name ? '' : text
  const found = useMemo(() => searchBanks(banks, typed), [banks, typed])
  const shown = found.slice(0, SHOWN)
  const optionId = (i: number) => `${listId}-${i}`

  const pick = (bank: Bank) => {
    setChosen(bank)
    setText(bank.name)
    setOpen(false)
    onPick(bank.code)
  }
  const move = (to: number) => {
    const next = Math.max(0, Math.min(shown.length - 1, to))
    setActive(next)
    setOpen(true)
    listRef.current?.querySelector(`#${CSS.escape(optionId(next))}`)?.scrollIntoView({ block: 'nearest' })
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      move(open ? active + 1 : 0)
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      move(active - 1)
    } else if (event.key === 'Enter' && open && shown[active]) {
      event.preventDefault()
      pick(shown[active])
    } else if (event.key === 'Escape' && open) {
      event.preventDefault()
      setOpen(false)
    }
  }

  return (
    <FieldFrame label="Bank" a11y={a11y}>
      <input type="hidden" name={inputProps.name} form={inputProps.form} value={chosen?.code ?? ''} />
      <div className="cl-bank-picker__box">
        <Icon name="bank" size={18} className="cl-bank-picker__icon" />
        <input
          ref={inputRef}
          id={a11y.inputId}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && shown[active] ? optionId(active) : undefined}
          aria-invalid={a11y.ariaInvalid || undefined}
          aria-describedby={[a11y.describedBy, statusId].filter(Boolean).join(' ')}
          className="cl-input cl-bank-picker__input"
          placeholder="Type your bank or wallet, e.g. OPay"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value)
            setActive(0)
            setOpen(true)
            if (chosen) {
              setChosen(undefined)
              onPick('')
            }
          }}
          onFocus={(event) => {
            if (!chosen) setOpen(true)
            else event.currentTarget.select()
          }}
          onClick={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        {text ? (
          <button
            type="button"
            className="cl-bank-picker__clear"
            aria-label="Clear the bank"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              setText('')
              setChosen(undefined)
              onPick('')
              setOpen(true)
              inputRef.current?.focus()
            }}
          >
            <Icon name="x" size={18} />
          </button>
        ) : null}
      </div>
      <p id={statusId} className="cl-visually-hidden" aria-live="polite">
        {open ? (found.length ? `${found.length} ${found.length === 1 ? 'bank' : 'banks'} found` : 'No bank found') : ''}
      </p>
      <ul
        id={listId}
        ref={listRef}
        role="listbox"
        aria-label="Banks"
        className={cx('cl-bank-picker__list', !open && 'is-closed')}
        hidden={!open}
      >
        {shown.map((b, i) => (
          // The keys are the combobox's (aria-activedescendant): focus stays in its input.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={b.code}
            id={optionId(i)}
            role="option"
            aria-selected={chosen?.code === b.code}
            className={cx('cl-bank-picker__option', i === active && 'is-active')}
            onMouseDown={(event) => event.preventDefault()}
            onMouseMove={() => setActive(i)}
            onClick={() => pick(b)}
          >
            <span className="cl-bank-picker__name">{b.name}</span>
            {chosen?.code === b.code ? <Icon name="check-circle" size={18} className="cl-bank-picker__check" /> : null}
          </li>
        ))}
        {found.length > SHOWN ? (
          <li className="cl-bank-picker__more" role="presentation">
            {found.length - SHOWN} more: keep typing to narrow the list
          </li>
        ) : null}
        {open && found.length === 0 ? (
          <li className="cl-bank-picker__more" role="presentation">
            No bank or wallet by that name. Try fewer letters
          </li>
        ) : null}
      </ul>
    </FieldFrame>
  )
}
