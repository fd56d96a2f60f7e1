// A labelled multi-line message (a question to support): the field frame every input uses, so its
// label, errors and aria attributes work the same, with or without JavaScript.
import { FieldFrame, useFieldA11y, type ListOfErrors } from './forms'
import { cx } from './ui'

export function QuestionField({
  label,
  name,
  id,
  maxLength,
  errors,
  help,
  defaultValue,
}: {
  label: string
  name: string
  id: string
  maxLength: number
  errors?: ListOfErrors
  help?: string
  defaultValue?: string
}) {
  const a11y = useFieldA11y({ inputProps: { id }, errors, help, id })
  return (
    <FieldFrame label={label} help={help} a11y={a11y}>
      <textarea
        id={a11y.inputId}
        name={name}
        rows={5}
        required
        maxLength={maxLength}
        defaultValue={defaultValue}
        className={cx('cl-input', 'cl-textarea')}
        aria-invalid={a11y.ariaInvalid || undefined}
        aria-describedby={a11y.describedBy}
      />
    </FieldFrame>
  )
}
