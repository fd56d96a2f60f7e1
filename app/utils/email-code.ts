import { z } from 'zod'
import { emailField } from '#contract/accounts'
import type { FormReply } from './form.server'

/** Shared by the e-mail-code screens (browser and server): step one's schema and the reply shape. */
export type CodeStep = 'email' | 'verify'
export type CodeStepReply = FormReply<{ step: CodeStep; email?: string }>

export const emailStepSchema = z.object({ email: emailField })

/**
 * The React key of a password or code input: a new one after each refused attempt, so with
 * JavaScript (as without) the secret field starts empty again while the e-mail stays.
 */
export function secretKey(key: string | undefined, reply?: { toast?: { id: string } | null }) {
  return reply?.toast?.id ?? key
}
