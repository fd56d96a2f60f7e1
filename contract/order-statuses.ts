// An order's statuses without the contract's schemas (decision 029): a screen that lists them
// (History's filter) loads no zod for it.
export const OrderStatus = {
  PENDING: 'pending',
  REVIEWING: 'reviewing',
  PROPOSED: 'proposed',
  COMPLETED: 'completed',
  REJECTED: 'rejected',
  CANCELLED: 'cancelled',
  DECLINED: 'declined',
} as const
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus]
export const orderStatuses = Object.values(OrderStatus) as [OrderStatus, ...OrderStatus[]]
