import { accountsApi } from './accounts'
import { analyticsApi } from './analytics'
import { autoWithdrawalApi } from './auto-withdrawal'
import { bankCardsApi } from './bank-cards'
import { catalogueApi } from './catalogue'
import type { Endpoint } from './endpoint'
import { notificationsApi } from './notifications'
import { notifyApi } from './notify'
import { opsAnalyticsApi, opsMoneyApi, opsPayoutsApi } from './ops/money'
import { payoutDeskApi } from './ops/payouts'
import { peopleDeskApi } from './ops/people'
import { reviewDeskApi } from './ops/review'
import { staffDeskApi, staffApi } from './ops/staff'
import { supportDeskApi } from './ops/support'
import { ordersApi } from './orders'
import { pinApi } from './pin'
import { profileApi } from './profile'
import { supportApi } from './support'
import { supportConversationsApi } from './support-conversations'
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
  opsMoney: opsMoneyApi,
  catalogue: catalogueApi,
  orders: ordersApi,
  uploads: uploadsApi,
  analytics: analyticsApi,
  opsAnalytics: opsAnalyticsApi,
  opsPayouts: opsPayoutsApi,
  support: supportApi,
  reviewDesk: reviewDeskApi,
  tasks: tasksApi,
  notifications: notificationsApi,
  notify: notifyApi,
  staff: staffApi,
  staffDesk: staffDeskApi,
  peopleDesk: peopleDeskApi,
  payoutDesk: payoutDeskApi,
  autoWithdrawal: autoWithdrawalApi,
  supportConversations: supportConversationsApi,
  supportDesk: supportDeskApi,
} as const

export const allEndpoints: Endpoint[] = Object.values(contractApis).flatMap((api) => Object.values(api) as Endpoint[])
