import { Link, useRouteLoaderData } from '@remix-run/react'
import { Avatar } from '~/components/avatar'
import { ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { Icon, type IconName } from '~/components/icon'
import { Screen } from '~/components/screen'
import type { loader as rootLoader } from '~/root'

/** What Cardlane promises, in the words a seller cares about (the competitors' failures, fixed). */
const PROMISES: { icon: IconName; title: string; text: string }[] = [
  { icon: 'lock', title: 'Your rate is locked', text: 'The rate you are quoted when you submit is the rate we review your card at.' },
  { icon: 'info', title: 'Every decision explained', text: 'If a card is paid less or rejected, you see exactly why, on the order.' },
  { icon: 'wallet', title: 'Your money stays yours', text: 'Payouts land in your wallet. Withdraw to your bank whenever you like.' },
]

const STEPS = ['Tell us the card and its value', 'Submit the code or a photo', 'Get paid to your wallet, then withdraw']

export default function HomeScreen() {
  const root = useRouteLoaderData<typeof rootLoader>('root')
  const user = root?.user
  const brand = root?.env.brandName ?? 'Cardlane'
  return (
    <Screen title={brand} tabs>
      {user ? (
        <Card className="cl-greeting">
          <Avatar src={user.headImg} name={user.userName} size={48} />
          <div>
            <p className="cl-greeting__hello">Hi, {user.userName}</p>
            <p className="cl-greeting__sub">Good to see you again.</p>
          </div>
          <Link to="/account" className="cl-greeting__link" aria-label="Your account">
            <Icon name="chevron-right" />
          </Link>
        </Card>
      ) : (
        <section className="cl-hero">
          <h2 className="cl-hero__title">Sell gift cards for money, at the rate you see.</h2>
          <p className="cl-hero__text">Clear rates, reasons for every decision, and a wallet you can withdraw from any time.</p>
          <div className="cl-hero__actions">
            <ButtonLink to="/register" variant="primary" block>
              Create a free account
            </ButtonLink>
            <ButtonLink to="/login" variant="secondary" block>
              Sign in
            </ButtonLink>
          </div>
        </section>
      )}

      <section className="cl-section" aria-labelledby="home-promises">
        <h2 id="home-promises" className="cl-section__title">
          Why sellers choose {brand}
        </h2>
        <ul className="cl-promises">
          {PROMISES.map((p) => (
            <li key={p.title} className="cl-promise">
              <span className="cl-promise__icon" aria-hidden="true">
                <Icon name={p.icon} />
              </span>
              <div>
                <h3 className="cl-promise__title">{p.title}</h3>
                <p className="cl-promise__text">{p.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section className="cl-section" aria-labelledby="home-how">
        <h2 id="home-how" className="cl-section__title">
          How it works
        </h2>
        <Card>
          <ol className="cl-how">
            {STEPS.map((step, i) => (
              <li key={step} className="cl-how__step">
                <span className="cl-how__num" aria-hidden="true">
                  {i + 1}
                </span>
                {step}
              </li>
            ))}
          </ol>
        </Card>
      </section>

      <p className="cl-home__links">
        <Link to="/download">Get the app</Link> · <Link to="/user/privacy">Privacy Policy</Link>
      </p>
    </Screen>
  )
}
