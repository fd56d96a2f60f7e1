import { z } from 'zod'
import { verifyCodeField } from './accounts'
import { noData, post } from './endpoint'

/** A PIN as typed to prove who you are (no strength rules: an old PIN may predate them). */
export const pinField = z
  .string({ required_error: 'PIN is required', invalid_type_error: 'PIN must be text' })
  .regex(/^\d{6}$/, 'PIN is 6 digits')

/** Why a new PIN is too easy to guess, or undefined when it is fine. */
export function weakPinReason(pin: string): string | undefined {
  if (/^(\d)\1{5}$/.test(pin)) return 'Choose a PIN that is not one digit repeated'
  const digits = [...pin].map(Number)
  const steps = digits.slice(1).map((d, i) => d - digits[i])
  if (steps.every((s) => s === 1) || steps.every((s) => s === -1)) return 'Choose a PIN that is not a run of digits like 123456'
  if (['000000', '123456', '654321', '121212', '112233', '123123', '111222', '159753', '147258', '789456'].includes(pin)) {
    return 'This PIN is too common. Choose another one'
  }
  return undefined
}

/** A new PIN: 6 digits that are not easy to guess. */
export const newPinField = pinField.superRefine((pin, ctx) => {
  const reason = weakPinReason(pin)
  if (reason) ctx.addIssue({ code: z.ZodIssueCode.custom, message: reason })
})

/** First time `{pin}`; a change `{oldPin, pin}` (DESIGN §3). */
export const setPinBody = z
  .object({ oldPin: pinField.optional(), pin: newPinField })
  .strict()
  .refine((b) => b.oldPin === undefined || b.oldPin !== b.pin, { message: 'The new PIN must differ from the old one', path: ['pin'] })
export type SetPinBody = z.infer<typeof setPinBody>

/** With an e-mail code of type 4, sent to the signed-in person's own address. */
export const resetPinBody = z.object({ verifyCode: verifyCodeField, pin: newPinField }).strict()
export type ResetPinBody = z.infer<typeof resetPinBody>

export const pinApi = {
  setPin: post('/v1/user/setPin', 'user', setPinBody, noData),
  resetPin: post('/v1/user/resetPin', 'user', resetPinBody, noData),
}
