/**
 * The task rewards' sentences: a part of the web's catalogue (utils/messages.ts), kept apart so a
 * screen loads only the sentences of its own domain.
 */

export const taskMessages = {
  loadFailed: 'Failed to load your rewards, please try again later',
  claimFailed: 'Failed to claim the reward, please try again later',
  chooseTask: 'Choose a task to claim',
  claimed: (amount: string) => `${amount} added to your wallet`,
  claimedBadge: 'Claimed',
  /** The progress bar's words, shown and read out: "1 of 5". */
  progress: (done: number, target: number) => `${done} of ${target}`,
  heading: 'Earn as you get started',
  lead: 'Each task pays a one-time reward into your wallet. Finish it, then claim it here.',
  /** After the amount of the rewards not yet claimed: "₦4,500.00 still to earn". */
  toEarn: 'still to earn',
  allClaimed: 'You claimed every reward. Thank you for selling with us.',
  empty: 'No rewards right now',
  emptyText: 'New tasks and their rewards show here.',
  /** The way to do each task, by its id; a task this web does not know yet gets no link. */
  go: {
    set_pin: 'Set PIN',
    add_bank_card: 'Add account',
    first_order: 'Sell a card',
    five_orders: 'Sell a card',
  } as Record<string, string | undefined>,
} as const

/** Edit profile (nickname and photo) and linking Google (issue 9). */
