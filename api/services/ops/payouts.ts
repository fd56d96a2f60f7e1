import type { PayoutAccount } from '#contract/ops/payouts'
import { Refusals } from '#contract/refusals'
import type { ApiDeps } from '../../deps'
import { findBank } from '../../lib/banks'
import { refuse } from '../../lib/envelope'
import { audit } from '../../models/audit-log'
import { findBankCard } from '../../models/bank-cards'

/**
 * What a payouts person needs to pay a withdrawal by hand. The full account number leaves only here,
 * one withdrawal at a time, with an audit entry naming who asked (the number itself is never written
 * to the audit log or the log).
 */
export async function revealAccount(deps: ApiDeps, actor: string, id: string): Promise<PayoutAccount> {
  const row = await deps.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw refuse(Refusals.WITHDRAWAL_NOT_FOUND)
  const card = await findBankCard(deps.db, row.bank_card_id)
  if (!card) throw refuse(Refusals.BANK_CARD_NOT_FOUND)
  await audit(
    deps.db,
    { actor, action: 'withdrawal.reveal_account', targetType: 'withdrawal', targetId: row.id, before: null, after: null },
    deps.now(),
  )
  return {
    withdrawalId: row.id,
    bankName: findBank(row.currency, card.bank_code)?.name ?? `Bank ${card.bank_code}`,
    bankCode: card.bank_code,
    accountName: card.account_name,
    accountNumber: card.account_number,
    amountToSend: Number(row.amount) - Number(row.fee),
    currency: row.currency,
  }
}
