// Notification (SPEC §2, login): the person's notifications, newest first, twenty a page with plain
// Newer/Older links. An unread one is marked (a dot, a bold title, the word "Unread" for screen
// readers); opening it is a POST (readMessage, then a redirect to the order or withdrawal it is
// about), so it works without JavaScript and the badge counts down on the next page. A notification
// already read is a plain link. "Mark all read" is one more small form.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { NotificationKind } from '#contract/notification-kinds'
import type { Notification } from '#contract/notifications'
import { Refusals } from '#contract/refusals'
import { ActionToast } from '~/components/action-toast'
import { Button, ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { FormError } from '~/components/forms'
import { Icon, type IconName } from '~/components/icon'
import { Link } from '~/components/link'
import { When } from '~/components/money'
import { Pager } from '~/components/pager'
import { Screen } from '~/components/screen'
import { cx } from '~/components/ui'
import notificationStyles from '~/styles/screens/notification.css?url'
import { loaded } from '~/upstream/flow.server'
import { notificationPageFlow, readNotificationFlow } from '~/upstream/notifications.server'
import { orderTimeZone } from '~/upstream/orders.server'
import { requireToken } from '~/utils/auth.server'
import { usePendingIntent } from '~/utils/form-state'
import { readForm, toastNow } from '~/utils/form.server'
import { flowMessage } from '~/utils/messages'
import { notificationActionSchema as actionSchema } from '~/utils/notification-form.server'
import { notificationMessages as N } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast, type Toast } from '~/utils/toast.server'
import { useUser } from '~/utils/user'

export const handle = stylesheetHandle(notificationStyles)
export const links = stylesheetLinks(handle)

const PAGE_SIZE = 20
const MAX_PAGE = 100_000

/** `?page=N` as a page number; anything else is the first page. */
function pageOf(request: Request): number {
  const raw = new URL(request.url).searchParams.get('page') ?? ''
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : 1
  return Math.min(Math.max(n, 1), MAX_PAGE)
}

const listHref = (page: number) => (page > 1 ? `/notification?page=${page}` : '/notification')

/** Where a notification leads: the order or withdrawal it is about, the wallet for an adjustment; null for a kind this web does not know. */
function notificationHref(m: Pick<Notification, 'kind' | 'refId'>): string | null {
  if (m.kind === NotificationKind.ORDER && m.refId) return `/order/${encodeURIComponent(m.refId)}`
  if (m.kind === NotificationKind.WITHDRAWAL && m.refId) return `/wallet/withdraw/${encodeURIComponent(m.refId)}`
  if (m.kind === NotificationKind.WALLET) return '/wallet'
  if (m.kind === NotificationKind.SUPPORT && m.refId) return `/support/${encodeURIComponent(m.refId)}`
  return null
}

const KIND_ICONS: Record<string, IconName> = { order: 'tag', withdrawal: 'bank', wallet: 'wallet', support: 'chat' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireToken(request)
  const [page, timeZone] = await Promise.all([
    notificationPageFlow(request, context, { pageNum: pageOf(request), pageSize: PAGE_SIZE }),
    orderTimeZone(request, context),
  ])
  return { page: loaded(page), timeZone }
}

type ActionReply = { error: string; toast: Toast | null }

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  const parsed = actionSchema.safeParse(Object.fromEntries(await readForm(context, request)))
  // Beside the list; a toast as well only when it was not the api's answer about it (the api away, busy).
  const refused = (error: string, status: number) =>
    data<ActionReply>({ error, toast: status === 503 ? toastNow({ type: 'error', message: error }) : null }, { status })
  if (!parsed.success) return refused(N.chooseOne, 400)
  const here = listHref(pageOf(request))

  if (parsed.data.intent === 'all') {
    const result = await readNotificationFlow(request, context, { all: true })
    if (!result.success) return refused(flowMessage(result), 503)
    return redirectWithToast(request, here, { type: 'success', message: N.allRead })
  }

  const result = await readNotificationFlow(request, context, { id: parsed.data.id })
  if (!result.success) {
    if (result.code === Refusals.NOTIFICATION_NOT_FOUND.code || result.code === 400)
      return refused(Refusals.NOTIFICATION_NOT_FOUND.msg, 404)
    return refused(flowMessage(result), 503)
  }
  // The target comes from the api's copy of the notification, never from the form.
  return redirect((result.data.notification && notificationHref(result.data.notification)) ?? here)
}

export default function NotificationScreen() {
  const { page, timeZone } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { unreadCount } = useUser()
  const lastPage = Math.max(1, Math.ceil(page.total / page.pageSize))
  return (
    <Screen backTo="/account">
      <ActionToast toast={actionData?.toast} />
      {actionData?.error ? <FormError errors={[actionData.error]} /> : null}

      {page.total > 0 ? (
        <div className="cl-notes-head">
          <p className="cl-notes-head__count">{unreadCount > 0 ? N.unreadShort(unreadCount) : N.allCaughtUp}</p>
          {unreadCount > 0 ? <MarkAllRead /> : null}
        </div>
      ) : null}

      {page.list.length > 0 ? (
        <section className="cl-section" aria-labelledby="notes-title">
          <h2 id="notes-title" className="cl-visually-hidden">
            {/* Not "notifications": the toasts' region has that name. */}
            {page.pageNum > 1 ? `Messages, page ${page.pageNum}` : 'Newest messages'}
          </h2>
          <Card flush>
            <ul className="cl-list">
              {page.list.map((m) => (
                <li key={m.id} className="cl-list__item">
                  <NotificationRow notification={m} timeZone={timeZone} />
                </li>
              ))}
            </ul>
          </Card>
          <Pager label="Notification pages" pageNum={page.pageNum} lastPage={lastPage} href={listHref} />
        </section>
      ) : page.total > 0 ? (
        <Card className="cl-empty cl-empty--compact">
          <p className="cl-empty__text">{N.emptyPage}</p>
          <Link to="/notification" className="cl-link cl-link--touch">
            {N.backToNewest}
          </Link>
        </Card>
      ) : (
        <Card className="cl-empty">
          <span className="cl-icon-tile" aria-hidden="true">
            <Icon name="bell" size={28} />
          </span>
          <h2 className="cl-empty__title">{N.empty}</h2>
          <p className="cl-empty__text">{N.emptyText}</p>
          <ButtonLink to="/order/sell" variant="primary" block icon="tag">
            Sell a gift card
          </ButtonLink>
        </Card>
      )}
    </Screen>
  )
}

function MarkAllRead() {
  const pending = usePendingIntent('all')
  return (
    <Form method="post" className="cl-notes-head__form">
      <Button type="submit" name="intent" value="all" variant="secondary" icon="check-circle" pending={pending}>
        {N.markAllRead}
      </Button>
    </Form>
  )
}

/**
 * One notification. Unread: a button in its own small form (mark read, then go where it leads). Read:
 * a plain link to where it leads, or plain text when it leads nowhere.
 */
function NotificationRow({ notification: m, timeZone }: { notification: Notification; timeZone: string }) {
  const navigation = useNavigation()
  const href = notificationHref(m)
  const opening = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'open' && navigation.formData.get('id') === m.id
  const body = (
    <>
      <span className="cl-row__icon" aria-hidden="true">
        <Icon name={KIND_ICONS[m.kind] ?? 'bell'} size={20} />
      </span>
      <span className="cl-note__title">
        {m.read ? null : <span className="cl-visually-hidden">{N.unread}: </span>}
        {m.title}
      </span>
      {m.read ? null : <span className="cl-note__dot" aria-hidden="true" />}
      <span className="cl-note__content">{m.content}</span>
      <span className="cl-note__meta">
        <When at={m.createdAt} timeZone={timeZone} />
      </span>
      {href ? <Icon name="chevron-right" size={20} className="cl-row__chevron" /> : null}
    </>
  )
  const classes = cx('cl-row', 'cl-note', !m.read && 'cl-note--unread')
  if (!m.read) {
    return (
      <Form method="post" className="cl-note__form">
        <input type="hidden" name="id" value={m.id} />
        <button type="submit" name="intent" value="open" className={classes} aria-busy={opening || undefined}>
          {body}
        </button>
      </Form>
    )
  }
  return href ? (
    <Link to={href} className={classes}>
      {body}
    </Link>
  ) : (
    <div className={classes}>{body}</div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
