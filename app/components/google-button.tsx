import { Form } from '@remix-run/react'
// Google's mark is an image file of its own, out of the icon set every screen loads.
import googleMark from './google-mark.svg?url'

/**
 * "or Continue with Google" under a sign-in form: a plain POST to /auth/google, which redirects
 * to Google. reloadDocument, because the answer is a redirect to another site.
 */
export function GoogleSignIn({ redirectTo }: { redirectTo?: string }) {
  return (
    <>
      <div className="cl-divider" role="separator">
        <span>or</span>
      </div>
      <Form method="post" action="/auth/google" reloadDocument>
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <button type="submit" className="cl-button cl-button--secondary cl-button--block cl-google">
          <img src={googleMark} alt="" width={20} height={20} className="cl-icon" />
          <span>Continue with Google</span>
        </button>
      </Form>
    </>
  )
}
