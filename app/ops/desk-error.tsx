// The admin desk's error page: a role that cannot use the desk reads why (403), not a generic failure.
import { opsMessages } from '~/ops/messages'
import { ErrorScreen, GeneralErrorBoundary } from '../components/error-boundary'

export function DeskErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        403: () => <ErrorScreen title="Not your desk" heading="Not your desk" text={opsMessages.notYourDesk} icon="info" />,
      }}
    />
  )
}
