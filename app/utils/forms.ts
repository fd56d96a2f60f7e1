import { parse, useForm, type SubmissionResult } from '@conform-to/react'
import type { parseWithZod } from '@conform-to/zod'
import { useMatches } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import type { z } from 'zod'

/** A field's native constraints (conform's `Constraint`), as `formConstraints` gives them from the schema. */
type Constraint = {
  required?: boolean
  minLength?: number
  maxLength?: number
  min?: string | number
  max?: string | number
  step?: string | number
  multiple?: boolean
  pattern?: string
}

/**
 * Every form of the app the same way (decision 059): the schema validates in the browser when
 * JavaScript runs (on blur, then as you type) and the native constraints, which the screen's loader
 * gives from the same schema by the form's id (`formConstraints`, form.server.ts), hold it when it
 * does not; the server's `lastResult` is the word that counts.
 *
 * zod and the schema are not part of a first visit: `schema` imports them when the form is first
 * used (a focus, a tap, a key). A field left before they have come is validated when they come;
 * a form sent before goes to the server, which answers with its messages.
 */
export function useSchemaForm<Schema extends z.ZodTypeAny>(
  schema: () => Promise<Schema>,
  options: {
    id: string
    lastResult?: SubmissionResult<string[]> | null
    defaultValue?: Partial<z.input<Schema>>
  },
) {
  const loaded = useRef<{ schema: Schema; parseWithZod: typeof parseWithZod } | null>(null)
  // The fields left before the schema came, validated as soon as it does.
  const waiting = useRef(new Set<string>())
  const [form, fields] = useForm<z.input<Schema>>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    constraint: useConstraint(options.id),
    onValidate: ({ formData }) => {
      if (loaded.current) return loaded.current.parseWithZod(formData, { schema: loaded.current.schema })
      // Not here yet: a field's check waits for it; a submit goes to the server.
      return parse(formData, {
        resolve: (value, intent) => {
          if (intent?.type === 'validate' && intent.payload.name) waiting.current.add(intent.payload.name)
          return intent ? { value: undefined } : { value }
        },
      }) as never
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })

  const latest = useRef({ schema, validate: form.validate })
  latest.current = { schema, validate: form.validate }
  useEffect(() => {
    let started = false
    const start = (event: Event) => {
      const target = event.target as Element | null
      const inForm =
        target && 'form' in target ? (target as HTMLInputElement).form?.id === options.id : target?.closest?.(`form[id="${options.id}"]`)
      if (started || !inForm) return
      started = true
      void Promise.all([latest.current.schema(), import('@conform-to/zod')]).then(([schema, zod]) => {
        loaded.current = { schema, parseWithZod: zod.parseWithZod }
        for (const name of waiting.current) latest.current.validate({ name })
        waiting.current.clear()
      })
    }
    const events = ['focusin', 'pointerdown', 'keydown'] as const
    for (const name of events) document.addEventListener(name, start, true)
    return () => {
      for (const name of events) document.removeEventListener(name, start, true)
    }
  }, [options.id])

  return [form, fields] as const
}

/** The constraints of form `id`, from the loader data of a route on the page (`formConstraints`). */
function useConstraint(id: string) {
  for (const match of useMatches()) {
    const constraint = (match.data as { formConstraints?: Record<string, Record<string, Constraint>> } | undefined)?.formConstraints?.[id]
    if (constraint) return constraint
  }
  return undefined
}
