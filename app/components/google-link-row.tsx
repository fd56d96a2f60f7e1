// Account's Google row: "Link Google" (a form that starts the Google trip in link mode) or, once
// linked, the Google account's e-mail. Works without JavaScript: a plain POST to /auth/google,
// reloadDocument because the answer is a redirect to another site. Put it in a <Card flush>, never
// inside another form. Renders nothing to link when Google is not set up (GOOGLE_CLIENT_ID unset).
import { Form } from '@remix-run/react'
import { usePublicEnv } from '~/utils/user'
import { Icon } from './icon'
import { ListRow } from './list-row'

export type GoogleLinkRowProps = {
  /** useUser().googleEmail: the linked Google account's e-mail, or null. */
  googleEmail: string | null
  /** Where to come back to after Google (a same-origin path). */
  redirectTo?: string
}

export function GoogleLinkRow({ googleEmail, redirectTo = '/account' }: GoogleLinkRowProps) {
  const { googleEnabled } = usePublicEnv()
  if (googleEmail) {
    return (
      <div className="cl-row">
        <span className="cl-row__icon" aria-hidden="true">
          <Icon name="google" size={20} />
        </span>
        <span className="cl-row__text">
          <span className="cl-row__label">Google account</span>
          <span className="cl-row__description" style={{ overflowWrap: 'anywhere' }}>
            {googleEmail}
          </span>
        </span>
        <span className="cl-row__value">Linked</span>
      </div>
    )
  }
  if (!googleEnabled) return null
  return (
    <Form method="post" action="/auth/google" reloadDocument>
      <input type="hidden" name="intent" value="link" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <ListRow type="submit" icon="google" label="Link Google" description="Sign in with your Google account too" chevron />
    </Form>
  )
}
