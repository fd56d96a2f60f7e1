import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { Avatar } from '~/components/avatar'
import { Button } from '~/components/button'
import { Card } from '~/components/card'
import { ListRow } from '~/components/list-row'
import { Screen } from '~/components/screen'
import { requireUser } from '~/utils/auth.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  return json({ user })
}

export default function AccountScreen() {
  const { user } = useLoaderData<typeof loader>()
  return (
    <Screen title="Account" tabs>
      <Card className="cl-profile">
        <Avatar src={user.headImg} name={user.userName} size={72} />
        <div className="cl-profile__text">
          <h2 className="cl-profile__name">{user.userName}</h2>
          <p className="cl-profile__email">{user.email}</p>
        </div>
      </Card>

      <section className="cl-section" aria-labelledby="account-profile">
        <h2 id="account-profile" className="cl-section__title">
          Profile
        </h2>
        <Card flush>
          <ListRow to="/edit-profile" icon="edit" label="Edit profile" value={user.userName} />
        </Card>
      </section>

      <section className="cl-section" aria-labelledby="account-about">
        <h2 id="account-about" className="cl-section__title">
          About
        </h2>
        <Card flush>
          <ListRow to="/user/privacy" icon="shield" label="Privacy Policy" />
          <ListRow to="/download" icon="download" label="Download app" />
        </Card>
      </section>

      <Form method="post" action="/logout" reloadDocument className="cl-section">
        <Button type="submit" variant="secondary" block>
          Sign out
        </Button>
      </Form>
    </Screen>
  )
}
