import { type ActionFunctionArgs, data, type LinksFunction, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { z } from 'zod'
import { emailField } from '#contract/accounts'
import { staffDeskApi, type StaffMember } from '#contract/ops/staff'
import { STAFF_ROLES, type StaffRole } from '#contract/ops/staff-rules'
import { Link } from '~/components/link'
import { DeskErrorBoundary } from '~/ops/desk-error'
import { badInput, deskMove, readDeskForm, type DeskReply } from '~/ops/desk-move.server'
import { formatWhen } from '~/ops/format'
import { OpsPage } from '~/ops/shell'
import { requireStaff, staffFlow } from '~/ops/staff.server'
import adminStyles from '~/ops/styles/admin-desks.css?url'
import { loaded } from '~/upstream/flow.server'
import { getWebEnv } from '~/utils/env.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: adminStyles }]

const roleNames: Record<StaffRole, string> = { reviewer: 'Reviewer', payouts: 'Payouts', admin: 'Admin' }

/** `?disable=` is the confirm step of a disable without JavaScript: the page asks before anything happens. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { email } = await requireStaff(request, context)
  const staff = loaded(await staffFlow(request, context, staffDeskApi.list, {}))
  const asked = new URL(request.url).searchParams.get('disable')?.toLowerCase()
  const confirm = staff.find((s) => s.email === asked && s.email !== email && s.status !== 'disabled')?.email ?? null
  return { staff, me: email, confirm }
}

const confirmPage = (email: string) => `/ops/staff?${new URLSearchParams({ disable: email })}`

/** The set-up link to hand over: absolute only with PUBLIC_URL (the request's Host is not trusted), else the path. */
const setupLink = (token: string) => {
  const path = `/ops/setup/${token}`
  const origin = getWebEnv().PUBLIC_URL
  return origin ? new URL(path, origin).toString() : path
}

type SetupReply = { setup: { email: string; link: string; expiresAt: number; why: 'invited' | 'reset' } }

const roleField = z.enum(STAFF_ROLES, { errorMap: () => ({ message: 'Choose a role: reviewer, payouts or admin' }) })

/** The desk's forms, one `intent` each. A disable without the confirm step's `confirmed` is asked again. */
const staffDeskForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('invite'), email: emailField, role: roleField }).strict(),
  z.object({ intent: z.literal('role'), email: emailField, role: roleField }).strict(),
  z.object({ intent: z.literal('reset'), email: emailField }).strict(),
  z.object({ intent: z.literal('confirm'), email: emailField }).strict(),
  z.object({ intent: z.literal('disable'), email: emailField, confirmed: z.literal('yes').optional() }).strict(),
])

/** Invite, change role, disable, reset. An invite or reset answers the set-up link once, on this page, never in a URL. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context)
  const form = await readDeskForm(context, request, staffDeskForm, 'Choose Invite, Change, Confirm, Reset or Disable')
  if (!form.ok) return badInput(form.problem, form.raw.intent === 'invite' ? 'invite' : `row:${(form.raw.email ?? '').toLowerCase()}`)
  const move = form.value
  const { email } = move
  if (move.intent === 'invite' || move.intent === 'reset') {
    const result =
      move.intent === 'invite'
        ? await staffFlow(request, context, staffDeskApi.invite, { email, role: move.role })
        : await staffFlow(request, context, staffDeskApi.reset, { email })
    if (!result.success) return badInput(result.msg, move.intent === 'invite' ? 'invite' : `row:${email}`)
    const { staff, setupToken, setupExpiresAt } = result.data
    return data<SetupReply>(
      {
        setup: {
          email: staff.email,
          link: setupLink(setupToken),
          expiresAt: setupExpiresAt,
          why: move.intent === 'invite' ? 'invited' : 'reset',
        },
      },
      { headers: { 'Cache-Control': 'no-store' } },
    )
  }
  if (move.intent === 'confirm') {
    return deskMove(request, context, {
      endpoint: staffDeskApi.confirm,
      input: { email },
      form: `row:${email}`,
      to: '/ops/staff',
      done: (s) => `${s.email} is a confirmed admin: they may approve now`,
    })
  }
  if (move.intent === 'role') {
    return deskMove(request, context, {
      endpoint: staffDeskApi.role,
      input: { email, role: move.role },
      form: `row:${email}`,
      to: '/ops/staff',
      done: (s) => `${s.email} is now ${roleNames[s.role]}`,
    })
  }
  // A disable that was not confirmed (a stale or hand-made form) is asked again, never done.
  if (move.confirmed !== 'yes') return redirect(confirmPage(email))
  return deskMove(request, context, {
    endpoint: staffDeskApi.disable,
    input: { email },
    form: `row:${email}`,
    to: '/ops/staff',
    done: (s) => `${s.email} is disabled and signed out`,
  })
}

export default function StaffDesk() {
  const { staff, me, confirm } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as DeskReply | SetupReply | undefined
  const busy = useNavigation().state === 'submitting'
  const error = reply && 'error' in reply ? reply : undefined
  return (
    <OpsPage title="Staff">
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
      <StaffTable staff={staff} me={me} confirm={confirm} busy={busy} />
    </OpsPage>
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

function StaffTable({ staff, me, confirm, busy }: { staff: StaffMember[]; me: string; confirm: string | null; busy: boolean }) {
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
                <Confirmation s={s} me={me} busy={busy} />
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
                  <div className="ops-form">
                    <Form method="post" aria-label={`Reset ${s.email}`}>
                      <input type="hidden" name="email" value={s.email} />
                      <button type="submit" name="intent" value="reset" className="ops-button" disabled={busy}>
                        Reset
                      </button>
                    </Form>
                    {s.status !== 'disabled' ? <DisableStep email={s.email} asked={confirm === s.email} busy={busy} /> : null}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/**
 * An admin account approves nothing until another admin confirms it (decision 041): not its
 * inviter, nor whoever reset it or made it admin (the api says so when asked).
 */
function Confirmation({ s, me, busy }: { s: StaffMember; me: string; busy: boolean }) {
  if (s.role !== 'admin' || s.status !== 'active' || s.locked) return null
  if (s.confirmedBy) return <span className="ops-muted ops-sub">Confirmed by {s.confirmedBy.replace(/^staff:/, '')}</span>
  if (s.email === me) return <span className="ops-muted ops-sub">Not confirmed: another admin must confirm you</span>
  if (s.createdBy === `staff:${me}`) return <span className="ops-muted ops-sub">Not confirmed: you invited them, another admin must</span>
  return (
    <Form method="post" className="ops-form ops-form--row" aria-label={`Confirm ${s.email}`}>
      <input type="hidden" name="email" value={s.email} />
      <span className="ops-muted">Not confirmed</span>
      <button type="submit" name="intent" value="confirm" className="ops-button" disabled={busy}>
        Confirm
      </button>
    </Form>
  )
}

/**
 * Disable asks first. Without JavaScript its button opens the confirm step as a page of its own
 * (`?disable=`); with JavaScript the same step opens in the row. Only the step's own form disables.
 */
function DisableStep({ email, asked, busy }: { email: string; asked: boolean; busy: boolean }) {
  const [open, setOpen] = useState(false)
  const confirmButton = useRef<HTMLButtonElement>(null)
  // Opened in the row: the keyboard lands on the question's answer.
  useEffect(() => {
    if (open) confirmButton.current?.focus()
  }, [open])
  if (!asked && !open) {
    return (
      <Form
        method="get"
        aria-label={`Disable ${email}`}
        onSubmit={(event) => {
          event.preventDefault()
          setOpen(true)
        }}
      >
        <input type="hidden" name="disable" value={email} />
        <button type="submit" className="ops-button ops-button--danger" disabled={busy}>
          Disable
        </button>
      </Form>
    )
  }
  const question = `disable-question-${email}`
  return (
    <div className="ops-confirm" role="group" aria-labelledby={question}>
      <p id={question}>Disable {email}? They are signed out at once.</p>
      <Form method="post" action="/ops/staff" className="ops-form ops-form--row">
        <input type="hidden" name="intent" value="disable" />
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="confirmed" value="yes" />
        <button ref={confirmButton} type="submit" className="ops-button ops-button--danger" disabled={busy}>
          Disable
        </button>
        <Link
          to="/ops/staff"
          className="ops-button ops-button--ghost"
          onClick={(event) => {
            if (!open) return
            event.preventDefault()
            setOpen(false)
          }}
        >
          Cancel
        </Link>
      </Form>
    </div>
  )
}

export function ErrorBoundary() {
  return <DeskErrorBoundary />
}
