// The one error screen every route's ErrorBoundary is built on (Epic Stack's GeneralErrorBoundary):
// a status a route expects (an order that is not found) gets its own handler; every other status a
// default; anything thrown that is not a response (a bug) the calm "something went wrong" page.
// It keeps the frame of the app (top bar, back, help), so nobody is left on a bare error page.
// A failure of ours (5xx, a bug) shows the request's id as a Reference to quote to support, and
// nothing else of the error.
import { isRouteErrorResponse, useLocation, useParams, useRouteError, type ErrorResponse } from '@remix-run/react'
import { createContext, useContext, type ReactNode } from 'react'
import { useErrorReference } from '~/utils/request-id'
import { ButtonLink } from './button'
import { Icon, type IconName } from './icon'
import { Screen } from './screen'

/** The request id an error page shows: only ours to explain (5xx, a bug), never a 404 or a refusal. */
const ShownReference = createContext('')

type StatusHandler = (info: { error: ErrorResponse; params: Record<string, string | undefined> }) => ReactNode

/** The title an error page carries in the top bar and the document title. */
export function errorTitle(error: unknown): string {
  if (isRouteErrorResponse(error) && error.status === 404) return 'Page not found'
  if (isRouteErrorResponse(error) && error.status === 503) return 'Service unavailable'
  return 'Something went wrong'
}

/** An error page's content inside the app's frame: icon, heading, a sentence and one way on. */
export function ErrorScreen({
  title,
  heading,
  text,
  icon = 'alert-triangle',
  action,
}: {
  title: string
  heading: string
  text: ReactNode
  icon?: IconName
  action?: ReactNode
}) {
  const reference = useContext(ShownReference)
  return (
    <Screen title={title} backTo="/">
      <div className="cl-empty">
        <span className="cl-icon-tile" aria-hidden="true">
          <Icon name={icon} size={28} />
        </span>
        <h2 className="cl-empty__title">{heading}</h2>
        <p className="cl-empty__text">{text}</p>
        {reference ? (
          <p className="cl-empty__text cl-empty__reference">
            Reference: <code data-request-id={reference}>{reference}</code>
          </p>
        ) : null}
        {action ?? (
          <ButtonLink to="/" variant="primary" block>
            Back to home
          </ButtonLink>
        )}
      </div>
    </Screen>
  )
}

/** The message a thrown `data({ message }, { status })` carries, if it carries one. */
function messageOf(error: ErrorResponse): string | undefined {
  const data: unknown = error.data
  if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') return data.message
  return undefined
}

const notFound: StatusHandler = () => (
  <ErrorScreen
    title="Page not found"
    heading="We could not find that page"
    text="The link may be old, or the page is not available yet."
    icon="info"
  />
)

/** The api could not be reached: its catalogue message, and a Retry that works without JavaScript. */
function Unavailable({ message }: { message?: string }) {
  const location = useLocation()
  return (
    <ErrorScreen
      title="Service unavailable"
      heading="We cannot reach our service right now"
      text={message ?? 'Please try again in a moment.'}
      action={
        <ButtonLink to={location.pathname + location.search} reloadDocument variant="primary" block icon="refresh">
          Retry
        </ButtonLink>
      }
    />
  )
}

function somethingWrong() {
  return (
    <ErrorScreen
      title="Something went wrong"
      heading="Something went wrong on our side"
      text="Your money and your cards are safe. Please try again in a moment."
    />
  )
}

/** A refusal that carries its own sentence (an oversized or unreadable form: 400, 413) says it. */
const refusedWithMessage: StatusHandler = ({ error }) => {
  const message = messageOf(error)
  if (!message) return somethingWrong()
  return <ErrorScreen title="Something went wrong" heading="We could not take that" text={message} />
}

const defaultStatusHandlers: Record<number, StatusHandler> = {
  400: refusedWithMessage,
  413: refusedWithMessage,
  404: notFound,
  503: ({ error }) => <Unavailable message={messageOf(error)} />,
}

export function GeneralErrorBoundary({
  statusHandlers,
  defaultStatusHandler = somethingWrong,
  unexpectedErrorHandler = somethingWrong,
}: {
  /** Per status, e.g. `{ 404: () => <ErrorScreen title="Order not found" … /> }`. */
  statusHandlers?: Record<number, StatusHandler>
  defaultStatusHandler?: StatusHandler
  unexpectedErrorHandler?: (error: unknown) => ReactNode
}) {
  const error = useRouteError()
  const params = useParams()
  const reference = useErrorReference()
  // Only the id: never the error's message or stack (Remix hides them in production anyway).
  const ours = !isRouteErrorResponse(error) || error.status >= 500
  let screen: ReactNode
  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers?.[error.status] ?? defaultStatusHandlers[error.status] ?? defaultStatusHandler
    screen = handler({ error, params })
  } else screen = unexpectedErrorHandler(error)
  return <ShownReference.Provider value={ours ? reference : ''}>{screen}</ShownReference.Provider>
}
