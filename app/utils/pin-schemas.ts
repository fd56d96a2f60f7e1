import { z } from 'zod'
import { verifyCodeField } from '#contract/accounts'
import { newPinField, pinField } from '#contract/pin'
import { walletMessages as W } from './messages'
import { pinMessages as P } from './pin-messages'

/**
 * The schemas of the PIN forms (set, change, reset by code), the same in the action and in the
 * browser, which loads this module on a form's first use (decision 059).
 */
export const confirmPinField = z.string({ required_error: P.pinRepeat, invalid_type_error: P.pinRepeat })

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

/** Step two of "Forgot PIN?": the e-mailed code and the new PIN twice. */
const resetPinFields = z.object({ verifyCode: verifyCodeField, pin: newPin, confirmPin: confirmPinField })
const resetPinSchema = resetPinFields.refine(samePin, mismatch)
/** VerifyStepForm types its fields from an object schema; the refined one checks the same fields, and the match. */
export const resetPinForm = resetPinSchema as unknown as typeof resetPinFields
