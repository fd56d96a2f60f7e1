// Approve and Decline of a request waiting for a second admin (maker-checker, decision 041), the
// same on every desk that has them: only an admin who did not ask sees the buttons (the api refuses
// the maker, and any other checker it must, anyway).
import { Form } from '@remix-run/react'

export function DecideForm({ id, maker, me, label, busy }: { id: string; maker: string; me: string; label: string; busy: boolean }) {
  if (maker === `staff:${me}`) return <span className="ops-muted">Another admin must approve</span>
  return (
    <Form method="post" className="ops-form" aria-label={label}>
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value="approve" className="ops-button ops-button--primary" disabled={busy}>
        Approve
      </button>
      <button type="submit" name="intent" value="decline" className="ops-button ops-button--danger" disabled={busy}>
        Decline
      </button>
    </Form>
  )
}
