import { accountFitsBank, MAX_BANK_CARDS, NUBAN_WRONG, type AddBankCardBody, type BankCard } from '#contract/bank-cards'
import { Refusals } from '#contract/refusals'
import { isUniqueViolation } from '../db/connect'
import type { BankCardRow, User } from '../db/schema'
import type { ApiDeps } from '../deps'
import { bankName, findBank } from '../lib/banks'
import { badRequest, refuse } from '../lib/envelope'
import { newId } from '../lib/tokens'
import { findOwnBankCard, insertBankCard, liveBankCards, setDefaultBankCard, softDeleteBankCard } from '../models/bank-cards'
import { addNotification } from '../models/notifications'
import { bankingOf, nameEnquiry, recipientFor } from './banks'
import { withPin } from './pin'

/** Bank accounts to withdraw to: at most 5, one default, changed only with the withdrawal PIN. */

export const maskAccountNumber = (n: string) => `•••• ${n.slice(-4)}`

export function toBankCard(row: BankCardRow, currency: string): BankCard {
  return {
    id: row.id,
    bankCode: row.bank_code,
    bankName: bankName(currency, row.bank_code),
    accountName: row.account_name,
    maskedNumber: maskAccountNumber(row.account_number),
    isDefault: row.is_default === 1,
    createdAt: Number(row.created_at),
  }
}

export async function listBankCards(deps: ApiDeps, user: User): Promise<BankCard[]> {
  return (await liveBankCards(deps.db, user.id)).map((r) => toBankCard(r, deps.config.wallet.currency))
}

/**
 * True when the bank's name shares no word with the profile's name (letters only, accents and
 * case ignored): the payout desk approves payouts to that account before they are sent.
 */
export function nameIsFar(profileName: string, bankName: string): boolean {
  const words = (s: string) =>
    new Set(
      s
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .toUpperCase()
        .split(/[^A-Z]+/)
        .filter((w) => w.length >= 2),
    )
  const bank = words(bankName)
  return ![...words(profileName)].some((w) => bank.has(w))
}

/**
 * The holder's name of an account. With a payout provider the bank answers (never saved here);
 * with manual payouts no provider is called and the person types the name. The number is checked
 * locally only against a NUBAN scheme the bank is known to use; otherwise name enquiry decides.
 */
export async function resolveAccount(deps: ApiDeps, body: { bankCode: string; accountNumber: string }) {
  const bank = findBank(deps.config.wallet.currency, body.bankCode)
  if (!bank) throw refuse(Refusals.UNKNOWN_BANK)
  if (!accountFitsBank(bank, body.accountNumber)) throw badRequest(`accountNumber: ${NUBAN_WRONG}`)
  const banking = bankingOf(deps)
  if (!banking) return { source: 'typed' as const, accountName: null }
  return { source: 'bank' as const, accountName: await nameEnquiry(deps, banking, body.bankCode, body.accountNumber) }
}

export async function addBankCard(deps: ApiDeps, user: User, body: AddBankCardBody): Promise<BankCard> {
  const { currency } = deps.config.wallet
  if (!findBank(currency, body.bankCode)) throw refuse(Refusals.UNKNOWN_BANK)
  const fromBank = bankingOf(deps) !== null
  if (!fromBank && !body.accountName) throw badRequest('accountName: Account name is required')
  // Asked before the PIN, so a provider outage never costs a PIN try; nothing is saved on a refusal.
  const resolved = await resolveAccount(deps, body)
  const accountName = fromBank ? resolved.accountName! : body.accountName!
  const saved = await withPin(deps, user.id, body.pin, async () => {
    const existing = await liveBankCards(deps.db, user.id)
    if (existing.some((c) => c.bank_code === body.bankCode && c.account_number === body.accountNumber))
      throw refuse(Refusals.BANK_CARD_DUPLICATE)
    if (existing.length >= MAX_BANK_CARDS) throw refuse(Refusals.BANK_CARD_LIMIT, { max: MAX_BANK_CARDS })
    const row: BankCardRow = {
      id: newId(),
      user_id: user.id,
      bank_code: body.bankCode,
      account_number: body.accountNumber,
      account_name: accountName,
      is_default: existing.length === 0 ? 1 : 0,
      created_at: deps.now(),
      deleted_at: null,
      name_from_bank: fromBank ? 1 : 0,
      name_flagged: fromBank && nameIsFar(user.user_name, accountName) ? 1 : 0,
      recipient_code: null,
      name_checked_at: fromBank ? deps.now() : null,
    }
    try {
      await insertBankCard(deps.db, row)
      await addNotification(
        deps.db,
        {
          userId: user.id,
          kind: 'security',
          title: 'Bank account added',
          content: `A bank account (${findBank(currency, row.bank_code)?.name ?? row.bank_code}) was added for withdrawals. If this was not you, reset your PIN and password now.`,
          // E-mail only: a security e-mail the person cannot turn off (decision 046).
          notify: { kind: 'security', summary: 'A bank account was added for withdrawals.', channels: ['email'] },
        },
        deps.now(),
      )
    } catch (err) {
      if (isUniqueViolation(err)) throw refuse(Refusals.BANK_CARD_DUPLICATE)
      throw err
    }
    return row
  })
  // The transfer recipient now, outside the PIN's transaction; on any trouble the first payout makes it.
  if (fromBank)
    await recipientFor(deps, saved).catch((err: unknown) =>
      deps.logger.info({ err: (err as Error).message, cardId: saved.id }, 'transfer recipient not made yet; the first payout makes it'),
    )
  return toBankCard(saved, currency)
}

export async function deleteBankCard(deps: ApiDeps, user: User, body: { id: string; pin: string }): Promise<null> {
  if (!(await findOwnBankCard(deps.db, user.id, body.id))) throw refuse(Refusals.BANK_CARD_NOT_FOUND)
  await withPin(deps, user.id, body.pin, async () => {
    const card = await findOwnBankCard(deps.db, user.id, body.id)
    if (!card || !(await softDeleteBankCard(deps.db, user.id, body.id, deps.now()))) throw refuse(Refusals.BANK_CARD_NOT_FOUND)
    // The default went away: the oldest remaining card takes its place.
    if (card.is_default === 1) {
      const next = (await liveBankCards(deps.db, user.id))[0]
      if (next) await setDefaultBankCard(deps.db, user.id, next.id)
    }
  })
  return null
}

export async function makeDefaultBankCard(deps: ApiDeps, user: User, id: string): Promise<null> {
  if (!(await findOwnBankCard(deps.db, user.id, id))) throw refuse(Refusals.BANK_CARD_NOT_FOUND)
  await setDefaultBankCard(deps.db, user.id, id)
  return null
}
