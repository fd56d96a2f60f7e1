#!/usr/bin/env node
// `npm run ops -- <command>`: what operators do, over the api's /admin calls (HTTP). A person
// signs in once with their staff account (`login`); every action is then audited by the api under
// that staff member. ADMIN_TOKEN is for automation and break-glass only: the api accepts it for
// `staff add|list|disable|reset`, `books` and `stats`, audited as admin-token, and refuses the rest.
//
//   login <email>                                                         sign in: password, then the authenticator code (prompts)
//   logout                                                                end this staff session
//   staff add <email> --role reviewer|payouts|admin                      invite: prints a one-time set-up link (24 hours)
//   staff list                                                            every staff member, role and status
//   staff role <email> reviewer|payouts|admin                             change a role
//   staff disable <email>                                                 ends their sessions; they cannot sign in again
//   staff reset <email>                                                   new password and authenticator (lifts a lock): prints a new set-up link
//   staff confirm <email>                                                 vouch for a new admin account (not one you invited, reset or made admin)
//   withdrawals [--status pending|processing|success|failed] [--page N]   the queue, oldest first
//   pay <withdrawal id>                                                   to pay by hand: bank, holder, the full account number (audited) and the amount to send
//   withdrawal <id> processing                                            start paying it
//   withdrawal <id> success --reference <bank reference>                  paid
//   withdrawal <id> failed --reason "<words for the person>"              failed: the hold returns
//   user <email|id>                                                       who, balance, on hold
//   adjust <email|id> <amount> --reason "<why>" [--request-id <key>]      credit (+) or debit (-), major units: 1500.50
//   adjustments                                                           adjustments over ADJUSTMENT_APPROVAL_MIN waiting for a second admin
//   adjustment <id> approve|decline                                       decide one (never your own): the money moves once
//   books                                                                 check every wallet against its log
//   orders [--status pending|reviewing|proposed|completed|rejected|cancelled|declined] [--page N]
//                                                                         the review queue (default: pending and reviewing), oldest first
//   order <id>                                                            one order, card by card (codes only while you hold its claim)
//   order <id> claim                                                      claim it for review (the person can no longer cancel); shows its codes
//   order <id> complete [--note "…"]                                      pay the full quote into the wallet
//   order <id> propose --reason "…" --cards "2:400.00:ALREADY_USED,…"     offer less: card position, its new payout (major units, 0 rejects the card), reason code
//   order <id> reject --code FAKE_CARD [--note "…"] [--proof photo.jpg]   reject with a reason code (OTHER needs --note) and an optional proof photo
//   rates [--brand apple]                                                 the rates board with the change over 24 hours
//   rate <brand> <country> <physical|ecode> [<rate>] [--confirm]          set a rate (₦ per card-currency unit, e.g. 1450.50), or show its history;
//                                                                         a large change needs --confirm, a very large one a second admin
//   rate-changes                                                          rate changes waiting for a second admin
//   rate-change <id> approve|decline                                      decide one (never your own)
//   eta <brand> <minutes>                                                 set a brand's review ETA
//   approve <withdrawal id>                                               send an automatic payout above AUTO_PAYOUT_MAX
//   reconcile --date YYYY-MM-DD                                           our automatic payouts of a day against the provider's transfers
//   stats [--from YYYY-MM-DD] [--to YYYY-MM-DD]                          the funnel: visits → registrations → first order → first withdrawal (default: the last 30 days)
//   shared-bank-accounts [--limit 50]                                     bank accounts saved on several accounts: who, signed up from where, rewards credited
//   backup <dir>                                                          the database and the photos into a new folder, with a manifest (the api may keep running)
//   restore <dir> [--force] [--allow-superuser]                           check the backup's signature and manifest, then restore it into an empty database
//                                                                         (--force: replace what is there; stop the api first;
//                                                                         --allow-superuser: let a PostgreSQL superuser role restore)
//
// backup and restore reach the database and the photos directly, as the api does: DATABASE_URL,
// STORAGE, UPLOAD_DIR (scripts/lib/backup.mjs); PostgreSQL needs pg_dump/pg_restore (PG_BIN_DIR).
// The manifest is signed with BACKUP_SIGNING_KEY_FILE (default data/backup-signing-key, made by the
// first backup, mode 600): keep a copy of it apart from the backups; restore needs it.
//
// Settings: OPS_API_URL (default http://127.0.0.1:API_PORT, API_PORT default 3001); the staff session: OPS_TOKEN, else the
// file OPS_TOKEN_FILE (default data/ops-token, written by `login`, mode 600); else ADMIN_TOKEN
// (default: data/admin-token, made by npm start). PUBLIC_URL (default http://localhost:PORT, PORT default 3000) starts set-up links.
import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { backup, BackupError, restore, settingsFrom } from './lib/backup.mjs'

const base = (process.env.OPS_API_URL || `http://127.0.0.1:${process.env.API_PORT || 3001}`).replace(/\/$/, '')
const dataDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'data')
const readIfThere = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined)
const sessionFile = process.env.OPS_TOKEN_FILE || path.join(dataDir, 'ops-token')
const staffToken = process.env.OPS_TOKEN || readIfThere(sessionFile)
const adminToken = process.env.ADMIN_TOKEN || readIfThere(path.join(dataDir, 'admin-token'))
// A person's own session first; the installation's ADMIN_TOKEN only when there is none.
const token = staffToken ?? adminToken
// Set-up links open on the web, never the api: its own port (PORT) unless PUBLIC_URL names the site,
// and on the console's own host name when it has one (OPS_HOST, decision 052).
const siteUrl = (process.env.PUBLIC_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/$/, '')
const publicUrl = process.env.OPS_HOST ? `${new URL(siteUrl).protocol}//${process.env.OPS_HOST}` : siteUrl

const [command, ...rest] = process.argv.slice(2)
const flags = {}
const args = []
// Flags that take no value; every other flag takes the word after it.
const switches = new Set(['force', 'confirm', 'allow-superuser'])
for (let i = 0; i < rest.length; i++) {
  if (switches.has(rest[i].slice(2))) flags[rest[i].slice(2)] = true
  else if (rest[i].startsWith('--')) flags[rest[i].slice(2)] = rest[++i]
  else args.push(rest[i])
}

function fail(message) {
  process.stderr.write(`ops: ${message}\n`)
  process.exit(2)
}

const signInHint = 'sign in first: npm run ops -- login <your staff e-mail>'

async function call(method, path, body, { auth = true } = {}) {
  if (auth && !token) fail(signInHint)
  let res
  try {
    res = await fetch(base + path, {
      method,
      headers: { ...(auth && { authorization: `Bearer ${token}` }), 'content-type': 'application/json', clientType: 'h5' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch (err) {
    fail(`cannot reach the api at ${base} (${err.cause?.code ?? err.message})`)
  }
  const envelope = await res.json().catch(() => null)
  if (!envelope) fail(`the api answered HTTP ${res.status} without an envelope`)
  if (res.status === 401 && auth) fail(staffToken ? `your staff session has ended: ${signInHint}` : signInHint)
  if (envelope.code !== 200) fail(`${envelope.msg} (code ${envelope.code})`)
  return envelope.data
}

/** Lines from a pipe (scripts, tests), or typed at a terminal; a secret is not echoed. */
let piped
async function ask(question, { secret = false } = {}) {
  if (!process.stdin.isTTY) {
    piped ??= createInterface({ input: process.stdin })[Symbol.asyncIterator]()
    const { value, done } = await piped.next()
    if (done) fail(`no answer for "${question.trim()}" on standard input`)
    return value.trim()
  }
  process.stderr.write(question)
  if (!secret) {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false })
    const line = await new Promise((resolve) => rl.once('line', resolve))
    rl.close()
    return String(line).trim()
  }
  return new Promise((resolve) => {
    const stdin = process.stdin
    let value = ''
    const onData = (chunk) => {
      for (const c of chunk) {
        if (c === '\u0003') process.exit(130)
        if (c === '\r' || c === '\n') {
          stdin.setRawMode(false)
          stdin.pause()
          stdin.off('data', onData)
          process.stderr.write('\n')
          return resolve(value)
        }
        value = c === '\u007f' ? value.slice(0, -1) : value + c
      }
    }
    stdin.setRawMode(true)
    stdin.setEncoding('utf8')
    stdin.resume()
    stdin.on('data', onData)
  })
}

const setupLink = (link) =>
  `Set-up link for ${link.staff.email} (${link.staff.role}), once, until ${when(link.setupExpiresAt)} UTC:\n  ${publicUrl}/ops/setup/${link.setupToken}\nSend it to them privately: it sets their password and authenticator.`

/** A photo file to /admin/file/upload (multipart), for a rejection's proof. */
async function uploadProof(file) {
  if (!existsSync(file)) fail(`no such file: ${file}`)
  const form = new FormData()
  form.append('file', new Blob([readFileSync(file)]), path.basename(file))
  let res
  try {
    res = await fetch(`${base}/admin/file/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
  } catch (err) {
    fail(`cannot reach the api at ${base} (${err.cause?.code ?? err.message})`)
  }
  const envelope = await res.json().catch(() => null)
  if (!envelope || envelope.code !== 200) fail(`${envelope?.msg ?? `HTTP ${res.status}`} (code ${envelope?.code ?? res.status})`)
  return envelope.data.fileId
}

const money = (minor, currency = 'NGN') => new Intl.NumberFormat('en-NG', { style: 'currency', currency }).format(minor / 100)
const when = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16)

/** 150050 → "1500.50", as a bank's transfer form takes it. */
const toMajor = (minor) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`

/** "1500.50" → 150050, integer arithmetic only. */
function toMinor(text) {
  const m = /^([+-]?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(String(text ?? '').replace(/[,_\s]/g, ''))
  if (!m) fail(`amount must look like 1500 or -250.50, not ${text}`)
  const value = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0') || '0')
  return m[1] === '-' ? -value : value
}

/** One order as operators read it: who, what, each card with its code or photos. */
function printOrder(o) {
  console.log(
    `${o.id}  ${o.orderNo}  ${o.status.padEnd(9)} ${o.brandName} ${o.country} ${o.cardType}  quoted ${money(o.quotedPayout, o.payoutCurrency)} at ${o.quotedRate}  ${o.email}  ${when(o.createdAt)}${o.claimedBy ? `  claimed by ${o.claimedBy}` : ''}`,
  )
  for (const c of o.cards) {
    const what = c.codes.length
      ? `code ${c.codes.join('  PIN ')}`
      : c.maskedCodes.length
        ? `code ${c.maskedCodes[0]} (claim the order to see it)`
        : `photos ${c.imageIds.join(' ')}`
    const settled =
      c.settledPayout !== null
        ? `  paid ${money(c.settledPayout, o.payoutCurrency)}`
        : c.proposedPayout !== null
          ? `  offered ${money(c.proposedPayout, o.payoutCurrency)}`
          : ''
    console.log(
      `   card ${c.position}  ${c.cardId}  ${money(c.faceValue, o.currency)} → ${money(c.quotedPayout, o.payoutCurrency)}${settled}  ${what}`,
    )
  }
}

const userQuery = (who) => (who?.includes('@') ? `email=${encodeURIComponent(who)}` : `id=${encodeURIComponent(who ?? '')}`)

switch (command) {
  case 'login': {
    const email = args[0]
    if (!email) fail('usage: login <your staff e-mail>')
    const password = await ask('Password: ', { secret: true })
    const { challenge } = await call('POST', '/staff/login', { email, password }, { auth: false })
    const code = await ask('Authenticator code: ')
    const session = await call('POST', '/staff/verify', { challenge, code }, { auth: false })
    writeFileSync(sessionFile, `${session.token}\n`, { mode: 0o600 })
    chmodSync(sessionFile, 0o600)
    console.log(
      `Signed in as ${session.staff.email} (${session.staff.role}) until ${when(session.expiresAt)} UTC at the latest; 30 idle minutes end it sooner.`,
    )
    break
  }
  case 'logout': {
    if (!staffToken) fail('not signed in')
    await call('POST', '/staff/logout', {})
    if (!process.env.OPS_TOKEN) rmSync(sessionFile, { force: true })
    console.log('Signed out.')
    break
  }
  case 'staff': {
    const [action, email, role] = args
    const usage =
      'usage: staff add <email> --role reviewer|payouts|admin | staff list | staff role <email> <role> | staff disable <email> | staff reset <email>'
    if (action === 'add') {
      if (!email || !flags.role) fail(usage)
      console.log(setupLink(await call('POST', '/admin/staff/invite', { email, role: flags.role })))
    } else if (action === 'list') {
      for (const m of await call('GET', '/admin/staff/list'))
        console.log(
          `${m.email.padEnd(32)} ${m.role.padEnd(9)} ${m.status}${m.locked ? ' LOCKED' : ''}  since ${when(m.createdAt)} by ${m.createdBy}`,
        )
    } else if (action === 'role') {
      if (!email || !role) fail(usage)
      const m = await call('POST', '/admin/staff/role', { email, role })
      console.log(`${m.email} is ${m.role} now.`)
    } else if (action === 'disable') {
      if (!email) fail(usage)
      const m = await call('POST', '/admin/staff/disable', { email })
      console.log(`${m.email} is disabled; their sessions have ended.`)
    } else if (action === 'reset') {
      if (!email) fail(usage)
      console.log(setupLink(await call('POST', '/admin/staff/reset', { email })))
    } else if (action === 'confirm') {
      if (!email) fail(usage)
      const m = await call('POST', '/admin/staff/confirm', { email })
      console.log(`${m.email} is a confirmed admin now.`)
    } else fail(usage)
    break
  }
  case 'withdrawals': {
    const q = new URLSearchParams({ pageSize: '50', pageNum: flags.page ?? '1', ...(flags.status ? { status: flags.status } : {}) })
    const page = await call('GET', `/admin/withdraw/page?${q}`)
    console.log(`${page.total} withdrawal(s)${flags.status ? ` ${flags.status}` : ''}, oldest first`)
    for (const w of page.list) {
      console.log(
        `${w.id}  ${w.status.padEnd(10)} send ${money(w.received, w.currency).padStart(14)} to ${w.bankCard.bankName} ${w.bankCard.maskedNumber} (${w.bankCard.accountName})  ${w.email}  asked ${when(w.createdAt)}  due ${when(w.expectedBy)}`,
      )
    }
    break
  }
  case 'pay': {
    if (!args[0]) fail('usage: pay <withdrawal id>')
    // The full number is asked for this one withdrawal and audited under you; it is printed, never stored.
    const a = await call('POST', '/admin/withdraw/reveal', { id: args[0] })
    console.log(`Withdrawal ${a.withdrawalId}: send exactly ${money(a.amountToSend, a.currency)} (${toMajor(a.amountToSend)})`)
    console.log(`  bank            ${a.bankName} (code ${a.bankCode})`)
    console.log(`  holder          ${a.accountName}`)
    console.log(`  account number  ${a.accountNumber}`)
    console.log(
      `Then: npm run ops -- withdrawal ${a.withdrawalId} processing, and success --reference <the bank's reference> once it is sent.`,
    )
    break
  }
  case 'withdrawal': {
    const [id, status] = args
    if (!id || !['processing', 'success', 'failed'].includes(status))
      fail('usage: withdrawal <id> processing|success|failed [--reference R] [--reason "…"]')
    const w = await call('POST', '/admin/withdraw/update', {
      id,
      status,
      ...(flags.reference && { reference: flags.reference }),
      ...(flags.reason && { reason: flags.reason }),
    })
    console.log(
      `${w.id} is ${w.status}${w.reference ? ` (reference ${w.reference})` : ''}${w.reason ? ` (reason: ${w.reason})` : ''}; ${w.email} was told.`,
    )
    break
  }
  case 'user': {
    const u = await call('GET', `/admin/user?${userQuery(args[0])}`)
    console.log(
      `${u.userId}  ${u.email}  "${u.userName}"  available ${money(u.balance, u.currency)}, on hold ${money(u.frozen, u.currency)}`,
    )
    break
  }
  case 'adjust': {
    const [who, amount] = args
    if (!who || amount === undefined || !flags.reason) fail('usage: adjust <email|id> <amount> --reason "why"')
    const u = await call('GET', `/admin/user?${userQuery(who)}`)
    const entry = await call('POST', '/admin/wallet/adjust', {
      userId: u.userId,
      amount: toMinor(amount),
      reason: flags.reason,
      requestId: flags['request-id'] ?? randomUUID().replace(/-/g, ''),
    })
    if (entry.type === 'adjustment_request')
      console.log(
        `${u.email}: ${money(entry.amount, u.currency)} (${flags.reason}) waits for another admin: npm run ops -- adjustment ${entry.id} approve|decline`,
      )
    else
      console.log(
        `${u.email}: ${money(entry.amount, u.currency)} (${flags.reason}); available now ${money(entry.balanceAfter, u.currency)}`,
      )
    break
  }
  case 'adjustments': {
    for (const r of await call('GET', '/admin/wallet/adjust/pending'))
      console.log(
        `${r.id}  ${money(r.amount).padStart(16)}  ${r.email} (balance ${money(r.balance)})  by ${r.maker}  ${when(r.createdAt)}  ${r.reason}${r.alike ? `  LIKE ${r.alike} OTHER(S) WAITING` : ''}`,
      )
    break
  }
  case 'rate-changes': {
    for (const r of await call('GET', '/admin/giftcard/rate/pending'))
      console.log(
        `${r.id}  ${r.brandName} ${r.country} ${r.cardType}  ${r.before} → ${r.rate} (${r.changePercent} %)  by ${r.maker}  ${when(r.createdAt)}`,
      )
    break
  }
  case 'rate-change': {
    const [id, decision] = args
    if (!id || !['approve', 'decline'].includes(decision)) fail('usage: rate-change <id> approve|decline')
    const r = await call('POST', `/admin/giftcard/rate/${decision}`, { id })
    console.log(
      decision === 'approve' ? `Approved: ${r.brandName} ${r.country} ${r.cardType} is ${r.rate} now.` : 'Declined: the rate is unchanged.',
    )
    break
  }
  case 'adjustment': {
    const [id, decision] = args
    if (!id || !['approve', 'decline'].includes(decision)) fail('usage: adjustment <id> approve|decline')
    const r = await call('POST', `/admin/wallet/adjust/${decision}`, { id })
    console.log(
      decision === 'approve'
        ? `Approved: ${money(r.amount)}; available now ${money(r.balanceAfter)}`
        : `Declined: ${money(r.amount)} moved nothing.`,
    )
    break
  }
  case 'shared-bank-accounts': {
    const list = await call('GET', `/admin/signals/sharedBankAccounts?limit=${flags.limit ?? 50}`)
    if (list.length === 0) console.log('No bank account is saved on more than one account.')
    for (const b of list) {
      console.log(
        `${b.bankName} ${b.maskedNumber}: ${b.accounts.length} accounts${b.rewardsEarnedBy ? `; earned rewards for ${b.rewardsEarnedBy}` : ''}`,
      )
      for (const a of b.accounts)
        console.log(
          `  ${a.userId}  ${a.email}  signed up ${new Date(a.createdAt).toISOString()} from ${a.signupAddress ?? 'unknown'}, rewards ${a.rewards}`,
        )
    }
    break
  }
  case 'books': {
    const b = await call('GET', '/admin/books')
    if (b.mismatches.length === 0) console.log(`The books balance: ${b.wallets} wallet(s), each equal to the sum of its log.`)
    else {
      console.log(`${b.mismatches.length} wallet(s) do not match their log:`)
      for (const m of b.mismatches)
        console.log(`  ${m.userId}: balance ${m.balance} vs log ${m.sumAmount}; on hold ${m.frozen} vs log ${m.sumFrozen}`)
      process.exitCode = 1
    }
    break
  }
  case 'orders': {
    const q = new URLSearchParams({ pageSize: '50', pageNum: flags.page ?? '1', ...(flags.status ? { status: flags.status } : {}) })
    const page = await call('GET', `/admin/order/page?${q}`)
    console.log(`${page.total} order(s) ${flags.status ?? 'waiting for review'}, oldest first`)
    for (const o of page.list) printOrder(o)
    break
  }
  case 'order': {
    const [id, action] = args
    const usage =
      'usage: order <id> [claim | complete [--note "…"] | propose --reason "…" --cards "2:400.00:ALREADY_USED" | reject --code CODE [--note "…"] [--proof file.jpg]]'
    if (!id) fail(usage)
    let o
    if (!action) o = await call('GET', `/admin/order/detail?id=${encodeURIComponent(id)}`)
    else if (action === 'claim') o = await call('POST', '/admin/order/claim', { id })
    else if (action === 'complete') o = await call('POST', '/admin/order/complete', { id, ...(flags.note && { note: flags.note }) })
    else if (action === 'propose') {
      if (!flags.reason || !flags.cards) fail(usage)
      const current = await call('GET', `/admin/order/detail?id=${encodeURIComponent(id)}`)
      const cards = flags.cards.split(',').map((entry) => {
        const [position, amount, reasonCode] = entry.split(':')
        const card = current.cards.find((c) => String(c.position) === position.trim())
        if (!card || !reasonCode) fail(`--cards: "${entry}" is not <card position>:<payout>:<REASON_CODE> of this order`)
        return { cardId: card.cardId, payout: toMinor(amount), reasonCode: reasonCode.trim() }
      })
      o = await call('POST', '/admin/order/propose', { id, reason: flags.reason, cards })
    } else if (action === 'reject') {
      if (!flags.code) fail(usage)
      const proofImageId = flags.proof ? await uploadProof(flags.proof) : undefined
      o = await call('POST', '/admin/order/reject', {
        id,
        reasonCode: flags.code,
        ...(flags.note && { note: flags.note }),
        ...(proofImageId && { proofImageId }),
      })
    } else fail(usage)
    printOrder(o)
    if (action) console.log(`${o.orderNo} is ${o.status}; ${o.email} was told.`)
    break
  }
  case 'rates': {
    const rates = await call('GET', `/v1/giftcard/rates${flags.brand ? `?brandId=${encodeURIComponent(flags.brand)}` : ''}`)
    for (const r of rates) {
      const change = r.rate24hAgo ? (((Number(r.rate) - Number(r.rate24hAgo)) / Number(r.rate24hAgo)) * 100).toFixed(2) : '—'
      console.log(
        `${r.brandId.padEnd(12)} ${r.country} ${r.cardType.padEnd(8)} ${r.rate.padStart(12)} ${r.payoutCurrency}/${r.currency}  24h ${change}%  set ${when(r.setAt)}`,
      )
    }
    break
  }
  case 'rate': {
    const [brandId, country, cardType, rate] = args
    if (!brandId || !country || !cardType) fail('usage: rate <brand> <country> <physical|ecode> [<rate>]')
    if (rate === undefined) {
      const q = new URLSearchParams({ brandId, country, cardType })
      for (const h of await call('GET', `/admin/giftcard/rate/history?${q}`))
        console.log(`${when(h.setAt)}  ${h.rate.padStart(12)}  by ${h.setBy}`)
    } else {
      const body = { brandId, country: country.toUpperCase(), cardType, rate, ...(flags.confirm && { confirmed: true }) }
      const r = await call('POST', '/admin/giftcard/rate', body)
      if (r.type === 'rate_change_request')
        console.log(
          `${r.brandName} ${r.country} ${r.cardType}: ${r.before} → ${r.rate} (${r.changePercent} %) waits for a second admin (${r.id})`,
        )
      else
        console.log(
          `${r.brandName} ${r.country} ${r.cardType}: ${r.rate} ${r.payoutCurrency} per ${r.currency} from ${when(r.setAt)} (24 hours ago: ${r.rate24hAgo ?? 'none'})`,
        )
    }
    break
  }
  case 'eta': {
    const [brandId, minutes] = args
    if (!brandId || !/^\d+$/.test(minutes ?? '')) fail('usage: eta <brand> <minutes>')
    const e = await call('POST', '/admin/giftcard/eta', { brandId, etaMinutes: Number(minutes) })
    console.log(`${e.brandId}: reviews take about ${e.etaMinutes} minutes`)
    break
  }
  case 'approve': {
    if (!args[0]) fail('usage: approve <withdrawal id>')
    const w = await call('POST', '/admin/withdraw/approve', { id: args[0] })
    console.log(
      `${w.id} approved: the payout worker sends ${money(w.received, w.currency)} to ${w.bankCard.bankName} ${w.bankCard.maskedNumber}.`,
    )
    break
  }
  case 'reconcile': {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(flags.date ?? '')) fail('usage: reconcile --date YYYY-MM-DD')
    const r = await call('GET', `/admin/payouts/reconcile?date=${flags.date}`)
    if (r.differences.length === 0) console.log(`${r.date} (${r.provider}): ${r.checked} payout(s), every one as the provider has it.`)
    else {
      console.log(`${r.date} (${r.provider}): ${r.checked} payout(s), ${r.differences.length} difference(s):`)
      for (const d of r.differences) console.log(`  ${d.reference}  ours ${d.ours ?? '—'}, provider ${d.theirs ?? '—'}: ${d.problem}`)
      process.exitCode = 1
    }
    break
  }
  case 'stats': {
    for (const name of ['from', 'to']) {
      if (name in flags && !/^\d{4}-\d{2}-\d{2}$/.test(flags[name] ?? '')) fail(`--${name} takes a day like 2025-01-31`)
    }
    const q = new URLSearchParams({ ...(flags.from && { from: flags.from }), ...(flags.to && { to: flags.to }) })
    const f = await call('GET', `/admin/analytics/funnel${q.size ? `?${q}` : ''}`)
    const count = (n) => new Intl.NumberFormat('en-NG').format(n).padStart(9)
    const pct = (n, of) => (of > 0 ? `${((n / of) * 100).toFixed(1)}%` : '—').padStart(7)
    console.log(`Funnel ${f.from} to ${f.to} (${f.timeZone}), people counted once per step`)
    console.log(`  visits            ${count(f.visits)}`)
    console.log(`  registrations     ${count(f.registrations)}  ${pct(f.registrations, f.visits)} of visits`)
    console.log(`  first order       ${count(f.firstOrders)}  ${pct(f.firstOrders, f.registrations)} of registrations`)
    console.log(`  first withdrawal  ${count(f.firstWithdrawals)}  ${pct(f.firstWithdrawals, f.firstOrders)} of first orders`)
    console.log(`  overall: ${pct(f.firstWithdrawals, f.visits).trim()} of visits reached a first withdrawal`)
    console.log('Not counted: people with Do Not Track or Global Privacy Control (their browsers send nothing).')
    break
  }
  case 'backup':
  case 'restore': {
    const [dir] = args
    if (!dir) fail(`usage: ${command} <dir>${command === 'restore' ? ' [--force]' : ''}`)
    const settings = settingsFrom(process.env)
    try {
      const m =
        command === 'backup'
          ? await backup(dir, settings)
          : await restore(dir, settings, { force: flags.force === true, allowSuperuser: flags['allow-superuser'] === true })
      const rows = Object.values(m.counts).reduce((a, b) => a + b, 0)
      const photos = Object.keys(m.files).length - 1
      const where = m.photos === 's3' ? 'photos stay in the S3 bucket (keep its versioning on)' : `${photos} photo(s)`
      console.log(
        command === 'backup'
          ? `Backed up ${m.dialect} at migration ${m.migration}: ${rows} rows, ${where}, into ${path.resolve(dir)} (manifest.json).`
          : `Restored the backup of ${m.createdAt} (${m.dialect}, migration ${m.migration}): ${rows} rows, ${where}; every file matched its manifest.`,
      )
    } catch (err) {
      if (err instanceof BackupError) fail(err.message)
      throw err
    }
    break
  }
  default:
    console.log(
      'usage: npm run ops -- login|logout|staff|withdrawals|pay|withdrawal|approve|user|adjust|adjustments|adjustment|books|shared-bank-accounts|orders|order|rates|rate|eta|reconcile|stats|backup|restore …  (see scripts/ops.mjs)',
    )
    process.exitCode = command ? 2 : 0
}
