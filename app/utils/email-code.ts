import { z } from 'zod'
import { CodeType, emailField, loginPasswordField, passwordField, verifyCodeField } from '#contract/accounts'
import type { FormReply } from './form.server'

/**
 * Shared by the e-mail-code screens (browser and server): the schemas of both steps, and what
 * a step answers; the browser loads this module on a form's first use (decision 059). Sign-up, reset and code sign-in ask for the address; the signed-in types
 * (4 reset PIN, 5 delete account) go to the person's own address, so their steps have no
 * e-mail field at all.
 */
export type CodeStep = 'email' | 'verify'
export type CodeStepReply = FormReply<{
  step: CodeStep
  email?: string
  /** The secret fields this answer refused (wrong code, wrong or weak password): only they start empty. */
  refused?: string[]
  /** A new value per answer, so a refused secret field is emptied again on every refusal. */
  attempt?: string
  /** Too many attempts: the form offers the way that still works (sign-in by code). */
  lockout?: boolean
}>

/** The code types whose code goes to the signed-in person's own address (DESIGN §3). */
export const OWN_ADDRESS_CODE_TYPES: readonly number[] = [CodeType.RESET_PIN, CodeType.DELETE_ACCOUNT]

export const emailStepSchema = z.object({ email: emailField })

/** Step two of code sign-in: the address (carried in the page) and the code. */
export const codeSchema = z.object({ email: emailField, verifyCode: verifyCodeField })

/** Step two of sign-up and password reset: address, code and the new password. */
export const codePasswordSchema = z.object({ email: emailField, verifyCode: verifyCodeField, password: passwordField })

/** Sign-in with a password (Login). */
export const loginPasswordSchema = z.object({ email: emailField, password: loginPasswordField })

/** Account deletion (types 5): the password, or the code sent to the person's own address. */
export const deletePasswordSchema = z.object({ password: loginPasswordField })
export const ownCodeSchema = z.object({ verifyCode: verifyCodeField })
