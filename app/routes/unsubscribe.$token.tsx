// Unsubscribe (issue 27 §2, public): the link in every e-mail of a kind that can be turned off. The
// page says what would stop and whose e-mails they are, and its button posts; a mail client's
// RFC 8058 one-click POST (`List-Unsubscribe=One-Click`, no cookie) lands on the same action. The
// token in the path is the only credential: never logged (server/log-path.ts), never shown.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { Button, ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { Screen } from '~/components/screen'
import resultStyles from '~/styles/screens/unsubscribe.css?url'
import { unsubscribeAnswer, unsubscribePage } from '~/upstream/notify.server'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'

export const handle = stylesheetHandle(resultStyles)
export const links = stylesheetLinks(handle)

export const loader = ({ params, context }: LoaderFunctionArgs) => unsubscribePage(context, params.token ?? '')

export const action = ({ request, params, context }: ActionFunctionArgs) => unsubscribeAnswer(request, context, params.token ?? '')

export default function UnsubscribeScreen() {
  const asked = useLoaderData<typeof loader>()
  const done = useActionData<typeof action>()
  const sending = useNavigation().state === 'submitting'
  const answer = done ?? asked
  if ('refused' in answer) {
    return (
      <Screen>
        <section className="cl-result" aria-labelledby="unsubscribe-title">
          <span className="cl-icon-tile" aria-hidden="true">
            <Icon name="alert-triangle" size={32} />
          </span>
          <h2 id="unsubscribe-title" className="cl-result__title">
            Nothing was changed
          </h2>
          <p className="cl-result__text" role="alert">
            {answer.refused}
          </p>
          <ButtonLink to="/account/notifications" variant="secondary" block>
            Notification settings
          </ButtonLink>
        </section>
      </Screen>
    )
  }
  const { label, email, subscribed } = answer.info
  if (done || !subscribed) {
    return (
      <Screen>
        <section className="cl-result cl-result--success" aria-labelledby="unsubscribe-title">
          <span className="cl-icon-tile" aria-hidden="true">
            <Icon name="check-circle" size={32} />
          </span>
          <h2 id="unsubscribe-title" className="cl-result__title">
            {done ? 'Done' : 'Already unsubscribed'}
          </h2>
          <p className="cl-result__text">
            No more e-mails about {label.toLowerCase()} go to {email}. Push and the app still tell you.
          </p>
          <ButtonLink to="/account/notifications" variant="secondary" block>
            Notification settings
          </ButtonLink>
        </section>
      </Screen>
    )
  }
  return (
    <Screen>
      <Card className="cl-unsubscribe">
        <h2 className="cl-result__title">
          Stop e-mails about {label.toLowerCase()} for {email}?
        </h2>
        <p className="cl-result__text">Other e-mails, push and the app’s own notifications stay as they are.</p>
        {/* The same body a mail client's one-click unsubscribe sends (RFC 8058). */}
        <Form method="post">
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <Button type="submit" variant="primary" block pending={sending}>
            Stop these e-mails
          </Button>
        </Form>
      </Card>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
