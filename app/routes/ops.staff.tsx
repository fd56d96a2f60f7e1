import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { STAFF_ROLES, type StaffRole } from '#contract/endpoint'
import { adminStaffApi, type StaffMember } from '#contract/staff'
import { ConsolePage } from '~/components/console'
import { DeskErrorBoundary } from '~/components/console-desk-error'
import adminStyles from '~/styles/screens/console-admin.css'
import { deskMove, field, type DeskReply } from '~/upstream/admin-desk.server'
import { loaded } from '~/upstream/flow.server'
import { requireStaff, staffFlow } from '~/upstream/staff.server'
import { formatWhen } from '~/utils/console-format'
import { getWebEnv } from '~/utils/env.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

const roleNames: Record<StaffRole, string> = { reviewer: 'Reviewer', payouts: 'Payouts', admin: 'Admin' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { email } = await requireStaff(request, 'admin')
  return json({ staff: loaded(await staffFlow(request, context, adminStaffApi.list, {})), me: email })
}

/** The set-up link to hand over: absolute only with PUBLIC_URL (the request's Host is not trusted), else the path. */
const setupLink = (token: string) => {
  const path = `/ops/setup/${token}`
  const origin = getWebEnv().PUBLIC_URL
  return origin ? new URL(path, origin).toString() : path
}

type SetupReply = { setup: { email: string; link: string; expiresAt: number; why: 'invited' | 'reset' } }

/** Invite, change role, disable, reset. An invite or reset answers the set-up link once, on this page, never in a URL. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, 'admin')
  const form = await request.formData()
  const intent = field(form, 'intent')
  const email = field(form, 'email').toLowerCase()
  if (intent === 'invite' || intent === 'reset') {
    const result =
      intent === 'invite'
        ? await staffFlow(request, context, adminStaffApi.invite, { email, role: field(form, 'role') as StaffRole })
        : await staffFlow(request, context, adminStaffApi.reset, { email })
    if (!result.success)
      return json<DeskReply>({ error: result.msg, form: intent === 'invite' ? 'invite' : `row:${email}` }, { status: 400 })
    const { staff, setupToken, setupExpiresAt } = result.data
    return json<SetupReply>(
      {
        setup: {
          email: staff.email,
          link: setupLink(setupToken),
          expiresAt: setupExpiresAt,
          why: intent === 'invite' ? 'invited' : 'reset',
        },
      },
      { headers: { 'Cache-Control': 'no-store' } },
    )
  }
  if (intent === 'role') {
    const role = field(form, 'role') as StaffRole
    return deskMove(request, context, {
      endpoint: adminStaffApi.role,
      input: { email, role },
      form: `row:${email}`,
      to: '/ops/staff',
      done: (s) => `${s.email} is now ${roleNames[s.role]}`,
    })
  }
  return deskMove(request, context, {
    endpoint: adminStaffApi.disable,
    input: { email },
    form: `row:${email}`,
    to: '/ops/staff',
    done: (s) => `${s.email} is disabled and signed out`,
  })
}

export default function StaffDesk() {
  const { staff, me } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as DeskReply | SetupReply | undefined
  const busy = useNavigation().state === 'submitting'
  const error = reply && 'error' in reply ? reply : undefined
  return (
    <ConsolePage title="Staff">
      {reply && 'setup' in reply ? <SetupLinkBox setup={reply.setup} /> : null}
      <section className="ops-panel" aria-labelledby="invite-title">
        <h2 id="invite-title" className="ops-tile__label">
          Invite a staff member
        </h2>
        <Form method="post" className="ops-form">
          <input type="hidden" name="intent" value="invite" />
          <label>
            E-mail
            <input name="email" type="email" required maxLength={254} autoComplete="off" />
          </label>
          <label>
            Role
            <select name="role" defaultValue="reviewer" aria-label="Role of the new staff member">
              {STAFF_ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleNames[r]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="ops-button ops-button--primary" disabled={busy}>
            Invite
          </button>
        </Form>
        {error?.form === 'invite' ? (
          <p className="ops-error" role="alert">
            {error.error}
          </p>
        ) : null}
      </section>
      {error && error.form !== 'invite' ? (
        <p className="ops-error" role="alert">
          {error.error}
        </p>
      ) : null}
      <StaffTable staff={staff} me={me} busy={busy} />
    </ConsolePage>
  )
}

function SetupLinkBox({ setup }: { setup: SetupReply['setup'] }) {
  return (
    <section className="ops-link-box" aria-labelledby="setup-title" role="status">
      <h2 id="setup-title" className="ops-tile__label">
        {setup.why === 'invited' ? `${setup.email} is invited` : `${setup.email} is reset`}
      </h2>
      <p>Give them this set-up link, shown only now. It works once, until {formatWhen(setup.expiresAt)}:</p>
      <p>
        <a href={setup.link}>
          <code>{setup.link}</code>
        </a>
      </p>
    </section>
  )
}

function StaffTable({ staff, me, busy }: { staff: StaffMember[]; me: string; busy: boolean }) {
  return (
    <div className="ops-table-wrap">
      <table className="ops-table">
        <caption className="cl-visually-hidden">Staff members</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Status</th>
            <th scope="col">Role</th>
            <th scope="col">Invited by</th>
            <th scope="col">Since</th>
            <th scope="col">Account</th>
          </tr>
        </thead>
        <tbody>
          {staff.map((s) => (
            <tr key={s.staffId}>
              <th scope="row">{s.email}</th>
              <td>
                {s.status}
                {s.locked ? <span className="ops-late"> (locked)</span> : null}
              </td>
              <td>
                {s.email === me ? (
                  roleNames[s.role]
                ) : (
                  <Form method="post" className="ops-form ops-form--row" aria-label={`Role of ${s.email}`}>
                    <input type="hidden" name="intent" value="role" />
                    <input type="hidden" name="email" value={s.email} />
                    <label className="cl-visually-hidden" htmlFor={`role-${s.staffId}`}>
                      Role of {s.email}
                    </label>
                    <select id={`role-${s.staffId}`} name="role" defaultValue={s.role}>
                      {STAFF_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {roleNames[r]}
                        </option>
                      ))}
                    </select>
                    <button type="submit" className="ops-button" disabled={busy}>
                      Change
                    </button>
                  </Form>
                )}
              </td>
              <td>{s.createdBy.replace(/^staff:/, '')}</td>
              <td>{formatWhen(s.createdAt)}</td>
              <td>
                {s.email === me ? (
                  <span className="ops-muted">You</span>
                ) : (
                  <Form method="post" className="ops-form" aria-label={`Account of ${s.email}`}>
                    <input type="hidden" name="email" value={s.email} />
                    <button type="submit" name="intent" value="reset" className="ops-button" disabled={busy}>
                      Reset
                    </button>
                    {s.status !== 'disabled' ? (
                      <button type="submit" name="intent" value="disable" className="ops-button ops-button--danger" disabled={busy}>
                        Disable
                      </button>
                    ) : null}
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
