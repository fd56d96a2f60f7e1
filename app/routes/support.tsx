// Help & Support (public; beyond SPEC §2's list: where the chat button leads without a chat
// provider, SPEC §1 "customer-chat widget"). The support e-mail, and answers to what people ask
// most, as <details> that open without JavaScript. The numbers are the installation's own: the
// withdrawal settings from the api (the ones the Withdraw screen applies), review times from the
// catalogue, the PIN rules and the payout rule from the contract. When the api cannot be reached
// the page still answers, without today's numbers: help must work when something is broken.
import { type LoaderFunctionArgs, type SerializeFrom } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { formatMoney } from '#contract/money'
import { PIN_LOCK_MINUTES, PIN_MAX_TRIES, PIN_RESET_WAIT_HOURS } from '#contract/pin-rules'
import { payoutFor } from '#contract/rates'
import { REJECTION_REASONS } from '#contract/rejection-reasons'
import { ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon } from '~/components/icon'
import { Link } from '~/components/link'
import { InfoList, InfoRow } from '~/components/list-row'
import { zoneName } from '~/components/money'
import { Screen } from '~/components/screen'
import supportStyles from '~/styles/screens/support.css?url'
import { giftCardListFlow } from '~/upstream/catalogue.server'
import { conversationListFlow, supportInfoFlow } from '~/upstream/support.server'
import { getToken } from '~/utils/auth.server'
import { getWebEnv } from '~/utils/env.server'
import { supportMessages as M } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { sellerStatus } from '~/utils/support-words'
import { usePublicEnv, useSignedIn } from '~/utils/user'

export const handle = stylesheetHandle(supportStyles)
export const links = stylesheetLinks(handle)

/** The promise of the Home screen, quoted word for word. */
export const RATE_LOCK_PROMISE = 'The rate you are quoted when you submit is the rate we review your card at.'

export async function loader({ request, context }: LoaderFunctionArgs) {
  // Public: no guard. Either call may fail; the page answers without that number. Without a chat
  // provider a signed-in person's conversations with support are listed here (decision 049).
  const inApp = !getWebEnv().CHAT_WIDGET_URL && Boolean(await getToken(request))
  const [info, catalogue, conversations] = await Promise.all([
    supportInfoFlow(request, context),
    giftCardListFlow(request, context),
    inApp ? conversationListFlow(request, context) : null,
  ])
  const etas = catalogue.success ? catalogue.data.map((brand) => brand.etaMinutes).filter((m) => m > 0) : []
  return {
    info: info.success ? info.data : null,
    review: etas.length ? { fastest: Math.min(...etas), slowest: Math.max(...etas) } : null,
    conversations: conversations?.success ? conversations.data.list : null,
  }
}

/** "45 minutes", "2 hours", "1 hour 30 minutes". */
function duration(minutes: number): string {
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  const hours = h ? `${h} ${h === 1 ? 'hour' : 'hours'}` : ''
  const mins = m ? `${m} ${m === 1 ? 'minute' : 'minutes'}` : ''
  return [hours, mins].filter(Boolean).join(' ') || '0 minutes'
}

function Question({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <details className="cl-faq" id={id}>
      <summary className="cl-faq__question">
        <span>{title}</span>
        <Icon name="chevron-right" size={20} className="cl-faq__chevron" />
      </summary>
      <div className="cl-faq__answer">{children}</div>
    </details>
  )
}

export default function SupportScreen() {
  const { brandName: brand, supportEmail, chatWidgetUrl } = usePublicEnv()
  const { info, review, conversations } = useLoaderData<typeof loader>()
  const currency = info?.currency ?? 'NGN'
  const money = (minor: number) => formatMoney(minor, currency)
  // The rule of contract/catalogue.ts on a round example, so the words and the arithmetic agree.
  const example = { faceValue: 10_000, rate: '1450.50', cardCurrency: 'USD' }
  const examplePayout = payoutFor(example.faceValue, example.rate, example.cardCurrency, currency)
  const smallestUnit = currency === 'NGN' ? 'the kobo' : `the smallest unit of ${currency}`

  return (
    <Screen backTo="/">
      <div className="cl-page-hero">
        <span className="cl-icon-tile">
          <Icon name="chat" size={28} />
        </span>
        <h2 className="cl-title">How can we help?</h2>
        <p className="cl-lead">Answers to what people ask most. Still stuck? Write to us: a person reads every message.</p>
      </div>

      {chatWidgetUrl ? null : <Conversations list={conversations} />}

      <Card title="Contact us">
        <div className="cl-stack cl-stack--sm">
          <p className="cl-support-address">{supportEmail}</p>
          <a className="cl-button cl-button--primary cl-button--block" href={`mailto:${supportEmail}`}>
            <span className="cl-button__content">
              <Icon name="mail" size={20} className="cl-button__icon" />
              E-mail us
            </span>
          </a>
          <p className="cl-muted cl-support-tip">
            Tell us your order number or the withdrawal you mean, so we can find it at once. We will never ask for your password, your
            withdrawal PIN or an e-mail code.
          </p>
          {chatWidgetUrl ? (
            <p className="cl-muted cl-support-tip">Or chat with us: tap the chat button at the bottom of the screen.</p>
          ) : null}
        </div>
      </Card>

      <section className="cl-section cl-faqs" aria-labelledby="faq-title">
        <h2 id="faq-title" className="cl-section__title">
          Common questions
        </h2>

        <Question id="rates" title="How are rates set, and how is my payout worked out?">
          <p>
            Every card has its own rate, for its brand, its country and its type (a physical card or an e-code). You see it on the Sell
            screen and on the Trading Plaza before you submit anything.
          </p>
          <blockquote className="cl-rate-lock">
            <Icon name="lock" size={18} />
            <p>{RATE_LOCK_PROMISE}</p>
          </blockquote>
          <p>
            Your payout is the face value times the rate, rounded down to {smallestUnit}, for each card on its own, then added up. For
            example, a US$100.00 card at a rate of 1,450.50 pays <strong>{money(examplePayout)}</strong>.
          </p>
          <p>
            If a card turns out to be worth less than quoted, we ask you first: you accept the lower payout, or decline and the card is not
            redeemed. Every decision comes with its reason.
          </p>
        </Question>

        <Question id="review" title="How long does a review take?">
          <p>
            {review
              ? `Each card shows its review time when you choose it: at the moment between ${duration(review.fastest)} and ${duration(review.slowest)}, depending on the card.`
              : M.reviewUnavailable}
          </p>
          <p>
            Once you submit, the next screen shows your place in the queue and when to expect the answer. Each step appears on the order and
            in your notifications. You can cancel an order while it waits in the queue, until our team starts its review.
          </p>
        </Question>

        <Question id="rejected" title="Why was my card rejected, and what will I see?">
          <p>We reject a card only when we cannot redeem it, and always for one of these reasons:</p>
          <ul className="cl-support-list">
            {Object.values(REJECTION_REASONS).map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
          <p>
            You see the reason on the order, with a note from our team and, where there is one, a photo of what we saw. A notification tells
            you too. Nothing is paid for a rejected card, and nothing is taken from your wallet.
          </p>
        </Question>

        <Question id="withdrawals" title="Withdrawals: the minimum, the fee and the daily maximum">
          {info ? (
            <>
              <InfoList className="cl-support-limits">
                <InfoRow label="Smallest withdrawal (fee included)" value={money(info.withdraw.min)} />
                <InfoRow label="Fee per withdrawal" value={money(info.withdraw.fee)} />
                <InfoRow label="Most in one day" value={money(info.withdraw.dailyMax)} />
                <InfoRow label="In your bank within" value={`${info.withdraw.payoutHours} hours`} />
              </InfoList>
              <p>
                The fee comes out of the amount: withdraw {money(info.withdraw.min)} and{' '}
                {money(Math.max(0, info.withdraw.min - info.withdraw.fee))} reaches your bank. The daily maximum starts again at midnight,{' '}
                {zoneName(info.withdraw.timeZone)}.
              </p>
            </>
          ) : (
            <p>{M.limitsUnavailable}</p>
          )}
          <p>
            You need a withdrawal PIN and a bank account in your own name. If a payout fails, the whole amount comes back to your available
            balance.
          </p>
        </Question>

        <Question id="pin" title="My withdrawal PIN: wrong tries, the lock and Forgot PIN">
          <p>Your PIN is 6 digits. {brand} asks for it to add a bank account and to withdraw, and never by e-mail or chat.</p>
          <p>
            After {PIN_MAX_TRIES} wrong tries, PIN actions are locked for {PIN_LOCK_MINUTES} minutes. The Withdraw screen says how many
            tries are left and when the lock ends.
          </p>
          <p>
            Forgot it? Open <Link to="/change-pin?mode=reset">Forgot PIN?</Link> on the Change Withdrawal PIN screen: we e-mail you a code
            and you choose a new PIN. For your safety, withdrawals then wait {PIN_RESET_WAIT_HOURS} hours.
          </p>
        </Question>

        <Question id="password" title="I forgot my password">
          <p>
            Use <Link to="/forgot-password">Forgot password</Link> on the sign-in screen: we e-mail you a code and you choose a new
            password. You can also sign in with an e-mail code instead.
          </p>
        </Question>
      </section>
    </Screen>
  )
}

/** Without a chat provider: write to us in the app, and the conversations so far. */
function Conversations({ list }: { list: SerializeFrom<typeof loader>['conversations'] }) {
  const signedIn = useSignedIn()
  return (
    <Card title="Write to us in the app">
      <div className="cl-stack cl-stack--sm">
        <p className="cl-muted cl-support-tip">We answer here and tell you in Notifications.</p>
        {list?.length ? (
          <ul className="cl-support-conversations">
            {list.map((c) => (
              <li key={c.id}>
                <Link to={`/support/${encodeURIComponent(c.id)}`} className="cl-link cl-link--touch">
                  {c.subject}
                </Link>{' '}
                <span className="cl-muted">· {sellerStatus[c.status]}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <ButtonLink
          to={signedIn ? '/support/new' : `/login?${new URLSearchParams({ redirectTo: '/support/new' })}`}
          variant="primary"
          icon="chat"
          block
        >
          {signedIn ? 'Write a message' : 'Sign in to write to us'}
        </ButtonLink>
      </div>
    </Card>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
