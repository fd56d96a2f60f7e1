/**
 * The face-value refusals: rates.ts applies them beside its rule, refusals.ts lists them with every
 * other. A module of their own, so that the refusal table does not bring the rates with it.
 */
export const faceValueRefusals = {
  /** The face value is outside the card's limits. */
  FACE_VALUE_OUT_OF_RANGE: { code: 4204, msg: 'The face value must be between {min} and {max}' },
  /** The card comes in fixed values and this is not one. */
  FACE_VALUE_NOT_LISTED: { code: 4205, msg: 'This card comes in {values}. Choose one of them' },
} as const
