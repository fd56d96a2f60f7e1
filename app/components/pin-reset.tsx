// Change PIN's "Forgot PIN?" steps (?mode=reset): an e-mail code to the person's own address, then
// a new PIN with it. A module of its own, which the route loads when the steps are shown: a first
// visit to change the PIN does not load the e-mail code steps.
import { Link } from '~/components/link'
import type { CodeStepReply } from '~/utils/email-code'
import { walletMessages as W } from '~/utils/messages'
import { useUser } from '~/utils/user'
import { SendCodeForm, VerifyStepForm } from './code-steps'
import { Icon } from './icon'
import { NewPinFields } from './pin-fields'

export default function ResetPin({ reply, redirectTo }: { reply?: CodeStepReply; redirectTo: string }) {
  const user = useUser()
  const hidden = <input type="hidden" name="redirectTo" value={redirectTo} />
  return (
    <>
      <header className="cl-formhead">
        <h2 className="cl-formhead__title">Forgot your PIN?</h2>
        <p className="cl-formhead__lead">Set a new one with a code we e-mail you.</p>
      </header>
      <div className="cl-callout cl-callout--warning">
        <Icon name="clock" size={20} className="cl-callout__icon" />
        <p className="cl-callout__body">{W.resetWait}</p>
      </div>
      {reply?.step === 'verify' ? (
        <VerifyStepForm
          id="reset-pin"
          schema={() => import('~/utils/pin-schemas').then((m) => m.resetPinForm)}
          reply={reply}
          email={user.email}
          ownAddress
          intent="reset"
          submitLabel="Set new PIN"
          hidden={hidden}
        >
          {(fields, r) => <NewPinFields fields={fields} reply={r} />}
        </VerifyStepForm>
      ) : (
        <SendCodeForm
          id="reset-pin-send"
          reply={reply}
          help="Get a 6-digit code by e-mail."
          submitLabel="Send code"
          ownAddress={user.email}
          hidden={hidden}
        />
      )}
      <p className="cl-center">
        <Link to={redirectTo ? `/change-pin?${new URLSearchParams({ redirectTo })}` : '/change-pin'} className="cl-link cl-link--touch">
          I remember my PIN
        </Link>
      </p>
    </>
  )
}
