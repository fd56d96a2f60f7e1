import { Refusals } from '#contract/refusals'
import type { BankCardRow } from '../db/schema'
import type { ApiDeps } from '../deps'
import { findBank, useBankList } from '../lib/banks'
import { refuse } from '../lib/envelope'
import type { BankingProvider } from '../lib/payouts/banking'
import { paystackBanking } from '../lib/payouts/paystack'
import { ProviderUnavailable } from '../lib/payouts/provider'
import { readBanks, saveRecipientCode, upsertBanks } from '../models/banks'

/**
 * Banks and what payouts need of them (decision 039): the list from the payout provider, stored
 * and refreshed daily; name enquiry; the transfer recipient kept on a bank account; and when an
 * account's name must be asked of its bank again before a payout.
 */

const providers = new WeakMap<object, BankingProvider>()

/** The payout provider's bank calls; null with manual payouts (nothing may call a provider). */
export function bankingOf(deps: ApiDeps): BankingProvider | null {
  const p = deps.config.payouts
  if (deps.payouts.name === 'manual' || p.provider === 'manual') return null
  let banking = providers.get(p)
  if (!banking) {
    banking = paystackBanking({ secretKey: p.paystackSecretKey, baseUrl: p.paystackBaseUrl, timeoutMs: p.requestTimeoutMs })
    providers.set(p, banking)
  }
  return banking
}

/** Puts the stored list in force (the committed one while nothing is stored). */
export async function loadBanks(deps: ApiDeps): Promise<void> {
  const { currency } = deps.config.wallet
  useBankList(
    currency,
    (await readBanks(deps.db, currency)).map((r) => ({ code: r.code, name: r.name, active: r.active === 1 })),
  )
}

/**
 * Asks the provider for its banks and stores them: new ones added, names updated, banks it no
 * longer lists made inactive (saved accounts keep their bank's name). Returns how many it listed;
 * an empty or unreadable list changes nothing.
 */
export async function refreshBanks(deps: ApiDeps): Promise<number> {
  const banking = bankingOf(deps)
  if (!banking) return 0
  const { currency } = deps.config.wallet
  const listed = await banking.listBanks(currency)
  if (listed.length === 0) return 0
  await upsertBanks(deps.db, deps.dbKind, currency, listed, deps.now())
  await loadBanks(deps)
  return listed.length
}

/** Loads the stored list now and refreshes it from the provider when it is older than BANKS_REFRESH_HOURS. */
export function startBankRefresh(deps: ApiDeps, everyMs = 3_600_000): { stop(): Promise<void> } {
  let running: Promise<void> | undefined
  const run = () => {
    if (running) return
    running = (async () => {
      await loadBanks(deps)
      const stored = await readBanks(deps.db, deps.config.wallet.currency)
      const newest = Math.max(0, ...stored.map((r) => Number(r.refreshed_at)))
      if (deps.now() - newest >= deps.config.banks.refreshMs) await refreshBanks(deps)
    })()
      .catch((err: unknown) => deps.logger.warn({ err: (err as Error).message }, 'bank list refresh failed; the stored list stays'))
      .finally(() => {
        running = undefined
      })
  }
  run()
  const timer = setInterval(run, everyMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}

/**
 * The holder's name as the bank has it, or the refusal the person can act on: the bank does not
 * know the account, or the bank (or the provider) could not be reached, which says nothing of it.
 */
export async function nameEnquiry(deps: ApiDeps, banking: BankingProvider, bankCode: string, accountNumber: string): Promise<string> {
  let answer
  try {
    answer = await banking.nameEnquiry(bankCode, accountNumber)
  } catch (err) {
    if (err instanceof ProviderUnavailable) throw refuse(Refusals.ACCOUNT_CHECK_UNAVAILABLE)
    throw err
  }
  if (answer.kind === 'no-such-account') throw refuse(Refusals.ACCOUNT_NOT_RESOLVED)
  if (answer.kind === 'bank-unreachable') throw refuse(Refusals.BANK_UNREACHABLE)
  return answer.accountName.trim().slice(0, 80)
}

/**
 * The account's transfer recipient at the provider: the stored one, or one made now and stored
 * (Paystack answers the existing recipient for an account it knows, so a race makes no second
 * one). For the payout worker: send to this code instead of creating a recipient a payout.
 * Throws ProviderRefused / ProviderUnavailable as the provider answers; null with manual payouts.
 */
export async function recipientFor(deps: ApiDeps, card: BankCardRow): Promise<string | null> {
  if (card.recipient_code) return card.recipient_code
  const banking = bankingOf(deps)
  if (!banking) return null
  const code = await banking.createRecipient({
    bankCode: card.bank_code,
    accountNumber: card.account_number,
    accountName: card.account_name,
    currency: deps.config.wallet.currency,
  })
  await saveRecipientCode(deps.db, card.id, code)
  return code
}

/** True when a payout of `amount` to this account should ask its bank for the name again first. */
export function needsNameRecheck(deps: ApiDeps, card: BankCardRow, amount: number): boolean {
  if (!bankingOf(deps) || card.name_from_bank !== 1) return false
  const { nameRecheckMs, nameRecheckAmount } = deps.config.banks
  const checkedAt = Number(card.name_checked_at ?? card.created_at)
  return deps.now() - checkedAt >= nameRecheckMs || (nameRecheckAmount > 0 && amount >= nameRecheckAmount)
}

/**
 * Names the account again before a payout. `same`: the bank gives the saved name (the check time
 * is stored); `changed`: another name (hold the payout for a person; the saved name stays);
 * `unknown`: no answer now (try later, never a failure); `gone`: the bank no longer knows it.
 */
export async function recheckName(deps: ApiDeps, card: BankCardRow): Promise<'same' | 'changed' | 'unknown' | 'gone'> {
  const banking = bankingOf(deps)
  if (!banking || !findBank(deps.config.wallet.currency, card.bank_code)) return 'unknown'
  let answer
  try {
    answer = await banking.nameEnquiry(card.bank_code, card.account_number)
  } catch {
    return 'unknown'
  }
  if (answer.kind === 'bank-unreachable') return 'unknown'
  if (answer.kind === 'no-such-account') return 'gone'
  const same = (s: string) => s.replace(/\s+/g, ' ').trim().toUpperCase()
  if (same(answer.accountName) !== same(card.account_name)) return 'changed'
  await deps.db.updateTable('bank_cards').set({ name_checked_at: deps.now() }).where('id', '=', card.id).execute()
  return 'same'
}
