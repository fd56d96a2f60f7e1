import { accountsApi } from './accounts'
import { adminAnalyticsApi, adminApi, adminPayoutsApi } from './admin'
import { adminDeskApi } from './admin-desk'
import { adminOrdersApi } from './admin-orders'
import { analyticsApi } from './analytics'
import { bankCardsApi } from './bank-cards'
import { catalogueApi } from './catalogue'
import type { Endpoint } from './endpoint'
import { notificationsApi } from './notifications'
import { notifyApi } from './notify'
import { ordersApi } from './orders'
import { autoWithdrawalApi, payoutDeskApi } from './payout-desk'
import { pinApi } from './pin'
import { profileApi } from './profile'
import { adminStaffApi, staffApi } from './staff'
import { supportApi } from './support'
import { supportConversationsApi, supportDeskApi } from './support-conversations'
import { tasksApi } from './tasks'
import { uploadsApi } from './uploads'
import { walletApi } from './wallet'
import { withdrawalsApi } from './withdrawals'

/** Every api call the contract binds, by domain. A new domain adds its record set here. */
export const contractApis = {
  accounts: accountsApi,
  profile: profileApi,
  wallet: walletApi,
  pin: pinApi,
  bankCards: bankCardsApi,
  withdrawals: withdrawalsApi,
  admin: adminApi,
  catalogue: catalogueApi,
  orders: ordersApi,
  uploads: uploadsApi,
  analytics: analyticsApi,
  adminAnalytics: adminAnalyticsApi,
  adminPayouts: adminPayoutsApi,
  support: supportApi,
  adminOrders: adminOrdersApi,
  tasks: tasksApi,
  notifications: notificationsApi,
  notify: notifyApi,
  staff: staffApi,
  adminStaff: adminStaffApi,
  adminDesk: adminDeskApi,
  payoutDesk: payoutDeskApi,
  autoWithdrawal: autoWithdrawalApi,
  supportConversations: supportConversationsApi,
  supportDesk: supportDeskApi,
} as const

export const allEndpoints: Endpoint[] = Object.values(contractApis).flatMap((api) => Object.values(api) as Endpoint[])
