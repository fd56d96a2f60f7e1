// The withdrawal PIN in a form: a new PIN typed twice (set, change, reset by code) and the
// schemas that check it, the same in the browser and in the action. Every PIN field is masked,
// never echoed by the server, and starts empty again after an answer that refused it.
import { getInputProps } from '@conform-to/react'
import { z } from 'zod'
import { newPinField, pinField } from '#contract/pin'
import { useSecretKey } from '~/utils/form-state'
import { walletMessages as W } from '~/utils/messages'
import { CodeField } from './forms'

/** The PIN fields of every PIN form: what an answer lists in `refused` to empty them. */
export const PIN_FIELDS = ['oldPin', 'pin', 'confirmPin']

export const confirmPinField = z.string({ required_error: W.pinRepeat, invalid_type_error: W.pinRepeat })

/** A new PIN: first 6 digits, then (only then) not easy to guess, so "12345" gets one reason, not two. */
export const newPin = pinField.pipe(newPinField)

const samePin = <T extends { pin: string; confirmPin: string }>(value: T) => value.pin === value.confirmPin
const mismatch = { message: W.pinMismatch, path: ['confirmPin'] }

/** The first PIN: 6 digits that are not easy to guess (the contract's rules), typed twice. */
export const newPinSchema = z.object({ pin: newPin, confirmPin: confirmPinField }).refine(samePin, mismatch)

/** A change: the current PIN, then the new one twice. */
export const changePinSchema = z
  .object({ oldPin: pinField, pin: newPin, confirmPin: confirmPinField })
  .refine(samePin, mismatch)
  .refine((v) => v.oldPin !== v.pin, { message: 'The new PIN must differ from the old one', path: ['pin'] })

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
      <PinField field={fields.pin} reply={reply} label="New PIN" help={W.pinHelp} />
      <PinField field={fields.confirmPin} reply={reply} label="New PIN again" help={W.pinRepeat} />
    </>
  )
}
