// The withdrawal PIN in a form: a new PIN typed twice (set, change, reset by code); the schemas
// that check it, in the browser and in the action, are in utils/pin-schemas.ts. Every PIN field is
// masked, never echoed by the server, and starts empty again after an answer that refused it.
import { getInputProps } from '@conform-to/react'
import { useSecretKey } from '~/utils/form-state'
import { pinMessages as P } from '~/utils/pin-messages'
import { CodeField } from './forms'

/** The PIN fields of every PIN form: what an answer lists in `refused` to empty them. */
export const PIN_FIELDS = ['oldPin', 'pin', 'confirmPin']

type FieldMeta = Parameters<typeof getInputProps>[0]
type Reply = { refused?: string[] } | undefined

/** One masked 6-digit PIN input, emptied again when an answer refused it. */
export function PinField({ field, reply, label, help }: { field: FieldMeta; reply: Reply; label: string; help?: string }) {
  const key = useSecretKey(field.key, reply, field.name)
  return (
    <CodeField secret label={label} inputProps={{ ...getInputProps(field, { type: 'password' }), key }} errors={field.errors} help={help} />
  )
}

/** The new PIN and the same again. */
export function NewPinFields({ fields, reply }: { fields: { pin: FieldMeta; confirmPin: FieldMeta }; reply: Reply }) {
  return (
    <>
      <PinField field={fields.pin} reply={reply} label="New PIN" help={P.pinHelp} />
      <PinField field={fields.confirmPin} reply={reply} label="New PIN again" help={P.pinRepeat} />
    </>
  )
}
