import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { formatMoney } from '#contract/money'
import type { OrderSummary } from '#contract/orders'
import { Avatar } from '~/components/avatar'
import { ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon, type IconName } from '~/components/icon'
import { Link } from '~/components/link'
import { List } from '~/components/list-row'
import { Money } from '~/components/money'
import { OrderRow } from '~/components/order-status'
import { RateChecker } from '~/components/rate-checker'
import { RateRow } from '~/components/rate-row'
import { Screen } from '~/components/screen'
import { RewardsSection } from '~/components/task-list'
import homeStyles from '~/styles/screens/home.css?url'
import { homePage } from '~/upstream/profile.server'
import { useLastSeenBalance } from '~/utils/last-seen'
import { greetingMessages as G, walletMessages as W } from '~/utils/messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { useOptionalUser, usePublicEnv, useSignedIn, useWelcome, type User } from '~/utils/user'

// One stylesheet: home.css bundles the components Home draws (the task list's among them).
export const handle = stylesheetHandle(homeStyles)
export const links = stylesheetLinks(handle)

/**
 * A signed-in person's balance, for the card near the top, and the featured cards to sell, one
 * line a brand (theirs come with their user info; a visitor's from the public catalogue's
 * featured list). The rate checker loads the whole catalogue itself once the page is up.
 * Home is public: a wallet or a catalogue the api cannot give right now leaves its part out
 * rather than the page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return await homePage(request, context)
}

/** What Cardlane promises, in the words a seller cares about (the competitors' failures, fixed). */
const PROMISES: { icon: IconName; title: string; text: string }[] = [
  { icon: 'lock', title: 'Your rate is locked', text: 'The rate you are quoted when you submit is the rate we review your card at.' },
  { icon: 'info', title: 'Every decision explained', text: 'If a card is paid less or rejected, you see exactly why, on the order.' },
  { icon: 'wallet', title: 'Your money stays yours', text: 'Payouts land in your wallet. Withdraw to your bank whenever you like.' },
]

const STEPS = ['Tell us the card and its value', 'Submit the code or a photo', 'Get paid to your wallet, then withdraw']

export default function HomeScreen() {
  const user = useOptionalUser()
  const signedIn = useSignedIn()
  const brand = usePublicEnv().brandName
  const { featured, openOrders, tasks } = useLoaderData<typeof loader>()
  const wallet = user?.wallet ?? null
  return (
    <Screen title={brand}>
      {user ? (
        <>
          <Greeting user={user} />
          {wallet ? <BalanceCard {...wallet} /> : null}
        </>
      ) : signedIn ? (
        // Signed in, but the api cannot say who: the public parts, and no "Sign in" to confuse.
        <div className="cl-callout cl-callout--warning">
          <Icon name="alert-triangle" size={20} className="cl-callout__icon" />
          <p className="cl-callout__body">{G.unreachable}</p>
        </div>
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

      {user && openOrders ? <OpenOrders {...openOrders} /> : null}

      {user ? <RewardsSection tasks={tasks} id="home-rewards" /> : null}

      {!signedIn && featured && featured.length > 0 ? (
        <section className="cl-section" aria-label="Check a rate">
          <Card>
            <RateChecker choices={featured.map(({ brandId, name }) => ({ brandId, name }))} />
          </Card>
        </section>
      ) : null}

      {featured && featured.length > 0 ? (
        <section className="cl-section" aria-labelledby="home-featured">
          <div className="cl-inline cl-inline--between">
            <h2 id="home-featured" className="cl-section__title">
              Sell a gift card
            </h2>
            {user ? (
              <Link to="/trading-plaza" className="cl-link cl-link--touch">
                All rates
              </Link>
            ) : null}
          </div>
          <Card flush>
            <ul className="cl-featured">
              {featured.map((card) => (
                <li key={card.brandId} className="cl-featured__item">
                  <RateRow card={card} />
                </li>
              ))}
            </ul>
          </Card>
        </section>
      ) : null}

      {user ? null : <Pitch brand={brand} />}

      <p className="cl-home__links">
        <Link to="/download">Get the app</Link> · <Link to="/user/privacy">Privacy Policy</Link>
      </p>
    </Screen>
  )
}

/** Why to sell here and how: for visitors only (a signed-in person has seen it and wants their things). */
function Pitch({ brand }: { brand: string }) {
  return (
    <>
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
    </>
  )
}

/**
 * Orders still waiting for a decision, newest first (they come with the user index: no extra
 * call). A lower offer waiting for the person's answer is called out: it needs them.
 */
function OpenOrders({ count, latest }: { count: number; latest: OrderSummary[] }) {
  if (count === 0) return null
  const offers = latest.filter((o) => o.status === 'proposed').length
  return (
    <section className="cl-section" aria-labelledby="home-open">
      <div className="cl-inline cl-inline--between">
        <h2 id="home-open" className="cl-section__title">
          Your open orders
        </h2>
        {count > latest.length ? (
          <Link to="/history" className="cl-link cl-link--touch">
            All {count}
          </Link>
        ) : null}
      </div>
      {offers > 0 ? (
        <div className="cl-callout cl-callout--warning">
          <Icon name="alert-triangle" size={20} className="cl-callout__icon" />
          <p className="cl-callout__body">
            {offers === 1 ? 'An offer is waiting for your answer.' : `${offers} offers are waiting for your answer.`}
          </p>
        </div>
      ) : null}
      <Card flush>
        <List label="Your open orders">
          {latest.map((o) => (
            <OrderRow key={o.id} order={o} />
          ))}
        </List>
      </Card>
    </section>
  )
}

/** A new person is welcomed and asked for a nickname; someone coming back is greeted again. */
function Greeting({ user }: { user: User }) {
  const welcome = useWelcome()
  const brand = usePublicEnv().brandName
  return (
    <Card className="cl-greeting">
      <Avatar src={user.headImg} name={user.userName} size={48} />
      <div>
        <p className="cl-greeting__hello">{welcome ? G.newHello(brand) : G.hello(user.userName)}</p>
        <p className="cl-greeting__sub">{welcome ? G.newSub : G.sub}</p>
      </div>
      {welcome ? (
        <Link to="/edit-profile" className="cl-greeting__link" aria-label="Choose your nickname">
          <Icon name="chevron-right" />
        </Link>
      ) : (
        <Link to="/account" className="cl-greeting__link" aria-label="Your account">
          <Icon name="chevron-right" />
        </Link>
      )}
    </Card>
  )
}

/** Available and on hold, the whole card a way into the wallet. */
function BalanceCard({ balance, frozen, currency }: { balance: number; frozen: number; currency: string }) {
  useLastSeenBalance(formatMoney(balance, currency))
  return (
    <Card tone="brand" className="cl-balance cl-balance--link">
      <p className="cl-figure__label">{W.available}</p>
      <Money amount={balance} currency={currency} size="hero" className="cl-balance__amount" />
      <p className="cl-balance__hold-line cl-balance__hold-line--home">
        <span>{W.onHold}</span>
        <Money amount={frozen} currency={currency} />
      </p>
      <Link to="/wallet" className="cl-balance__open">
        Open wallet <Icon name="chevron-right" size={20} />
      </Link>
    </Card>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
