// Form fields that are accessible by construction: every input has a visible <label>, its errors in
// a list the input points at (aria-describedby) and aria-invalid while it has errors. They take the
// props conform's getInputProps(fields.x, { type }) returns (key, id, name, form, defaultValue,
// required, aria-*), and work as plain HTML inputs when JavaScript has not loaded.
import { useFormAction } from '@remix-run/react'
import { useEffect, useId, useRef, useState, type ChangeEvent, type InputHTMLAttributes, type ReactNode } from 'react'
import { Icon } from './icon'
import { cx, useHydrated } from './ui'

/** What conform's getInputProps returns, plus anything else an <input> accepts. */
export type FieldInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'aria-invalid'> & {
  key?: string | undefined
  'aria-invalid'?: boolean | 'true' | 'false'
}

export type ListOfErrors = Array<string | null | undefined> | null | undefined

function cleanErrors(errors: ListOfErrors): string[] {
  return Array.from(new Set((errors ?? []).filter((e): e is string => typeof e === 'string' && e.length > 0)))
}

/** Space-separated id list without duplicates or blanks. */
function joinIds(...ids: Array<string | undefined | false>): string | undefined {
  const all = ids.flatMap((v) => (v ? v.split(/\s+/) : [])).filter(Boolean)
  return all.length ? Array.from(new Set(all)).join(' ') : undefined
}

/** A field's (or the form's) error messages. Renders nothing when there are none. */
export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const list = cleanErrors(errors)
  if (!list.length) return null
  return (
    <ul id={id} className="cl-errors">
      {list.map((error) => (
        <li key={error} className="cl-errors__item">
          <Icon name="alert-triangle" size={16} className="cl-errors__icon" />
          <span>{error}</span>
        </li>
      ))}
    </ul>
  )
}

/**
 * Errors about the whole form (wrong password, server refused), shown above the submit button.
 * Pass conform's `form.errorId` as `id` so the form's aria-describedby points here.
 * A new error is brought into view and focused, clear of the sticky bars (html's scroll-padding):
 * with JavaScript when the text changes; without it by the form's action naming it as the
 * fragment (useErrorAction), and by `autofocus` where a form's action does not.
 */
export function FormError({ errors, id, children }: { errors?: ListOfErrors; id?: string; children?: ReactNode }) {
  const list = cleanErrors(errors)
  const text = list.join('\n')
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const box = ref.current
    if (!text || !box || box.contains(document.activeElement)) return
    box.focus({ preventScroll: true })
    box.scrollIntoView({ block: 'nearest' })
    // The field errors drawn in the same answer can still move it: once more after they settle.
    const frame = requestAnimationFrame(() => box.scrollIntoView({ block: 'nearest' }))
    return () => cancelAnimationFrame(frame)
  }, [text])
  if (!list.length) return null
  return (
    // The answer to the person's own submit, not focus taken on arrival: without JavaScript the
    // browser's autofocus brings it into view, as the effect above does with it.
    // eslint-disable-next-line jsx-a11y/no-autofocus
    <div id={id} ref={ref} tabIndex={-1} autoFocus className="cl-callout cl-callout--error cl-form-error" role="alert">
      <Icon name="x-circle" size={20} className="cl-callout__icon" />
      <div className="cl-callout__body">
        {list.length === 1 ? (
          <p>{list[0]}</p>
        ) : (
          <ul>
            {list.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        )}
        {children}
      </div>
    </div>
  )
}

/**
 * What a form's FormError says after the server's answer: the refusal of the whole form, or else the
 * fields' refusals again. Without JavaScript the form's action names the FormError as its fragment
 * before anyone knows which kind the answer is, so a refusal of a field (a code already sold, a PIN
 * typed twice differently) needs the FormError too, or the page opens at its top. Taken from the
 * answer alone, not the live fields: it changes, and takes the focus, only with a new answer.
 */
export function answerRefusals(formErrors: ListOfErrors, fieldErrors: Record<string, ListOfErrors> | null | undefined): string[] {
  const whole = cleanErrors(formErrors)
  if (whole.length) return whole
  return cleanErrors(Object.entries(fieldErrors ?? {}).flatMap(([name, list]) => (name ? (list ?? []) : [])))
}

/**
 * The action of a form that shows a FormError with id `errorId`: without JavaScript, the form's own
 * action (Remix's default when none is given) with the error as its fragment. `autofocus` alone
 * scrolls once, when the error is parsed: an answer that arrives in pieces (a slow network or
 * phone) is scrolled while the page still ends at the error, and what follows (the sticky action
 * bar) then covers it. A fragment is scrolled to again after each layout until the page has
 * loaded, and focused. With JavaScript the plain action: FormError's effect runs on the whole
 * page, and the address bar keeps no fragment.
 */
export function useErrorAction(errorId: string, action?: string): string | undefined {
  const resolved = useFormAction(action)
  return useHydrated() ? action : `${resolved.split('#')[0]}#${encodeURIComponent(errorId)}`
}

/**
 * Where an action answering such a form sends the person on (success, sign in). A browser carries
 * the action's fragment over a redirect to an address without one (an empty one too), so a form
 * posted without JavaScript (a navigation: `Sec-Fetch-Mode: navigate`) is sent to HTML's own
 * "#top": the next page opens at its top, as it would anyway. A post by Remix's fetch had no
 * fragment, so its address stays clean.
 */
export const leaveErrorAction = (request: Request, url: string) =>
  url.includes('#') || request.headers.get('sec-fetch-mode') !== 'navigate' ? url : `${url}#top`

/**
 * conform's input props for a radio, without the text limits its schema gives the field
 * (minlength and maxlength belong to text inputs; HTML does not allow them on a radio).
 */
export function radioProps<P extends FieldInputProps>({ minLength: _min, maxLength: _max, ...rest }: P) {
  return rest
}

type FieldBaseProps = {
  /** Visible label text. */
  label: ReactNode
  /** Spread of conform's getInputProps(fields.x, { type }), or plain input attributes. */
  inputProps: FieldInputProps
  /** Error messages for this field (conform: fields.x.errors). */
  errors?: ListOfErrors
  /** Help text under the input. */
  help?: ReactNode
  /** Input id; defaults to inputProps.id, then a generated one. */
  id?: string
  className?: string
}

/** Works out ids and aria attributes shared by every field type. */
export function useFieldA11y({ inputProps, errors, help, id }: Pick<FieldBaseProps, 'inputProps' | 'errors' | 'help' | 'id'>) {
  const fallbackId = useId()
  const inputId = id ?? inputProps.id ?? fallbackId
  // Same suffixes conform uses (`${id}-error`, `${id}-description`), so its aria-describedby matches.
  const errorId = `${inputId}-error`
  const helpId = `${inputId}-description`
  const list = cleanErrors(errors)
  const invalid = list.length > 0
  const describedBy = joinIds(inputProps['aria-describedby'], invalid && errorId, help ? helpId : undefined)
  const ariaInvalid = invalid || inputProps['aria-invalid'] === true || inputProps['aria-invalid'] === 'true'
  return { inputId, errorId, helpId, list, invalid, describedBy, ariaInvalid }
}

export function FieldFrame({
  label,
  help,
  className,
  a11y,
  children,
}: {
  label: ReactNode
  help?: ReactNode
  className?: string
  a11y: ReturnType<typeof useFieldA11y>
  children: ReactNode
}) {
  const { inputId, helpId, errorId, list: errors } = a11y
  return (
    <div className={cx('cl-field', errors.length > 0 && 'is-invalid', className)}>
      <label className="cl-field__label" htmlFor={inputId}>
        {label}
      </label>
      {children}
      <div className="cl-field__footer">
        <ErrorList id={errorId} errors={errors} />
        {help ? (
          <p id={helpId} className="cl-field__help">
            {help}
          </p>
        ) : null}
      </div>
    </div>
  )
}

/** A labelled text-like input (text, email, number, tel…); `prefix` sits inside it on the left (a currency symbol). */
export function Field({ label, inputProps, errors, help, id, className, prefix }: FieldBaseProps & { prefix?: string }) {
  const a11y = useFieldA11y({ inputProps, errors, help, id })
  const { key, className: inputClassName, ...rest } = inputProps
  const input = (
    <input
      key={key}
      {...rest}
      id={a11y.inputId}
      className={cx('cl-input', inputClassName)}
      aria-invalid={a11y.ariaInvalid || undefined}
      aria-describedby={a11y.describedBy}
    />
  )
  return (
    <FieldFrame label={label} help={help} className={className} a11y={a11y}>
      {prefix ? (
        <div className="cl-input-prefix">
          <span className="cl-input-prefix__text" aria-hidden="true">
            {prefix}
          </span>
          {input}
        </div>
      ) : (
        input
      )}
    </FieldFrame>
  )
}

/**
 * A password input with a show/hide toggle. Without JavaScript it is a plain password input (the
 * toggle appears only once React runs). The password is hidden again when the form submits, so the
 * browser never offers to save it as plain text.
 */
export function PasswordField({ label, inputProps, errors, help, id, className }: FieldBaseProps) {
  const a11y = useFieldA11y({ inputProps, errors, help, id })
  const hydrated = useHydrated()
  const [visible, setVisible] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const { key, type: _type, className: inputClassName, ...rest } = inputProps

  useEffect(() => {
    const form = inputRef.current?.form
    if (!form) return
    const hide = () => setVisible(false)
    form.addEventListener('submit', hide)
    return () => form.removeEventListener('submit', hide)
  }, [])

  return (
    <FieldFrame label={label} help={help} className={className} a11y={a11y}>
      <div className="cl-input-wrap">
        <input
          key={key}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          {...rest}
          ref={inputRef}
          type={hydrated && visible ? 'text' : 'password'}
          id={a11y.inputId}
          className={cx('cl-input', 'cl-input--with-action', inputClassName)}
          aria-invalid={a11y.ariaInvalid || undefined}
          aria-describedby={a11y.describedBy}
        />
        {hydrated ? (
          <button
            type="button"
            className="cl-input-action"
            aria-label="Show password"
            aria-pressed={visible}
            aria-controls={a11y.inputId}
            onClick={() => setVisible((v) => !v)}
          >
            <Icon name={visible ? 'eye-off' : 'eye'} size={20} />
          </button>
        ) : null}
      </div>
    </FieldFrame>
  )
}

/**
 * A 6-digit one-time code (e-mail verification code, withdrawal PIN entry with `secret`): numeric
 * keypad, the OS offers the code from the e-mail/SMS (autocomplete one-time-code), pattern \d{6}.
 * With JavaScript, spaces and other non-digits typed or pasted are dropped.
 */
export function CodeField({
  label,
  inputProps,
  errors,
  help,
  id,
  className,
  length = 6,
  secret = false,
}: FieldBaseProps & {
  /** Number of digits (6). */
  length?: number
  /** Mask the digits (a PIN rather than an e-mailed code). */
  secret?: boolean
}) {
  const a11y = useFieldA11y({ inputProps, errors, help, id })
  const hydrated = useHydrated()
  const { key, type: _type, className: inputClassName, onChange, ...rest } = inputProps

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget
    const digits = input.value.replace(/\D/g, '').slice(0, length)
    if (digits !== input.value) input.value = digits
    onChange?.(event)
  }

  return (
    <FieldFrame label={label} help={help} className={className} a11y={a11y}>
      <input
        key={key}
        inputMode="numeric"
        autoComplete={secret ? 'off' : 'one-time-code'}
        pattern={`\\d{${length}}`}
        // Without JS the browser caps the length; with JS the handler does, after dropping
        // spaces, so a pasted "123 456" still fits.
        maxLength={hydrated ? undefined : length}
        enterKeyHint="done"
        autoCorrect="off"
        spellCheck={false}
        placeholder={'•'.repeat(length)}
        {...rest}
        type={secret ? 'password' : 'text'}
        onChange={handleChange}
        id={a11y.inputId}
        className={cx('cl-input', 'cl-input--code', inputClassName)}
        aria-invalid={a11y.ariaInvalid || undefined}
        aria-describedby={a11y.describedBy}
      />
    </FieldFrame>
  )
}

/** A labelled native <select> (a bank from a list): the phone's own picker, with or without JavaScript. */
export function SelectField({
  label,
  inputProps,
  errors,
  help,
  id,
  className,
  options,
  placeholder,
}: Omit<FieldBaseProps, 'inputProps'> & {
  inputProps: Omit<FieldInputProps, 'type'> & { onChange?: (event: ChangeEvent<HTMLSelectElement>) => void }
  options: { value: string; label: string }[]
  /** The empty first choice ("Choose your bank"). */
  placeholder?: string
}) {
  const a11y = useFieldA11y({ inputProps: inputProps as FieldInputProps, errors, help, id })
  const { key, className: inputClassName, onChange, defaultValue, required, name, form } = inputProps
  return (
    <FieldFrame label={label} help={help} className={className} a11y={a11y}>
      <select
        key={key}
        name={name}
        form={form}
        required={required}
        defaultValue={defaultValue as string | undefined}
        onChange={onChange}
        id={a11y.inputId}
        className={cx('cl-input', inputClassName)}
        aria-invalid={a11y.ariaInvalid || undefined}
        aria-describedby={a11y.describedBy}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  )
}
