// Wallet (SPEC §2, login): what is the person's now (available), what is on hold (withdrawals on
// their way, each with the time it is due), and every movement, newest first, paged by links.
// Auto-withdrawal is switched here: on with the PIN, off with one button (plain forms posted to
// /wallet/auto-withdrawal, which answers with a redirect back and a toast).
import { type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import type { AutoWithdrawal } from '#contract/auto-withdrawal'
import { formatMoney } from '#contract/money'
import type { BalanceLogEntry, BalanceLogType } from '#contract/wallet'
import { Button, ButtonLink } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Icon, type IconName } from '~/components/icon'
import { Link } from '~/components/link'
import { Money, When } from '~/components/money'
import { Pager } from '~/components/pager'
import { ActionBar, Screen } from '~/components/screen'
import walletStyles from '~/styles/screens/wallet.css?url'
import { walletPage } from '~/upstream/wallet.server'
import { useLastSeenBalance } from '~/utils/last-seen'
import { balanceLogLabels, withdrawalStatusLabels, walletMessages as W } from '~/utils/messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'

export const handle = stylesheetHandle(walletStyles)
export const links = stylesheetLinks(handle)

const PAGE_SIZE = 20
const MAX_PAGE = 100_000

/** `?page=N` as a page number; anything else is the first page. */
function pageOf(request: Request): number {
  const raw = new URL(request.url).searchParams.get('page') ?? ''
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : 1
  return Math.min(Math.max(n, 1), MAX_PAGE)
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return await walletPage(request, context, { pageNum: pageOf(request), pageSize: PAGE_SIZE })
}

const LOG_ICONS: Record<BalanceLogType, IconName> = {
  order_payout: 'tag',
  withdraw: 'bank',
  withdraw_paid: 'check-circle',
  withdraw_refund: 'refresh',
  withdraw_reversal: 'refresh',
  task_reward: 'gift',
  adjustment: 'edit',
}

export default function WalletScreen() {
  const { info, log, onTheirWay, pinLocked, autoWithdrawal } = useLoaderData<typeof loader>()
  const { currency, limits } = info
  const lastPage = Math.max(1, Math.ceil(log.total / log.pageSize))
  useLastSeenBalance(formatMoney(info.balance, currency))
  return (
    <Screen backTo="/">
      <Card tone="brand" className="cl-balance">
        <p className="cl-figure__label">
          {W.available} · {currency}
        </p>
        <Money amount={info.balance} currency={currency} size="hero" className="cl-balance__amount" />
        <div className="cl-balance__hold">
          <p className="cl-balance__hold-line">
            <span>{W.onHold}</span>
            <Money amount={info.frozen} currency={currency} />
          </p>
          <p className="cl-balance__explain">{W.onHoldExplained}</p>
        </div>
      </Card>

      {!info.hasPin ? (
        <div className="cl-callout cl-callout--warning">
          <Icon name="lock" size={20} className="cl-callout__icon" />
          <div className="cl-callout__body">
            <p className="cl-callout__title">{W.pinMissingTitle}</p>
            <p>{W.pinMissingText}</p>
            <p>
              <Link to="/set-pin?redirectTo=%2Fwallet" className="cl-link cl-link--touch">
                Set PIN
              </Link>
            </p>
          </div>
        </div>
      ) : pinLocked ? (
        <div className="cl-callout cl-callout--warning" role="status">
          <Icon name="lock" size={20} className="cl-callout__icon" />
          <p className="cl-callout__body">{pinLocked}</p>
        </div>
      ) : null}

      {info.hasPin && autoWithdrawal ? <AutoWithdrawalPanel auto={autoWithdrawal} currency={currency} /> : null}

      {onTheirWay.length > 0 ? (
        <section className="cl-section" aria-labelledby="wallet-on-the-way">
          <h2 id="wallet-on-the-way" className="cl-section__title">
            On its way to your bank
          </h2>
          <Card flush>
            <ul className="cl-list">
              {onTheirWay.map((w) => (
                <li key={w.id} className="cl-list__item">
                  <Link to={`/wallet/withdraw/${w.id}`} className="cl-row cl-logrow">
                    <span className="cl-row__icon" aria-hidden="true">
                      <Icon name="clock" size={20} />
                    </span>
                    <span className="cl-logrow__label">
                      {w.bankCard.bankName} <span className="cl-nowrap">{w.bankCard.maskedNumber}</span>
                    </span>
                    <span className="cl-logrow__amount">
                      <Money amount={w.received} currency={w.currency} />
                    </span>
                    <span className="cl-logrow__meta">
                      <span>{withdrawalStatusLabels[w.status]} ·</span>
                      <span>
                        in your bank by <When at={w.expectedBy} timeZone={limits.timeZone} />
                      </span>
                    </span>
                    <Icon name="chevron-right" size={20} className="cl-row__chevron" />
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        </section>
      ) : null}

      <section className="cl-section" aria-labelledby="wallet-activity">
        <h2 id="wallet-activity" className="cl-section__title">
          Activity
        </h2>
        {log.list.length > 0 ? (
          <Card flush>
            <ul className="cl-list">
              {log.list.map((entry) => (
                <li key={entry.id} className="cl-list__item">
                  <LogRow entry={entry} currency={currency} timeZone={limits.timeZone} />
                </li>
              ))}
            </ul>
          </Card>
        ) : log.total > 0 ? (
          <Card className="cl-empty cl-empty--compact">
            <p className="cl-empty__text">There is nothing more on this page.</p>
            <Link to="/wallet" className="cl-link cl-link--touch">
              Back to the newest
            </Link>
          </Card>
        ) : (
          <Card className="cl-empty cl-empty--compact">
            <span className="cl-icon-tile" aria-hidden="true">
              <Icon name="wallet" size={28} />
            </span>
            <h3 className="cl-empty__title">{W.noActivity}</h3>
            <p className="cl-empty__text">{W.noActivityText}</p>
          </Card>
        )}
        {log.list.length > 0 ? (
          <Pager label="Activity pages" pageNum={log.pageNum} lastPage={lastPage} href={(n) => (n > 1 ? `/wallet?page=${n}` : '/wallet')} />
        ) : null}
      </section>

      <ActionBar className="cl-wallet-actions">
        <ButtonLink to="/wallet/bank-cards" variant="secondary" icon="bank" block>
          Bank cards
        </ButtonLink>
        <ButtonLink to="/wallet/withdraw" variant="primary" block>
          Withdraw
        </ButtonLink>
      </ActionBar>
    </Screen>
  )
}

/** Auto-withdrawal: where each sale's money goes, and the switch (the PIN to turn it on). */
function AutoWithdrawalPanel({ auto, currency }: { auto: AutoWithdrawal; currency: string }) {
  const upTo = formatMoney(auto.maxAmount, currency)
  const to = auto.bankCard ? (
    <>
      {auto.bankCard.bankName} <span className="cl-nowrap">{auto.bankCard.maskedNumber}</span>
    </>
  ) : null
  return (
    <section className="cl-section" aria-labelledby="wallet-auto">
      <h2 id="wallet-auto" className="cl-section__title">
        Automatic withdrawal {auto.enabled ? <span className="cl-badge cl-badge--success">On</span> : null}
      </h2>
      <Card>
        {auto.enabled ? (
          <Form method="post" action="/wallet/auto-withdrawal" className="cl-form">
            <p className="cl-auto__text">
              Each sale up to {upTo} goes to {to ?? 'your default bank account'} as soon as it is credited. The withdrawal fee applies;
              larger sales stay in your wallet.
            </p>
            <Button type="submit" name="intent" value="auto-off" variant="secondary" block>
              Turn off
            </Button>
          </Form>
        ) : !to ? (
          <p className="cl-auto__text">
            Send each sale’s money to your bank as soon as it is credited.{' '}
            <Link to="/wallet/add-bank-card?redirectTo=%2Fwallet" className="cl-link">
              Add a bank account
            </Link>{' '}
            to turn this on.
          </p>
        ) : (
          <Form method="post" action="/wallet/auto-withdrawal" className="cl-form">
            <p className="cl-auto__text">
              Send each sale up to {upTo} to {to} as soon as it is credited, without asking each time. The withdrawal fee applies; turn it
              off whenever you like.
            </p>
            {/* A plain field keeps Wallet light; /wallet/auto-withdrawal checks the PIN and answers with a toast. */}
            <label className="cl-field">
              <span className="cl-field__label">Your withdrawal PIN</span>
              <input
                className="cl-input"
                type="password"
                name="pin"
                inputMode="numeric"
                autoComplete="off"
                pattern="[0-9]{6}"
                maxLength={6}
                required
              />
            </label>
            <Button type="submit" name="intent" value="auto-on" variant="secondary" block>
              Turn on
            </Button>
          </Form>
        )}
      </Card>
    </section>
  )
}

/** Where an entry came from: the withdrawal or the order behind it. */
function refHref(entry: BalanceLogEntry): string | undefined {
  if (!entry.refId) return undefined
  if (entry.refType === 'withdrawal') return `/wallet/withdraw/${encodeURIComponent(entry.refId)}`
  if (entry.refType === 'order') return `/order/${encodeURIComponent(entry.refId)}`
  return undefined
}

/**
 * One movement: what it was, its signed amount (credits green), a note (an adjustment's reason, a
 * failed payout's, a withdrawal's fee), when, and the balance after it.
 * A withdrawal is two entries: asked (the amount leaves what is available, to be held) and paid
 * (the hold leaves). The paid one moves nothing available: it shows what reached the bank, as the
 * receipt does, never the whole amount a second time; the fee is named as the fee on both.
 */
function LogRow({ entry, currency, timeZone }: { entry: BalanceLogEntry; currency: string; timeZone: string }) {
  const href = refHref(entry)
  const paid = entry.type === 'withdraw_paid'
  const w = entry.withdrawal
  const money = (n: number) => formatMoney(n, currency)
  const note =
    w && entry.type === 'withdraw' ? W.withdrawalSplit(money(w.received), money(w.fee)) : w && paid ? W.feeKept(money(w.fee)) : entry.note
  const body = (
    <>
      <span className="cl-row__icon" aria-hidden="true">
        <Icon name={LOG_ICONS[entry.type]} size={20} />
      </span>
      <span className="cl-logrow__label">{balanceLogLabels[entry.type]}</span>
      <span className="cl-logrow__amount">
        {paid ? (
          <Money amount={w ? w.received : -entry.frozenChange} currency={currency} tone="muted" />
        ) : (
          <Money amount={entry.amount} currency={currency} signed tone={entry.amount > 0 ? 'credit' : 'default'} />
        )}
      </span>
      {note ? <span className="cl-logrow__note">{note}</span> : null}
      <span className="cl-logrow__meta">
        <span>
          <When at={entry.createdAt} timeZone={timeZone} /> ·
        </span>
        <span>{paid ? 'from on hold' : `Balance ${formatMoney(entry.balanceAfter, currency)}`}</span>
      </span>
      {href ? <Icon name="chevron-right" size={20} className="cl-row__chevron" /> : null}
    </>
  )
  return href ? (
    <Link to={href} className="cl-row cl-logrow">
      {body}
    </Link>
  ) : (
    <div className="cl-row cl-logrow">{body}</div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
