import { useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import type { z } from 'zod'

/**
 * The forms not yet moved to `useSchemaForm` (forms.ts, decision 059): the same behaviour, with
 * zod and the schema in the screen's first visit.
 */
export function useEagerSchemaForm<Schema extends z.ZodTypeAny>(
  schema: Schema,
  options: { id: string; lastResult?: SubmissionResult<string[]> | null; defaultValue?: Partial<z.input<Schema>> },
) {
  return useForm<z.input<Schema>>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
}
