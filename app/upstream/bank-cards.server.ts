import { bankCardsApi as api } from '#contract/bank-cards'
import type { InputOf } from '#contract/endpoint'
import { callApi } from '~/utils/auth.server'
import { flowFallbacks as fallback } from '~/utils/messages'
import { flow } from './flow.server'

/** Banks and the person's bank accounts (DESIGN §3 /v1/bank, /v1/bankCard), one flow per contract call. */
type In<K extends keyof typeof api> = InputOf<(typeof api)[K]>

export const banksFlow = (request: Request) => flow(fallback.bankCards, () => callApi(request, api.banks, {}))

export const bankCardsFlow = (request: Request) => flow(fallback.bankCards, () => callApi(request, api.list, {}))

export const addBankCardFlow = (request: Request, body: In<'add'>) => flow(fallback.addBankCard, () => callApi(request, api.add, body))

export const removeBankCardFlow = (request: Request, body: In<'remove'>) =>
  flow(fallback.removeBankCard, () => callApi(request, api.remove, body))

export const setDefaultBankCardFlow = (request: Request, body: In<'setDefault'>) =>
  flow(fallback.bankCards, () => callApi(request, api.setDefault, body))
