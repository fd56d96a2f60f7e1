// Without the contract's schemas (decision 029): the Notifications screen links by kind and loads
// no zod for it.

/**
 * What a notification is about, with `refId` naming it: an order, a withdrawal, or the wallet (an
 * operator's adjustment, no refId), or a support conversation staff answered. Kept open (a string) so a newer kind never breaks a client
 * that does not know it yet: such a notification is shown without a link.
 */
export const NotificationKind = { ORDER: 'order', WITHDRAWAL: 'withdrawal', WALLET: 'wallet', SUPPORT: 'support' } as const
export type NotificationKind = (typeof NotificationKind)[keyof typeof NotificationKind]
