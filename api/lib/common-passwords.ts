import { dictionary } from '@zxcvbn-ts/language-common'

/**
 * zxcvbn's list of the ~50 000 most used passwords. Compared case-insensitively: "Password1" is as
 * guessable as "password1". Loaded once, on first use.
 */
let common: Set<string> | undefined

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()))
  return common.has(password.toLowerCase())
}
