import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData } from '@remix-run/react'
import { z } from 'zod'
import { NICKNAME_MAX, userNameField } from '#contract/profile'
import { ActionToast } from '~/components/action-toast'
import { Avatar } from '~/components/avatar'
import { Button } from '~/components/button'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Field, FormError } from '~/components/forms'
import { Screen } from '~/components/screen'
import profileStyles from '~/styles/screens/profile.css'
import { updateProfileFlow } from '~/upstream/profile.server'
import { requireToken } from '~/utils/auth.server'
import { formRefusal, readForm } from '~/utils/form.server'
import { useSchemaForm, usePendingIntent } from '~/utils/forms'
import { flowMessage, successMessages } from '~/utils/messages'
import { redirectWithToast } from '~/utils/toast.server'
import { useUser } from '~/utils/user'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: profileStyles }]

const profileSchema = z.object({ userName: userNameField })

/** Only the guard: the person comes from the root's one /v1/user/index call (useUser). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireToken(request)
  return null
}

export async function action({ request }: ActionFunctionArgs) {
  await requireToken(request)
  const submission = parseWithZod(await readForm(request), { schema: profileSchema })
  if (submission.status !== 'success') return formRefusal(submission, {})
  const result = await updateProfileFlow(request, submission.value)
  if (!result.success) return formRefusal(submission, {}, flowMessage(result))
  // Back to Account: the root loader fetches the user info again (SPEC §4).
  return redirectWithToast(request, '/account', { type: 'success', message: successMessages.profileUpdated })
}

export default function EditProfileScreen() {
  const user = useUser()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSchemaForm(profileSchema, {
    id: 'edit-profile',
    lastResult: actionData?.result,
    defaultValue: { userName: user.userName },
  })
  return (
    <Screen title="Edit Profile" backTo="/account">
      <ActionToast toast={actionData?.toast} />
      <div className="cl-profile cl-profile--stacked">
        <Avatar src={user.headImg} name={user.userName} size={88} />
        <p className="cl-profile__email">{user.email}</p>
      </div>
      <Form method="post" className="cl-form" {...getFormProps(form)}>
        <Field
          label="Nickname"
          inputProps={{ ...getInputProps(fields.userName, { type: 'text' }), autoComplete: 'nickname', maxLength: NICKNAME_MAX }}
          errors={fields.userName.errors}
          help={`What people see on your trades. Up to ${NICKNAME_MAX} characters.`}
        />
        <FormError errors={form.errors} id={form.errorId} />
        <Button type="submit" variant="primary" block pending={usePendingIntent()}>
          Save
        </Button>
      </Form>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
