// Privacy Policy (SPEC §2, public). A complete policy written for what the product actually does:
// the data each feature needs, why, how long it is kept, how it is protected and who else sees it.
// Plain language, short sections with a table of contents, readable on a phone.
import type { ReactNode } from 'react'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Link } from '~/components/link'
import { Screen } from '~/components/screen'
import privacyStyles from '~/styles/screens/privacy.css?url'
import { FINANCIAL_RECORDS_YEARS } from '~/utils/messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { usePublicEnv } from '~/utils/user'

export const handle = stylesheetHandle(privacyStyles)
export const links = stylesheetLinks(handle)

const EFFECTIVE_DATE = '22 November 2026'

const sections = [
  { id: 'who-we-are', title: 'Who we are' },
  { id: 'what-we-collect', title: 'What we collect' },
  { id: 'why', title: 'Why we use it' },
  { id: 'retention', title: 'How long we keep it' },
  { id: 'deleting', title: 'Deleting your account' },
  { id: 'security', title: 'How we protect it' },
  { id: 'sharing', title: 'Who we share it with' },
  { id: 'transfers', title: 'Where it is processed' },
  { id: 'rights', title: 'Your rights and choices' },
  { id: 'children', title: 'Children' },
  { id: 'changes', title: 'Changes to this policy' },
  { id: 'contact', title: 'Contact us' },
] as const

type SectionId = (typeof sections)[number]['id']

function Section({ id, children }: { id: SectionId; children: ReactNode }) {
  const title = sections.find((s) => s.id === id)?.title
  return (
    <section aria-labelledby={id} className="cl-prose">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  )
}

export default function Privacy() {
  const { brandName: brand, supportEmail } = usePublicEnv()
  const contact = supportEmail ? <a href={`mailto:${supportEmail}`}>{supportEmail}</a> : <>the chat button at the bottom of the screen</>

  return (
    <Screen backTo="/">
      <div className="cl-page-hero">
        <h2 className="cl-title">How {brand} handles your data</h2>
        <p className="cl-lead">
          Effective <time dateTime="2026-11-22">{EFFECTIVE_DATE}</time>
        </p>
      </div>

      <Card title="The short version">
        <ul className="cl-bullets">
          <li>We collect what we need to buy your gift cards and pay you: your account, the cards you sell and where to send the money.</li>
          <li>Passwords and withdrawal PINs are stored only as one-way hashes, and everything travels encrypted.</li>
          <li>We share data only with the partners who help us pay you and run the service. We never sell it.</li>
          <li>You can see, correct and delete your data, including your whole account.</li>
        </ul>
      </Card>

      <Card title="Contents">
        <nav aria-label="Contents">
          <ol className="cl-toc">
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ol>
        </nav>
      </Card>

      <Section id="who-we-are">
        <p>
          {brand} (“{brand}”, “we”, “us”) runs the {brand} web app, where you can sell gift cards, keep the money in a wallet and withdraw
          it to your bank account. This policy explains what personal data we collect when you use the app, why, and what you can do about
          it. It applies to the app, our e-mails and our customer support.
        </p>
        <p>{brand} is the controller of the personal data described here.</p>
      </Section>

      <Section id="what-we-collect">
        <h3>Data you give us</h3>
        <ul>
          <li>
            <strong>Account:</strong> your e-mail address, the nickname you choose and the avatar picture you upload. Your password is never
            stored as you type it; we keep only a hash of it (see <a href="#security">How we protect it</a>).
          </li>
          <li>
            <strong>Sign-in with Google:</strong> if you choose it, Google tells us your e-mail address and an identifier for your Google
            account. We never see your Google password.
          </li>
          <li>
            <strong>Gift cards you sell:</strong> the brand, country, card type and face value, the card codes, and the photos of cards or
            receipts you submit, together with the order and its status, rate and payout.
          </li>
          <li>
            <strong>Payout details:</strong> the bank, account number and account holder name of the bank accounts you add, and the
            withdrawals you make. Your withdrawal PIN is kept only as a hash.
          </li>
          <li>
            <strong>Messages with us:</strong> what you write to support by e-mail or chat.
          </li>
        </ul>

        <h3>Data created when you use the app</h3>
        <ul>
          <li>
            <strong>Wallet records:</strong> your balance and every entry that changed it (payouts for orders, withdrawals, refunds of
            failed withdrawals, task rewards).
          </li>
          <li>
            <strong>Notifications</strong> we send you in the app, and whether you have read them.
          </li>
          <li>
            <strong>Device and usage data:</strong> when you use the app we record events (pages viewed, signing up or in, orders submitted,
            withdrawals made) with the time, your browser’s user agent, platform, screen resolution, language and time zone, a random
            visitor ID kept in your browser’s storage, and, when you are signed in, your user ID — never your e-mail address. If your
            browser asks for Do Not Track or Global Privacy Control, the app records no usage events at all. Our servers also log IP
            addresses, the pages requested and errors.
          </li>
          <li>
            <strong>Cookies and local storage:</strong> one session cookie keeps you signed in. It is strictly necessary, so it needs no
            consent. Your browser’s local storage holds small settings, such as a note that an event was already recorded. We use no
            advertising or cross-site tracking cookies.
          </li>
        </ul>
      </Section>

      <Section id="why">
        <ul>
          <li>
            <strong>To run your account:</strong> sign-in, password reset by e-mail code, your profile. (Needed to provide the service you
            asked for.)
          </li>
          <li>
            <strong>To buy your gift cards:</strong> checking that a card is valid and unused, redeeming it, working out the payout and
            crediting your wallet. (Needed to provide the service.)
          </li>
          <li>
            <strong>To pay you:</strong> sending withdrawals to the bank account you chose. (Needed to provide the service.)
          </li>
          <li>
            <strong>To keep {brand} safe:</strong> spotting stolen or already-used cards, account takeovers and unusual withdrawals. (Our
            legitimate interest in preventing fraud, and yours.)
          </li>
          <li>
            <strong>To talk to you:</strong> verification codes, order and withdrawal updates, answers to your questions. We do not send
            marketing unless you have agreed to it.
          </li>
          <li>
            <strong>To improve the app:</strong> understanding which screens work and where people get stuck, mostly from aggregated
            figures. (Our legitimate interest.)
          </li>
          <li>
            <strong>To meet legal duties:</strong> accounting, tax and anti-money-laundering rules, and lawful requests from authorities.
            (Legal obligation.)
          </li>
        </ul>
      </Section>

      <Section id="retention">
        <p>We keep personal data only as long as we need it for the purposes above:</p>
        <ul>
          <li>
            <strong>Account data</strong> (e-mail, nickname, avatar): while your account is open. It is erased at once when you delete your
            account (see <a href="#deleting">Deleting your account</a>).
          </li>
          <li>
            <strong>Gift-card codes and images:</strong> while the order is processed and for 12 months after it closes, so we can handle
            disputes and fraud claims from card issuers. Then they are deleted.
          </li>
          <li>
            <strong>Orders, wallet records and withdrawals:</strong> {FINANCIAL_RECORDS_YEARS} years after the transaction, then deleted,
            because financial record-keeping law requires them. This holds even if you delete your account sooner; they are then kept
            without your name, and used for nothing else.
          </li>
          <li>
            <strong>Bank account details:</strong> until you delete your {brand} account. A bank account you remove stays attached to the
            withdrawals made to it until then; deleting your account erases its number and holder name.
          </li>
          <li>
            <strong>Verification codes:</strong> they expire within minutes and are stored only as hashes.
          </li>
          <li>
            <strong>Usage data:</strong> analytics events for up to 24 months, server logs for up to 90 days.
          </li>
          <li>
            <strong>Support conversations:</strong> up to 24 months after the last message.
          </li>
        </ul>
      </Section>

      <Section id="deleting">
        <p>
          You can delete your account yourself in <Link to="/delete-account">Delete account</Link>. You confirm with your password, or with
          a code we e-mail you if your account has no password. First withdraw your balance and let open orders and withdrawals finish: we
          cannot pay money to an account that no longer exists, so the app asks for this before it deletes anything.
        </p>
        <h3>Erased at once</h3>
        <ul>
          <li>Your e-mail address, nickname and profile photo, your password and the link to your Google account.</li>
          <li>Every sign-in on every device, and any e-mail verification code not yet used.</li>
          <li>The account number and holder name of every bank account you saved, and your withdrawal PIN.</li>
          <li>Your notifications, and photos you uploaded that are not part of an order.</li>
          <li>
            The device details and e-mail address recorded with your usage events. Only each event’s name and time stay, in our totals.
          </li>
        </ul>
        <p>Your e-mail address is free again at once: you can sign up with it later, as a new account with nothing of the old one.</p>
        <h3>Kept without your name</h3>
        <p>
          Your orders (with the card details and photos submitted in them), your wallet entries and your withdrawals (amount, bank, status
          and dates), and a note that the account was deleted and when. They keep an internal user ID that no longer leads to you: no name,
          e-mail address or bank account number is attached to them.
        </p>
        <p>
          <strong>
            Retention rule: financial records are kept for {FINANCIAL_RECORDS_YEARS} years after the transaction, then deleted.
          </strong>{' '}
          Card codes and photos go sooner, as set out in <a href="#retention">How long we keep it</a>.
        </p>
        <h3>Gone within days</h3>
        <p>
          Server logs, which may show your user ID and IP address, are deleted within 90 days, and short-lived security counters (such as
          failed sign-ins for an e-mail address) within 24 hours.
        </p>
      </Section>

      <Section id="security">
        <ul>
          <li>
            <strong>Encrypted transport:</strong> all traffic between your device and {brand} uses HTTPS (TLS).
          </li>
          <li>
            <strong>Hashed secrets:</strong> passwords, withdrawal PINs and e-mail verification codes are stored only as salted,
            deliberately slow one-way hashes. Nobody at {brand} can read them, and we will never ask you for them.
          </li>
          <li>
            <strong>Your session</strong> lives in a cookie that scripts on the page cannot read, and it ends when you log out.
          </li>
          <li>
            <strong>Withdrawals</strong> need your withdrawal PIN; after several wrong attempts withdrawals are locked for a while. Bank
            account numbers are shown masked.
          </li>
          <li>
            <strong>Limited access:</strong> only staff who need data for their work can reach it, and access is logged. Secrets never
            appear in our logs.
          </li>
        </ul>
        <p>No system is perfectly secure. If a breach puts your data at risk, we will tell you and the authorities as the law requires.</p>
      </Section>

      <Section id="sharing">
        <p>
          <strong>We do not sell your personal data</strong>, and we do not share it with advertisers. We share only what each of these
          needs:
        </p>
        <ul>
          <li>
            <strong>Payment partners</strong> (banks and payment providers) receive the account holder name, account details and amount of
            each withdrawal, to send you the money.
          </li>
          <li>
            <strong>Gift-card partners</strong> that check and redeem cards receive the card details and images, not your contact details.
          </li>
          <li>
            <strong>Service providers</strong> that host the app, deliver our e-mails and, if you open it, run the support chat. They
            process data only on our instructions and under contract.
          </li>
          <li>
            <strong>Google</strong>, only if you choose to sign in with Google.
          </li>
          <li>
            <strong>Authorities</strong>, when the law requires it or to prevent fraud and protect our users’ rights.
          </li>
          <li>
            <strong>A buyer or successor</strong>, if {brand} is merged or sold; this policy keeps applying to your data.
          </li>
        </ul>
      </Section>

      <Section id="transfers">
        <p>
          Some of our service providers may process data in other countries. When data leaves the country where it was collected, we use
          legal safeguards such as standard contractual clauses, so it stays protected to the same standard.
        </p>
      </Section>

      <Section id="rights">
        <p>Depending on where you live, you have the right to:</p>
        <ul>
          <li>
            <strong>See</strong> the personal data we hold about you and get a copy.
          </li>
          <li>
            <strong>Correct</strong> it. You can change your nickname and avatar yourself in <Link to="/edit-profile">Edit profile</Link>.
          </li>
          <li>
            <strong>Delete</strong> it. Delete your account yourself in <Link to="/delete-account">Delete account</Link>, or ask us. What is
            erased and what the law makes us keep is set out in <a href="#deleting">Deleting your account</a>.
          </li>
          <li>
            <strong>Take it with you</strong> in a machine-readable format.
          </li>
          <li>
            <strong>Object to or limit</strong> uses based on our legitimate interests, and withdraw any consent you gave.
          </li>
          <li>
            <strong>Complain</strong> to your data-protection authority. We would appreciate the chance to help first.
          </li>
        </ul>
        <p>Contact us to use any of these rights. We answer within 30 days and may ask you to confirm it is you.</p>
      </Section>

      <Section id="children">
        <p>
          {brand} is for people aged 18 and over. We do not knowingly collect data from children; if we learn that we have, we delete it.
        </p>
      </Section>

      <Section id="changes">
        <p>
          When we change this policy we publish the new version here with a new effective date. If a change matters to you, we tell you in
          the app before it takes effect.
        </p>
      </Section>

      <Section id="contact">
        <p>
          Questions about privacy, or a request about your data: write to {contact}. Please do not include passwords, PINs or full card
          codes in your message.
        </p>
        <p className="cl-muted">
          Effective <time dateTime="2026-11-22">{EFFECTIVE_DATE}</time>.
        </p>
      </Section>
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
