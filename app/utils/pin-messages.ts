/**
 * What the PIN fields say under a new PIN: a part of the web's catalogue (utils/messages.ts) kept
 * apart, as the fields are the form screens' code and the wallet's sentences are not.
 */
export const pinMessages = {
  pinHelp: '6 digits. Not 123456, a run like 345678 or one digit repeated.',
  pinRepeat: 'Type the same 6 digits again.',
} as const
