import { z } from 'zod'
import { emailField, loginPasswordField } from '#contract/accounts'
import { staffPasswordField, totpCodeField } from '#contract/ops/staff'

/**
 * The console's sign-in and set-up schemas, the same in the actions and in the browser, which
 * loads this module on a form's first use (decision 059).
 */

/** Sign-in, step one: the address and the password. */
export const passwordSchema = z.object({ email: emailField, password: loginPasswordField })
/** Sign-in, step two: the authenticator's code. */
export const codeSchema = z.object({ code: totpCodeField })

/** Set-up: a password typed twice and the authenticator's first code. */
export const setupSchema = z
  .object({
    // The api's own rule, so the page says one sentence, the api's.
    password: staffPasswordField,
    confirmPassword: z.string({ required_error: 'Type the password again' }),
    code: totpCodeField,
  })
  .refine((v) => v.password === v.confirmPassword, { message: 'The two passwords differ', path: ['confirmPassword'] })
