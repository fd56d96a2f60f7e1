import { useFormAction, useNavigation } from '@remix-run/react'
import { useState } from 'react'

// A form's state beside its validation (app/utils/forms.ts): a screen that only posts loads no
// zod or conform for it.

/**
 * True while this route's form is on its way: a submission to the same action with the same
 * method (and, given an `intent`, the button that sent it). Any other navigation — a Back link,
 * a tab, another form — leaves the button idle. Call it in the component that renders the form.
 */
export function usePendingIntent(intent?: string, form: { action?: string; method?: 'post' | 'get' } = {}) {
  const navigation = useNavigation()
  const action = useFormAction(form.action)
  if (navigation.state === 'idle' || navigation.formAction === undefined) return false
  if (navigation.formAction !== action || navigation.formMethod?.toLowerCase() !== (form.method ?? 'post')) return false
  return intent === undefined || navigation.formData?.get('intent') === intent
}

/**
 * The React key of a password or code input: a new one each time an answer refuses that field
 * (`reply.refused`), so the refused secret starts empty again, while a secret the server did not
 * refuse (the password beside a wrong code) keeps what was typed. The server never echoes
 * secrets, so without JavaScript every secret field starts empty anyway.
 */
export function useSecretKey(key: string | undefined, reply: { refused?: string[] } | undefined, name: string) {
  const [seen, setSeen] = useState<{ reply: typeof reply; refusals: number }>({ reply, refusals: reply?.refused?.includes(name) ? 1 : 0 })
  // A new answer: count it if it refused this field (state derived while rendering, as React advises).
  if (reply !== seen.reply) setSeen({ reply, refusals: seen.refusals + (reply?.refused?.includes(name) ? 1 : 0) })
  return `${key ?? name}-${seen.refusals}`
}
