import { z } from 'zod'
import { MAX_AMOUNT } from './money'

/** What the api accepts and answers as an amount or a currency (contract/money.ts says what money is). */
export const minorUnits = z
  .number({ required_error: 'Amount is required', invalid_type_error: 'Amount must be a whole number of minor units' })
  .int('Amount must be a whole number of minor units')
  .min(0, 'Amount cannot be negative')
  .max(MAX_AMOUNT, 'Amount is too large')

export const positiveAmount = minorUnits.refine((n) => n > 0, 'Amount must be more than zero')

/** A signed movement (an operator's adjustment): never zero. */
export const signedAmount = z
  .number({ required_error: 'Amount is required', invalid_type_error: 'Amount must be a whole number of minor units' })
  .int('Amount must be a whole number of minor units')
  .min(-MAX_AMOUNT, 'Amount is too large')
  .max(MAX_AMOUNT, 'Amount is too large')
  .refine((n) => n !== 0, 'Amount cannot be zero')

export const currencyCode = z.string().regex(/^[A-Z]{3}$/)
