import type { Bank, NubanScheme } from '#contract/bank-cards'
import committed from './banks-ng.json'

/**
 * Banks we pay out to, by currency, with the payout provider's (Paystack's) codes (decision 039).
 * The list in the database, refreshed from Paystack's `GET /bank` (services/banks.ts), is the
 * one in force; banks-ng.json, committed, serves manual payouts and a first start. Paystack does
 * not say how a bank numbers its accounts, so the NUBAN scheme comes from the committed list
 * only (a bank not in it: name enquiry decides).
 */
type Entry = Bank & { active: boolean }

const SCHEMES = new Map<string, NubanScheme>(committed.map((b) => [b.code, (b.nuban as NubanScheme) ?? null]))

const byName = (a: Bank, b: Bank) => a.name.localeCompare(b.name)

const fromCommitted = (): Map<string, Entry> =>
  new Map(committed.map((b) => [b.code, { code: b.code, name: b.name, nuban: SCHEMES.get(b.code) ?? null, active: true }]))

/** In force per currency: replaced whole when the database's list is read. */
const catalogues = new Map<string, Map<string, Entry>>([['NGN', fromCommitted()]])

/** Puts the stored list in force; an empty one leaves the committed list. */
export function useBankList(currency: string, rows: { code: string; name: string; active: boolean }[]): void {
  if (rows.length === 0) return
  const next = new Map<string, Entry>()
  for (const r of rows) next.set(r.code, { code: r.code, name: r.name, nuban: SCHEMES.get(r.code) ?? null, active: r.active })
  // Banks saved accounts point at stay nameable even if the provider stops listing them.
  for (const [code, e] of catalogues.get(currency) ?? []) if (!next.has(code)) next.set(code, { ...e, active: false })
  catalogues.set(currency, next)
}

/** The committed list again (tests). */
export function resetBankList(): void {
  catalogues.set('NGN', fromCommitted())
}

/** Banks a person can add an account at, by name. */
export function banksFor(currency: string): Bank[] {
  return [...(catalogues.get(currency)?.values() ?? [])]
    .filter((b) => b.active)
    .map(({ code, name, nuban }) => ({ code, name, nuban }))
    .sort(byName)
}

/** A bank we pay out to now; undefined for an unknown or inactive code. */
export function findBank(currency: string, code: string): Bank | undefined {
  const b = catalogues.get(currency)?.get(code)
  return b?.active ? { code: b.code, name: b.name, nuban: b.nuban } : undefined
}

/** The name of any bank we know, active or not, for accounts already saved. */
export function bankName(currency: string, code: string): string {
  return catalogues.get(currency)?.get(code)?.name ?? `Bank ${code}`
}
