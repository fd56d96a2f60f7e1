// The operator console's frame: a bar with who is signed in and Sign out, the desks this role may
// use, and the page. Desktop first (a side navigation); on a phone the navigation becomes a row.
import type { MetaFunction } from '@remix-run/node'
import { Form, NavLink, useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import type { StaffRole } from '#contract/endpoint'
import { OPS_BRAND, opsNav, opsTitle } from '~/ops/desks'
import type { Paging } from '~/utils/paging'
import { Link } from '../components/link'
import { Toaster, type ToastData } from '../components/toaster'

/** Every console page's <title>, from the console's route table. */
export const opsMeta: MetaFunction = ({ location }) => [{ title: opsTitle(location.pathname) }, { name: 'robots', content: 'noindex' }]

const roleNames: Record<StaffRole, string> = { reviewer: 'Reviewer', payouts: 'Payouts', admin: 'Admin' }

export function OpsShell({
  staff,
  toast,
  children,
}: {
  staff: { email: string; role: StaffRole }
  toast: ToastData | null
  children: ReactNode
}) {
  const location = useLocation()
  return (
    <div className="ops">
      <a className="ops-skip" href="#ops-main">
        Skip to the page
      </a>
      <Toaster toast={toast} />
      <header className="ops-bar">
        <span className="ops-bar__brand">{OPS_BRAND}</span>
        <span className="ops-bar__who">
          <span className="ops-bar__email">{staff.email}</span>
          <span className={`ops-role ops-role--${staff.role}`}>{roleNames[staff.role]}</span>
        </span>
        <Form method="post" action="/ops/logout" reloadDocument>
          <button type="submit" className="ops-button ops-button--ghost">
            Sign out
          </button>
        </Form>
      </header>
      <nav className="ops-nav" aria-label="Desks">
        <ul>
          {opsNav(staff.role).map((r) => (
            <li key={r.path}>
              <NavLink to={r.path} end={r.path === '/ops'} prefetch="intent">
                {r.nav}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="ops-main" className="ops-main" key={location.pathname.split('/')[2] ?? ''}>
        {children}
      </main>
    </div>
  )
}

/** A console page: its heading (the table's title unless given), actions on the right, content. */
export function OpsPage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <>
      <div className="ops-page__head">
        <h1 className="ops-page__title">{title}</h1>
        {actions ? <div className="ops-page__actions">{actions}</div> : null}
      </div>
      {children}
    </>
  )
}

/** The sign-in and set-up pages: a card in the middle, no navigation. */
export function OpsCard({ title, toast, children }: { title: string; toast: ToastData | null; children: ReactNode }) {
  return (
    <div className="ops ops--card">
      <Toaster toast={toast} />
      <main className="ops-card">
        <p className="ops-bar__brand">{OPS_BRAND}</p>
        <h1 className="ops-page__title">{title}</h1>
        {children}
      </main>
    </div>
  )
}

/** Previous and Next as plain links (they keep the desk's filters), and where this page sits: "51–100 of 230". */
export function Pager({ paging, label }: { paging: Paging; label: string }) {
  return (
    <nav className="ops-pager" aria-label={label}>
      {paging.previous ? (
        <Link to={paging.previous} rel="prev" className="ops-button ops-button--ghost">
          Previous
        </Link>
      ) : null}
      <span className="ops-pager__where">{paging.label}</span>
      {paging.next ? (
        <Link to={paging.next} rel="next" className="ops-button ops-button--ghost">
          Next
        </Link>
      ) : null}
    </nav>
  )
}

/** A desk's table: its caption for screen readers, the column heads (`num` right-aligns figures), and the rows. */
export function DeskTable({
  caption,
  columns,
  children,
}: {
  caption: string
  columns: (string | { label: string; num: true })[]
  children: ReactNode
}) {
  return (
    <div className="ops-table-wrap">
      <table className="ops-table">
        <caption className="cl-visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th key={c} scope="col">
                  {c}
                </th>
              ) : (
                <th key={c.label} scope="col" className="ops-num">
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}
