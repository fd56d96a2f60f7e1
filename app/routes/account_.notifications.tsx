// Notification settings (issue 27 §1–3, login; a sub-screen of Account): per kind of event, push
// and e-mail; whether a push may show amounts; the devices that get push, and turning push on here.
// Without JavaScript the switches are one form and one Save; with it each switch saves on its own
// (a fetcher, a toast) and Save goes away. Security e-mails are shown on and locked, with why.
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useFetcher, useLoaderData, useNavigation } from '@remix-run/react'
import type { NotifyPreference } from '#contract/notify'
import { ActionToast } from '~/components/action-toast'
import { Button } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { PushOptIn } from '~/components/push-opt-in'
import { Screen } from '~/components/screen'
import { useHydrated } from '~/components/ui'
import notifyStyles from '~/styles/screens/notify.css?url'
import { notifySettingsAction, notifySettingsPage } from '~/upstream/notify.server'
import { notifyMessages as M } from '~/utils/notify-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import type { Toast } from '~/utils/toast.server'

export const handle = stylesheetHandle(notifyStyles)
export const links = stylesheetLinks(handle)

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await notifySettingsPage(request, context)
}

export const action = ({ request, context }: ActionFunctionArgs) => notifySettingsAction(request, context)

const CHANNEL_NAMES = { push: 'Push', email: 'E-mail' } as const

/**
 * One switch: a checkbox of the whole form without JavaScript; with it, a post of its own. It shows
 * the value being saved while the post is under way, then the page's (the loaders run again after
 * it), so a refused switch turns back.
 */
function Switch({
  name,
  label,
  checked,
  fields,
  describedBy,
  children,
}: {
  name: string
  label: string
  checked: boolean
  fields: Record<string, string>
  describedBy?: string
  children: React.ReactNode
}) {
  const fetcher = useFetcher<{ toast: Toast | null }>()
  const saving = fetcher.formData?.get('on')
  const shown = saving === undefined || saving === null ? checked : saving === 'true'
  return (
    <label className="cl-check cl-notify__switch">
      <input
        type="checkbox"
        name={name}
        checked={shown}
        aria-describedby={describedBy}
        onChange={(e) => fetcher.submit({ ...fields, label, on: String(e.currentTarget.checked) }, { method: 'post' })}
      />
      <span>{children}</span>
      <ActionToast toast={fetcher.state === 'idle' ? fetcher.data?.toast : undefined} />
    </label>
  )
}

function KindSwitches({ pref }: { pref: NotifyPreference }) {
  const lockId = `notify-${pref.kind}-locked`
  return (
    <fieldset className="cl-notify__kind">
      <legend className="cl-notify__legend">{pref.label}</legend>
      <div className="cl-notify__switches">
        <Switch
          name={`${pref.kind}.push`}
          label={`${pref.label} by push`}
          checked={pref.push}
          fields={{ intent: 'switch', kind: pref.kind, channel: 'push' }}
        >
          {CHANNEL_NAMES.push}
        </Switch>
        {pref.locked ? (
          <label className="cl-check cl-notify__switch">
            {/* A disabled box is not sent: the hidden field says e-mail stays on. */}
            <input type="checkbox" defaultChecked disabled aria-describedby={lockId} />
            <input type="hidden" name={`${pref.kind}.email`} value="on" />
            <span>{CHANNEL_NAMES.email}</span>
          </label>
        ) : (
          <Switch
            name={`${pref.kind}.email`}
            label={`${pref.label} by e-mail`}
            checked={pref.email}
            fields={{ intent: 'switch', kind: pref.kind, channel: 'email' }}
          >
            {CHANNEL_NAMES.email}
          </Switch>
        )}
      </div>
      {pref.locked ? (
        <p className="cl-notify__locked" id={lockId}>
          <Icon name="lock" size={16} /> {M.lockedReason}
        </p>
      ) : null}
    </fieldset>
  )
}

export default function NotificationSettingsScreen() {
  const { kinds, pushAmounts, devices } = useLoaderData<typeof loader>()
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save'
  return (
    <Screen backTo="/account">
      <p className="cl-lead">How Cardlane tells you about your money when the app is closed.</p>
      <Form method="post" className="cl-section cl-notify">
        <input type="hidden" name="intent" value="save" />
        <Card title="What you hear about">
          {kinds.map((pref) => (
            <KindSwitches key={pref.kind} pref={pref} />
          ))}
        </Card>
        <Card title="On the lock screen">
          <Switch
            name="pushAmounts"
            label="Amounts on the lock screen"
            checked={pushAmounts}
            fields={{ intent: 'amounts' }}
            describedBy="notify-amounts-help"
          >
            Show amounts on the lock screen
          </Switch>
          <p className="cl-notify__help" id="notify-amounts-help">
            {M.amountsHelp}
          </p>
        </Card>
        {/* With JavaScript every switch has saved itself already. */}
        {hydrated ? null : (
          <Button type="submit" variant="primary" block pending={saving}>
            Save
          </Button>
        )}
      </Form>

      <Card title="Devices that get push" className="cl-section">
        {devices.length === 0 ? <p className="cl-notify__help">{M.noDevices}</p> : null}
        <ul className="cl-notify__devices">
          {devices.map((d) => (
            <li key={d.id} className="cl-notify__device">
              <span className="cl-notify__device-text">
                <span className="cl-notify__device-name">{d.name}</span>
                <span className="cl-notify__help">{d.lastUsed}</span>
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="id" value={d.id} />
                <Button type="submit" variant="secondary" aria-label={`Remove ${d.name}`}>
                  Remove
                </Button>
              </Form>
            </li>
          ))}
        </ul>
        <PushOptIn variant="settings" />
      </Card>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
