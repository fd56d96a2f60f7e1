import type { AppLoadContext } from '@remix-run/node'
import { bankCardsApi as api } from '#contract/bank-cards'
import type { InputOf } from '#contract/endpoint'
import { flowFallbacks as fallback } from '~/utils/messages'
import { callApi } from './call-api.server'
import { flow } from './flow.server'

/** Banks and the person's bank accounts (DESIGN §3 /v1/bank, /v1/bankCard), one flow per contract call. */
type In<K extends keyof typeof api> = InputOf<(typeof api)[K]>

export const banksFlow = (request: Request, context: AppLoadContext) =>
  flow(context, fallback.bankCards, () => callApi(request, context, api.banks, {}))

export const bankCardsFlow = (request: Request, context: AppLoadContext) =>
  flow(context, fallback.bankCards, () => callApi(request, context, api.list, {}))

export const addBankCardFlow = (request: Request, context: AppLoadContext, body: In<'add'>) =>
  flow(context, fallback.addBankCard, () => callApi(request, context, api.add, body))

export const removeBankCardFlow = (request: Request, context: AppLoadContext, body: In<'remove'>) =>
  flow(context, fallback.removeBankCard, () => callApi(request, context, api.remove, body))

export const setDefaultBankCardFlow = (request: Request, context: AppLoadContext, body: In<'setDefault'>) =>
  flow(context, fallback.bankCards, () => callApi(request, context, api.setDefault, body))

export const resolveBankCardFlow = (request: Request, context: AppLoadContext, body: In<'resolve'>) =>
  flow(context, fallback.addBankCard, () => callApi(request, context, api.resolve, body))
