/**
 * The words of what every screen loads (the root, the top bar, the help button, the analytics of
 * success toasts), apart from the catalogue in messages.ts: the shell then carries only these, not
 * every screen's sentences and the refusal table they quote.
 */

/** What the screens say on success. */
export const successMessages = {
  loggedIn: 'Welcome back',
  orderSubmitted: 'Order submitted',
  registered: 'Your account is ready. Welcome!',
  codeSent: 'We sent a 6-digit code to your e-mail. It expires in 10 minutes.',
  passwordReset: 'Password changed. Sign in with your new password.',
  profileUpdated: 'Profile updated',
  loggedOut: 'You are signed out',
  googleNew: 'Welcome! Choose the nickname people will see.',
  pinSet: 'Withdrawal PIN set',
  pinChanged: 'Withdrawal PIN changed',
  pinReset: 'New PIN set. For your safety, withdrawals open again in 24 hours.',
  bankCardAdded: 'Bank account added',
  bankCardRemoved: 'Bank account removed',
  defaultCardSet: 'Default bank account changed',
  withdrawn: 'Withdrawal requested',
} as const

/** The notifications' words: the /notification screen, the bell and the tab's badge. */
export const notificationMessages = {
  loadFailed: 'Failed to load your notifications, please try again later',
  readFailed: 'Failed to update your notifications, please try again later',
  chooseOne: 'Choose a notification',
  allRead: 'All notifications marked as read',
  markAllRead: 'Mark all read',
  allCaughtUp: 'You are all caught up',
  /** Above the list, beside "Mark all read". */
  unreadShort: (count: number) => `${count} unread`,
  unread: 'Unread',
  empty: 'No notifications yet',
  emptyText: 'We tell you here when an order is reviewed, a payout is made or a withdrawal reaches your bank.',
  emptyPage: 'There is nothing more on this page.',
  backToNewest: 'Back to the newest',
  /** The badge's accessible text, hidden at 0. */
  unreadLabel: (count: number) => (count === 1 ? '1 unread notification' : `${count} unread notifications`),
  /** What the badge shows: the number, "99+" above 99. */
  badge: (count: number) => (count > 99 ? '99+' : String(count)),
  /** The bell's name when nothing is unread. */
  bell: 'Notifications',
} as const

/** Help & Support: the floating button and the support screen (app/routes/support.tsx). */
export const supportMessages = {
  chatButton: 'Chat with support',
  helpButton: 'Help & Support',
  infoFailed: 'Failed to load the current limits, please try again later',
  /** When the api cannot say today's numbers: where a person still finds them. */
  limitsUnavailable: 'We cannot load the current limits right now. The Withdraw screen always shows them before you confirm.',
  reviewUnavailable: 'Each card shows its review time when you choose it on the Sell screen.',
  conversationsFailed: 'Failed to load your conversations, please try again later',
  sendFailed: 'Your message was not sent, please try again',
  messageSent: 'Sent: we answer here and tell you in Notifications',
} as const
