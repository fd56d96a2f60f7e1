/**
 * What the bank screens ask of a payout provider (decision 039), beside the transfers of
 * provider.ts: the banks it pays to, an account's name as its bank answers (name enquiry), and a
 * transfer recipient to keep on the account. Manual payouts have none of these.
 */

/** A bank as the provider lists it; `code` is the provider's own. */
export type ProviderBank = { code: string; name: string; slug: string; type: string; active: boolean }

/**
 * `named`: the bank named the account. `no-such-account`: the provider says the bank does not
 * know it (the person can act: other digits, other bank). `bank-unreachable`: no answer from the
 * bank (a 5xx, a timeout, a processor error, an answer we cannot read): nothing is known.
 */
export type NameEnquiry = { kind: 'named'; accountName: string } | { kind: 'no-such-account' } | { kind: 'bank-unreachable' }

export type RecipientOrder = { bankCode: string; accountNumber: string; accountName: string; currency: string }

export interface BankingProvider {
  /** Every bank paid to in this currency; ProviderUnavailable when the list cannot be had whole. */
  listBanks(currency: string): Promise<ProviderBank[]>
  /** ProviderUnavailable only when our own request is refused (the key): the company's problem. */
  nameEnquiry(bankCode: string, accountNumber: string): Promise<NameEnquiry>
  /** The recipient code; ProviderRefused when the provider will not make one, ProviderUnavailable otherwise. */
  createRecipient(order: RecipientOrder): Promise<string>
}
