// Account's Google row: "Link Google" (a form that starts the Google trip in link mode) or, once
// linked, the Google account's e-mail. Works without JavaScript: a plain POST to /auth/google,
// reloadDocument because the answer is a redirect to another site. Put it in a <Card flush>, never
// inside another form. Renders nothing to link when Google is not set up (GOOGLE_CLIENT_ID unset).
// Both rows are list-row.tsx's markup written out: Edit profile shows no other row, and ListRow
// would bring it the chunk of the wallet's rows and amounts.
import { Form } from '@remix-run/react'
import type { ReactNode } from 'react'
import { usePublicEnv } from '~/utils/user'
import googleMark from './google-mark.svg?url'
import { Icon } from './icon'

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
        <RowText label="Google account" description={googleEmail} wrap />
        <span className="cl-row__value">Linked</span>
      </div>
    )
  }
  if (!googleEnabled) return null
  return (
    <Form method="post" action="/auth/google" reloadDocument>
      <input type="hidden" name="intent" value="link" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button type="submit" className="cl-row">
        <RowText label="Link Google" description="Sign in with your Google account too" />
        <Icon name="chevron-right" size={20} className="cl-row__chevron" />
      </button>
    </Form>
  )
}

/** The row's icon and text; `wrap`: an e-mail breaks anywhere rather than overflow the row. */
function RowText({ label, description, wrap }: { label: string; description: ReactNode; wrap?: boolean }) {
  return (
    <>
      <span className="cl-row__icon" aria-hidden="true">
        <img src={googleMark} alt="" width={20} height={20} className="cl-icon" />
      </span>
      <span className="cl-row__text">
        <span className="cl-row__label">{label}</span>
        <span className="cl-row__description" style={wrap ? { overflowWrap: 'anywhere' } : undefined}>
          {description}
        </span>
      </span>
    </>
  )
}
