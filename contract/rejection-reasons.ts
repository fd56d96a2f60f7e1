// The sentences alone, without zod: Help & Support reads them on a first visit (bundle budget).
/** Why a card or an order is rejected or paid less, and the sentence the person reads. */
export const REJECTION_REASONS = {
  INVALID_IMAGE: 'The photos do not show the card clearly enough to redeem it',
  ALREADY_USED: 'The card had already been used when we tried to redeem it',
  FAKE_CARD: 'The card is not genuine',
  UNREADABLE: 'The code could not be read',
  WRONG_TYPE: 'The card is not the brand, country or type chosen in the order',
  EXPIRED: 'The card has expired',
  INVALID_ECODE: 'The code is not a valid code for this card',
  DUPLICATE_ECODE: 'This code was already submitted in another order',
  OTHER: 'Another reason: see the note from our team',
} as const
export type ReasonCode = keyof typeof REJECTION_REASONS
export const reasonCodes = Object.keys(REJECTION_REASONS) as [ReasonCode, ...ReasonCode[]]
