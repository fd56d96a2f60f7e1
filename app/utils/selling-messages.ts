/**
 * Selling's sentences: a part of the web's catalogue (utils/messages.ts), kept apart so a screen
 * loads only the sentences of its own domain.
 */

/** Selling gift cards: the sell form, orders, their review and the rates board. */
export const sellingMessages = {
  catalogueFailed: 'Failed to load the gift cards, please try again later',
  sellFailed: 'Failed to submit the order, please try again later',
  ordersFailed: 'Failed to load your orders, please try again later',
  orderFailed: 'Failed to load the order, please try again later',
  moveFailed: 'Failed to update the order, please try again later',
  uploadFailed: 'Failed to upload the photo, please try again later',
  chooseBrand: 'Choose a gift card',
  faceValueInvalid: 'Enter the face value like 100 or 25.50',
  faceValueRequired: 'Enter the face value of the card',
  codeRequired: 'Type the code of the card',
  photosRequired: 'Add a photo of the card',
  tooManyPhotos: (max: number) => `At most ${max} photos a card`,
  photosUploading: 'Wait for the photos to finish uploading',
  tooMuchAtOnce: 'That was more than one submission can take. Add the photos a few at a time.',
  codesCleared: 'For your safety, codes are never sent back to this page: type them again.',
  signInToSell: 'Sign in to add the code or photos. We keep your card choice.',
  rateChangedTitle: 'The rate changed',
  rateChangedConfirm: 'Confirm the new payout',
  orderCancelled: 'Order cancelled. Its codes can be sold again.',
  proposalAccepted: (amount: string) => `Offer accepted: ${amount} is in your wallet`,
  proposalDeclined: 'Offer declined. The order is closed and nothing was redeemed.',
  orderNotFound: 'Order not found',
  orderNotFoundHeading: 'We could not find this order',
  orderNotFoundText: 'It may belong to another account, or the link is wrong.',
  noOrders: 'No orders yet',
  noOrdersText: 'Cards you sell show here, with every step of their review.',
  noOrdersFiltered: 'No orders with this status',
  noRates: 'No cards match',
  noRatesText: 'Try another name, or clear the filters.',
} as const

/** An order's status as a person reads it (contract/orders.ts OrderStatus). */
export const orderStatusLabels = {
  pending: 'In queue',
  reviewing: 'In review',
  proposed: 'Offer to decide',
  completed: 'Paid',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  declined: 'Declined',
} as const satisfies Record<string, string>

/** Each step of an order's timeline: what it means for the person. */
export const orderStepTexts = {
  pending: 'Your order is in the review queue at the rate you were quoted.',
  reviewing: 'Our team is checking and redeeming the card.',
  proposed: 'We can pay less than the quote for a card. You decide: accept or decline.',
  completed: 'The payout is in your wallet.',
  rejected: 'The card could not be bought. Nothing was paid.',
  cancelled: 'You cancelled the order before its review.',
  declined: 'You declined the offer. The order is closed and nothing was redeemed.',
} as const satisfies Record<string, string>

/** A card's status within an order (contract/orders.ts cardStatuses). */
export const cardStatusLabels = {
  pending: 'In queue',
  reviewing: 'In review',
  accepted: 'Full payout',
  lowered: 'Lower payout',
  rejected: 'Rejected',
  completed: 'Paid',
  cancelled: 'Cancelled',
  declined: 'Declined',
} as const satisfies Record<string, string>

/** Task rewards: the Rewards screen and the task list on Home and Account. */
