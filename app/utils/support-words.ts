import type { SupportConversation } from '#contract/support-conversations'

/** A conversation's status in the seller's words and the desk's. */
export const sellerStatus: Record<SupportConversation['status'], string> = {
  open: 'Waiting for our answer',
  answered: 'Answered',
  closed: 'Closed',
}

export const deskStatus: Record<SupportConversation['status'], string> = {
  open: 'Waiting for us',
  answered: 'Answered',
  closed: 'Closed',
}
