import { CodeType } from '#contract/accounts'

/**
 * Every sentence the api says to a person, in one place per language (DESIGN §4), so it can be
 * checked against SPEC §8 and translated later. English only for now.
 */
export const msg = {
  ok: 'success',
  invalidRequest: 'Invalid request parameters',
  loginExpired: 'Login expired, please login again',
  notFound: 'API endpoint not found',
  forbidden: 'Access denied',
  serverError: 'Server internal error',
  unavailable: 'Service unavailable',
  tooManyRequests: 'Too many requests, please try again later',
  tooManyLoginFailures: 'Too many failed sign-ins for this e-mail. Try again in 15 minutes or sign in with a code',
  tooManyStaffLoginFailures: 'Too many wrong passwords for this staff account. Try again in 15 minutes',
  bodyTooLarge: 'body: Request body is too large',
  malformedJson: 'body: Malformed JSON',
  notJson: 'body: Send JSON (Content-Type: application/json)',
  notUtf8: 'body: Send JSON encoded as UTF-8',
  unknownField: 'Unknown field',
} as const

/** What a code of each type lets the reader do, as the end of "Your code to …". */
const codePurpose: Record<CodeType, string> = {
  [CodeType.REGISTER]: 'create your account',
  [CodeType.RESET_PASSWORD]: 'reset your password',
  [CodeType.LOGIN]: 'sign in',
  [CodeType.RESET_PIN]: 'reset your withdrawal PIN',
  [CodeType.DELETE_ACCOUNT]: 'delete your account',
}

export type MailContent = { subject: string; text: string }

export function verifyCodeMail(brand: string, type: CodeType, code: string, minutes: number): MailContent {
  const purpose = codePurpose[type]
  return {
    subject: `Your ${brand} code to ${purpose}`,
    text: [
      `Your ${brand} verification code to ${purpose} is:`,
      '',
      `    ${code}`,
      '',
      `It expires in ${minutes} minutes and works once.`,
      `If you did not ask for it, ignore this e-mail: nothing happens without the code.`,
      `${brand} will never ask you for this code by phone or chat.`,
    ].join('\n'),
  }
}

/** Sent instead of a register code when the address already has an account. */
export function alreadyRegisteredMail(brand: string): MailContent {
  return {
    subject: `You already have a ${brand} account`,
    text: [
      `Someone, hopefully you, asked to create a ${brand} account with this e-mail address.`,
      `You already have one, so no new account was started.`,
      '',
      `Sign in with your password, a sign-in code or Google, or reset your password if you forgot it.`,
      `If it was not you, ignore this e-mail.`,
    ].join('\n'),
  }
}
