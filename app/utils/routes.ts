/**
 * The 23 screens of SPEC §2 in one place: path, title, and who may open them.
 * Titles (the document's <title> and the Screen's h1), guards and the access test all read this table.
 *   public      anyone
 *   login       logged-out visitors are sent to /login?redirectTo=…
 *   guest       logged-in users are sent to / (Login, Register)
 */
import type { OpsAccess } from '../ops/desks'

export type Access = 'public' | 'login' | 'guest' | OpsAccess
export type ScreenRoute = { path: string; screen: string; title: string; access: Access }

export const screens: ScreenRoute[] = [
  { path: '/', screen: 'Home', title: 'Home', access: 'public' },
  { path: '/history', screen: 'History', title: 'History', access: 'login' },
  { path: '/login', screen: 'Login', title: 'Login', access: 'guest' },
  { path: '/register', screen: 'Register', title: 'Register', access: 'guest' },
  { path: '/forgot-password', screen: 'ForgotPassword', title: 'Forgot Password', access: 'public' },
  { path: '/account', screen: 'Account', title: 'Account', access: 'login' },
  { path: '/edit-profile', screen: 'EditProfile', title: 'Edit Profile', access: 'login' },
  // Specific order paths come before /order/:id so they win the match.
  { path: '/order/sell', screen: 'SellGiftCard', title: 'Sell Gift Card', access: 'public' },
  { path: '/order/submit-success', screen: 'Success', title: 'Order Submitted', access: 'login' },
  { path: '/order/:id', screen: 'OrderDetail', title: 'Order Detail', access: 'login' },
  { path: '/wallet', screen: 'Wallet', title: 'Wallet', access: 'login' },
  { path: '/wallet/bank-cards', screen: 'BankCards', title: 'Bank Cards', access: 'login' },
  { path: '/wallet/add-bank-card', screen: 'AddBankCard', title: 'Add Bank Card', access: 'login' },
  { path: '/wallet/withdraw', screen: 'Withdraw', title: 'Withdraw', access: 'login' },
  { path: '/wallet/withdraw-success', screen: 'WithdrawSuccess', title: 'Withdrawal Submitted', access: 'login' },
  { path: '/wallet/withdraw/:id', screen: 'WithdrawDetail', title: 'Withdrawal Detail', access: 'login' },
  { path: '/delete-account', screen: 'DeleteAccount', title: 'Delete Account', access: 'login' },
  { path: '/notification', screen: 'Notification', title: 'Notifications', access: 'login' },
  { path: '/set-pin', screen: 'SetPin', title: 'Set Withdrawal PIN', access: 'login' },
  { path: '/change-pin', screen: 'ChangePin', title: 'Change Withdrawal PIN', access: 'login' },
  { path: '/user/privacy', screen: 'Privacy', title: 'Privacy Policy', access: 'public' },
  { path: '/download', screen: 'Download', title: 'Download app', access: 'public' },
  { path: '/trading-plaza', screen: 'TradingPlaza', title: 'Trading Plaza', access: 'login' },
  // Beyond SPEC §2's list: where the chat button leads without a chat provider (SPEC §1 customer chat).
  { path: '/support', screen: 'Support', title: 'Help & Support', access: 'public' },
  // Support conversations where no chat provider is configured (decision 049).
  { path: '/support/new', screen: 'SupportNew', title: 'Write to us', access: 'login' },
  { path: '/support/:id', screen: 'SupportConversation', title: 'Support conversation', access: 'login' },
  // Beyond SPEC §2's list: the task rewards (SPEC §1 "task rewards"), also shown on Home and Account.
  { path: '/tasks', screen: 'Rewards', title: 'Rewards', access: 'login' },
  // Beyond SPEC §2's list (issue 27): push and e-mail per kind of event, a sub-screen of Account.
  { path: '/account/notifications', screen: 'NotificationSettings', title: 'Notification Settings', access: 'login' },
  // Beyond SPEC §2's list (issue 27): an e-mail's unsubscribe link; its token is the credential.
  { path: '/unsubscribe/:token', screen: 'Unsubscribe', title: 'Unsubscribe', access: 'public' },
]

export function matchesPath(pattern: string, pathname: string) {
  const a = pattern.split('/').filter(Boolean)
  const b = pathname.replace(/\/+$/, '').split('/').filter(Boolean)
  return a.length === b.length && a.every((part, i) => part.startsWith(':') || part === b[i])
}

export function screenFor(pathname: string): ScreenRoute | undefined {
  return screens.find((s) => matchesPath(s.path, pathname))
}

/** Paths that are not screens (sign-in plumbing, health, analytics) and who may call them. */
export const resourceRoutes: { path: string; access: Access }[] = [
  { path: '/logout', access: 'public' },
  { path: '/auth/google', access: 'public' },
  { path: '/auth/google/callback', access: 'public' },
  { path: '/healthcheck', access: 'public' },
  // Home's rate checker reads the public catalogue once the page is up.
  { path: '/catalogue', access: 'public' },
  // Card photos: uploaded one by one from the sell page, and shown to their owner only.
  { path: '/file/upload', access: 'login' },
  { path: '/file/:id', access: 'login' },
  // The analytics collector's beacon (visitors' page views too); always answers 204.
  { path: '/analytics', access: 'public' },
  // The payout provider's webhook, forwarded to the api unchanged (its signature is the check).
  { path: '/webhooks/paystack', access: 'public' },
  // Edit Profile's photo, uploaded from the page's JavaScript; avatars, shown to their owner only.
  { path: '/edit-profile/photo', access: 'login' },
  { path: '/avatar/:id', access: 'login' },
  // Wallet's automatic-withdrawal switch: a post, answered with a redirect back to Wallet.
  { path: '/wallet/auto-withdrawal', access: 'login' },
  // The page the service worker keeps for when there is no network (public/sw.js); nobody's.
  { path: '/offline', access: 'public' },
  // Push on this device: the opt-in's script reads the VAPID key and posts the subscription here.
  { path: '/account/push', access: 'login' },
]

export function pageTitle(title: string, brand: string) {
  return `${title} - ${brand}`
}
