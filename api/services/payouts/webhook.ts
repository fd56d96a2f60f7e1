import type { ApiDeps } from '../../deps'
import { findByPayoutReference } from '../../models/withdrawals'
import { settle } from './settlement'

export type WebhookOutcome = { status: 200 | 401; changed: boolean }

/**
 * A provider's webhook, as raw bytes and its signature header. Not authentic → 401 and nothing
 * changes. Authentic → 200 whatever it says (so the provider stops retrying): a transfer event of
 * one of our references moves that withdrawal forward, if it can still move that way; a duplicate,
 * a late event or an unknown reference changes nothing; a contradiction is a conflict.
 */
export async function receiveWebhook(deps: ApiDeps, rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
  const event = deps.payouts.readWebhook(rawBody, signature)
  if (!event) return { status: 401, changed: false }
  const state = ({ 'transfer.success': 'success', 'transfer.failed': 'failed', 'transfer.reversed': 'reversed' } as const)[event.event]
  if (!state || !event.transfer) {
    deps.logger.info({ event: event.event }, 'payout webhook: not a transfer event we act on')
    return { status: 200, changed: false }
  }
  const row = await findByPayoutReference(deps.db, event.transfer.reference)
  if (!row) {
    deps.logger.info({ event: event.event }, 'payout webhook: unknown reference, ignored')
    return { status: 200, changed: false }
  }
  // The event's name decides the state, not the data's status word.
  const after = await settle(deps, row.id, { ...event.transfer, state }, { source: 'webhook' })
  return { status: 200, changed: !!after && after.status !== row.status }
}
