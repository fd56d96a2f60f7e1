import { NOTIFY_KINDS, type NotifyKind } from '#contract/notify'

/** What the Account screen, e-mails and the unsubscribe page call each kind of event. */
export const NOTIFY_LABELS: Record<NotifyKind, string> = {
  order_paid: 'Order paid',
  order_offer: 'Lower offer waiting',
  order_rejected: 'Order rejected',
  withdrawal_paid: 'Withdrawal paid',
  withdrawal_failed: 'Withdrawal failed or returned',
  support: 'Support answered',
  security: 'Security: PIN, password, new device, new bank account',
}

/** Kinds whose e-mail cannot be turned off: they tell of someone else perhaps using the account. */
export const LOCKED_KINDS: readonly NotifyKind[] = ['security']

/**
 * Notification kinds (the in-app `kind`) that reach push and e-mail by themselves, when the code
 * that adds the notification names no event. Anything not listed stays in the app (rewards,
 * adjustments, kinds this code does not know yet).
 */
const BY_NOTIFICATION_KIND: Record<string, NotifyKind> = {
  support: 'support',
  security: 'security',
}

export const notifyKindOf = (notificationKind: string): NotifyKind | undefined => BY_NOTIFICATION_KIND[notificationKind]

export const isNotifyKind = (k: string): k is NotifyKind => (NOTIFY_KINDS as readonly string[]).includes(k)
