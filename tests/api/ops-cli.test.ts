import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { staffApi } from '#contract/ops/staff'
import { REJECTION_REASONS, type Order } from '#contract/orders'
import { newEmail } from '../support/kit'
import { jpeg, newCode, photo, sold, useSellingApi } from '../support/selling'
import { codeAt, seedStaff, TEST_STAFF_ACTOR, testStaffToken } from '../support/staff'
import { TEST_ADMIN_TOKEN, walletInfo, walletUser, withdraw } from '../support/wallet'

/** `npm run ops`: the operators' CLI against the real api over HTTP, as a signed-in staff member. */
const api = useSellingApi()
const script = path.resolve(__dirname, '../../scripts/ops.mjs')
const home = mkdtempSync(path.join(tmpdir(), 'ops-cli-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** Runs the CLI with the suite's staff session (OPS_TOKEN) unless `env` says otherwise; `input` is its standard input. */
async function ops(args: string[], env: Record<string, string> = {}, input = '') {
  const child = spawn(process.execPath, [script, ...args], {
    env: {
      PATH: process.env.PATH,
      OPS_API_URL: api.url,
      OPS_TOKEN: await testStaffToken(api),
      OPS_TOKEN_FILE: path.join(home, 'no-session'),
      ADMIN_TOKEN: '',
      ...env,
    } as unknown as NodeJS.ProcessEnv,
    timeout: 20_000,
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  child.stdin.end(input)
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)))
  return { code, stdout, stderr }
}

describe('npm run ops', { timeout: 120_000 }, () => {
  it('credits by e-mail in naira, pays a withdrawal, fails one, and checks the books — all audited under the staff member', async () => {
    const u = await walletUser(api)
    const credit = await ops(['adjust', u.email, '5000.50', '--reason', 'Promo credit'])
    expect(credit.stderr).toBe('')
    expect(credit.stdout).toContain(`${u.email}: ₦5,000.50 (Promo credit); available now ₦5,000.50`)
    expect((await walletInfo(api, u.token)).balance).toBe(500_050)

    const w = (await withdraw(api, u, 200_000)).body.data
    const w2 = (await withdraw(api, u, 100_000)).body.data
    const queue = await ops(['withdrawals', '--status', 'pending'])
    expect(queue.stdout).toContain(w.id)
    expect(queue.stdout).toContain(u.email)
    expect((await ops(['withdrawal', w.id, 'processing'])).stdout).toContain(`${w.id} is processing`)
    expect((await ops(['withdrawal', w.id, 'success', '--reference', 'NIP-42'])).stdout).toContain('(reference NIP-42)')
    expect((await ops(['withdrawal', w2.id, 'failed', '--reason', 'Account name mismatch'])).stdout).toContain(
      'reason: Account name mismatch',
    )
    expect(await walletInfo(api, u.token)).toMatchObject({ balance: 300_050, frozen: 0 })

    expect((await ops(['books'])).stdout).toMatch(/^The books balance: \d+ wallet\(s\)/)
    expect((await ops(['user', u.email])).stdout).toContain('available ₦3,000.50, on hold ₦0.00')
    const actors = await api.db.selectFrom('audit_log').select('actor').where('action', 'not like', 'staff.%').distinct().execute()
    expect(actors.map((a) => a.actor)).toEqual([TEST_STAFF_ACTOR])
  })

  it('says what is wrong and exits non-zero', async () => {
    const u = await walletUser(api)
    const wrong = await ops(['user', u.email], { OPS_TOKEN: 'not-the-token' })
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('your staff session has ended: sign in first: npm run ops -- login')
    // ADMIN_TOKEN alone: refused for what a person does, accepted for the books check.
    const token = await ops(['user', u.email], { OPS_TOKEN: '', ADMIN_TOKEN: TEST_ADMIN_TOKEN })
    expect(token.code).toBe(2)
    expect(token.stderr).toContain('ADMIN_TOKEN is only for automation and break-glass')
    expect((await ops(['books'], { OPS_TOKEN: '', ADMIN_TOKEN: TEST_ADMIN_TOKEN })).stdout).toMatch(/^The books balance/)
    const bad = await ops(['adjust', u.email, '12.345', '--reason', 'x'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('amount must look like')
    const move = await ops(['withdrawal', 'nope', 'success', '--reference', 'R'])
    expect(move.stderr).toContain('This withdrawal was not found')
    const down = await ops(['books'], { OPS_API_URL: 'http://127.0.0.1:9' })
    expect(down.stderr).toContain('cannot reach the api')
  })
})

describe('npm run ops: orders, rates and ETAs', { timeout: 120_000 }, () => {
  const detail = async (token: string, id: string) => (await api.get<Order>(`/v1/order/detail?id=${id}`, { token })).body.data

  it('lists the queue with photos and no codes, claims (the codes show), completes (the wallet is credited) and shows one order', async () => {
    const u = await walletUser(api)
    const code = newCode()
    const ecode = await sold(api, u.token, { cards: [{ faceValue: 10_000, cardCodes: [code] }] })
    const ids = [await photo(api, u.token)]
    const physical = await sold(api, u.token, { brandId: 'steam', cardType: 'physical', cards: [{ faceValue: 5_000, imageIds: ids }] })
    const queue = await ops(['orders'])
    expect(queue.stderr).toBe('')
    expect(queue.stdout).toMatch(/order\(s\) waiting for review, oldest first/)
    expect(queue.stdout).toContain(`${ecode.orderNo}  pending`)
    expect(queue.stdout).not.toContain(code)
    expect(queue.stdout).toContain(`photos ${ids[0]}`)
    const claimed = await ops(['order', ecode.id, 'claim'])
    expect(claimed.stdout).toContain(`${ecode.orderNo} is reviewing; ${u.email} was told.`)
    expect(claimed.stdout).toContain(`code ${code}`)
    const done = await ops(['order', ecode.id, 'complete', '--note', 'Redeemed, thank you'])
    expect(done.stdout).toContain(`${ecode.orderNo} is completed`)
    expect((await walletInfo(api, u.token)).balance).toBe(ecode.quotedPayout)
    expect((await detail(u.token, ecode.id)).operatorNote).toBe('Redeemed, thank you')
    const one = await ops(['order', physical.id])
    expect(one.stdout).toContain(`${physical.orderNo}  pending`)
    expect(one.stdout).toContain('card 1')
  })

  it('proposes a lower payout card by card, and rejects with a reason code and a proof photo', async () => {
    const u = await walletUser(api)
    const order = await sold(api, u.token, {
      cards: [
        { faceValue: 10_000, cardCodes: [newCode()] },
        { faceValue: 5_000, cardCodes: [newCode()] },
      ],
    })
    await ops(['order', order.id, 'claim'])
    const proposed = await ops(['order', order.id, 'propose', '--reason', 'Card 2 had US$20 left', '--cards', '2:250.00:ALREADY_USED'])
    expect(proposed.stderr).toBe('')
    expect(proposed.stdout).toContain('offered ₦250.00')
    expect(await detail(u.token, order.id)).toMatchObject({ status: 'proposed', proposedPayout: order.cards[0].quotedPayout + 25_000 })
    await api.post('/v1/order/accept', { id: order.id }, { token: u.token })
    expect((await walletInfo(api, u.token)).balance).toBe(order.cards[0].quotedPayout + 25_000)

    const other = await sold(api, u.token)
    await ops(['order', other.id, 'claim'])
    const dir = mkdtempSync(path.join(tmpdir(), 'ops-proof-'))
    const file = path.join(dir, 'redeem-screen.png')
    writeFileSync(file, await jpeg(600, 400, { format: 'png' }))
    const rejected = await ops([
      'order',
      other.id,
      'reject',
      '--code',
      'ALREADY_USED',
      '--note',
      'Redeemed elsewhere on 2 May',
      '--proof',
      file,
    ])
    rmSync(dir, { recursive: true, force: true })
    expect(rejected.stderr).toBe('')
    const seen = await detail(u.token, other.id)
    expect(seen).toMatchObject({
      status: 'rejected',
      rejection: { reasonCode: 'ALREADY_USED', reasonText: REJECTION_REASONS.ALREADY_USED },
      operatorNote: 'Redeemed elsewhere on 2 May',
    })
    expect(seen.proofImageId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('sets and shows rates and ETAs', async () => {
    const set = await ops(['rate', 'razer-gold', 'us', 'ecode', '1234.5'])
    expect(set.stderr).toBe('')
    expect(set.stdout).toContain('Razer Gold US ecode: 1234.50 NGN per USD')
    expect((await ops(['rate', 'razer-gold', 'US', 'ecode'])).stdout).toContain(`1234.50  by ${TEST_STAFF_ACTOR}`)
    expect((await ops(['rates', '--brand', 'razer-gold'])).stdout).toMatch(/razer-gold +US ecode +1234\.50 NGN\/USD {2}24h -?\d+\.\d\d%/)
    expect((await ops(['eta', 'razer-gold', '12'])).stdout).toContain('razer-gold: reviews take about 12 minutes')
  })

  it('a rate far from the one in force needs --confirm, then a second admin; staff confirm vouches for a new admin (decision 041)', async () => {
    const refused = await ops(['rate', 'razer-gold', 'US', 'physical', '99999'])
    expect(refused.stderr).toMatch(/from the rate in force .*: confirm it/)
    const asked = await ops(['rate', 'razer-gold', 'US', 'physical', '99999', '--confirm'])
    expect(asked.stdout).toMatch(/→ 99999\.00 \(.+ %\) waits for a second admin/)
    expect((await ops(['rate-changes'])).stdout).toContain('99999.00')
    const fresh = await seedStaff(api, { role: 'admin', confirmed: false })
    expect((await ops(['staff', 'confirm', fresh.email])).stdout).toContain(`${fresh.email} is a confirmed admin now.`)
  })

  it('says what is wrong with an order command and exits non-zero', async () => {
    const u = await walletUser(api)
    const order = await sold(api, u.token)
    expect((await ops(['order', order.id, 'reject'])).stderr).toContain('usage: order <id>')
    expect((await ops(['order', order.id, 'complete'])).stderr).toContain('Claim the order first: it is still pending')
    await ops(['order', order.id, 'claim'])
    const badCards = await ops(['order', order.id, 'propose', '--reason', 'less', '--cards', '7:1.00:OTHER'])
    expect(badCards.code).toBe(2)
    expect(badCards.stderr).toContain('is not <card position>:<payout>:<REASON_CODE> of this order')
    expect((await ops(['order', 'nope'])).stderr).toContain('This order was not found')
    expect((await ops(['order', order.id, 'reject', '--code', 'FAKE_CARD', '--proof', '/no/such/file.jpg'])).stderr).toContain(
      'no such file',
    )
    expect((await ops(['eta', 'apple', 'soon'])).stderr).toContain('usage: eta')
  })
})

describe('npm run ops: staff', { timeout: 120_000 }, () => {
  it('makes the first admin with ADMIN_TOKEN, who sets up, signs in with password and code, and is the audit actor from then on', async () => {
    const email = newEmail('first-admin')
    const bootstrap = { OPS_TOKEN: '', ADMIN_TOKEN: TEST_ADMIN_TOKEN, PUBLIC_URL: 'https://cardlane.example' }
    const added = await ops(['staff', 'add', email, '--role', 'admin'], bootstrap)
    expect(added.stderr).toBe('')
    const link = /https:\/\/cardlane\.example\/ops\/setup\/([\w-]{43})/.exec(added.stdout)
    expect(link, added.stdout).not.toBeNull()
    expect((await ops(['staff', 'list'], bootstrap)).stdout).toMatch(new RegExp(`${email.replace(/[.+]/g, '\\$&')} +admin +invited`))

    const start = staffApi.setupStart.data.parse((await api.post('/staff/setup/start', { token: link![1] })).body.data)
    api.clock.advance(30_000)
    const password = 'the first admin passphrase'
    expect((await api.post('/staff/setup/complete', { token: link![1], password, code: codeAt(api, start.secret) })).body.code).toBe(200)
    api.clock.advance(30_000)

    const file = path.join(home, 'ops-token')
    const signedIn = await ops(['login', email], { OPS_TOKEN: '', OPS_TOKEN_FILE: file }, `${password}\n${codeAt(api, start.secret)}\n`)
    expect(signedIn.stderr).toBe('')
    expect(signedIn.stdout).toContain(`Signed in as ${email} (admin)`)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(signedIn.stdout + signedIn.stderr).not.toContain(password)

    const mine = { OPS_TOKEN: '', OPS_TOKEN_FILE: file }
    expect((await ops(['eta', 'razer-gold', '15'], mine)).stdout).toContain('razer-gold: reviews take about 15 minutes')
    const entry = await api.db
      .selectFrom('audit_log')
      .select('actor')
      .where('action', '=', 'eta.set')
      .orderBy('created_at', 'desc')
      .executeTakeFirst()
    expect(entry?.actor).toBe(`staff:${email}`)
    const invitee = newEmail('reviewer')
    expect((await ops(['staff', 'add', invitee, '--role', 'reviewer'], mine)).stdout).toContain('/ops/setup/')
    expect((await ops(['staff', 'role', invitee, 'payouts'], mine)).stdout).toContain(`${invitee} is payouts now.`)
    expect((await ops(['staff', 'reset', invitee], mine)).stdout).toContain('/ops/setup/')
    // The console on its own host name (OPS_HOST): the link opens there, on the site's scheme.
    const onOpsHost = { ...mine, PUBLIC_URL: 'https://cardlane.example', OPS_HOST: 'ops.cardlane.example' }
    expect((await ops(['staff', 'reset', invitee], onOpsHost)).stdout).toContain('https://ops.cardlane.example/ops/setup/')
    expect((await ops(['staff', 'disable', invitee], mine)).stdout).toContain(`${invitee} is disabled`)

    expect((await ops(['logout'], mine)).stdout).toContain('Signed out.')
    const after = await ops(['eta', 'razer-gold', '16'], mine)
    expect(after.code).toBe(2)
    expect(after.stderr).toContain('sign in first')
  })

  it('follows API_PORT when OPS_API_URL is not set, and prints set-up links on the web’s own PORT', async () => {
    const port = new URL(api.url).port
    const bootstrap = { OPS_TOKEN: '', ADMIN_TOKEN: TEST_ADMIN_TOKEN, OPS_API_URL: '', API_PORT: port, PORT: '4123' }
    const email = newEmail('ports')
    const added = await ops(['staff', 'add', email, '--role', 'reviewer'], bootstrap)
    expect(added.stderr).toBe('')
    expect(added.stdout).toMatch(/\n {2}http:\/\/localhost:4123\/ops\/setup\/[\w-]{43}\n/)
    expect(added.stdout).not.toContain(`:${port}/ops/setup/`)
  })

  it('says what is wrong with a sign-in', async () => {
    const file = path.join(home, 'bad-token')
    const wrong = await ops(['login', newEmail('nobody')], { OPS_TOKEN: '', OPS_TOKEN_FILE: file }, 'wrong password\n123456\n')
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('Incorrect e-mail or password')
    expect((await ops(['login'])).stderr).toContain('usage: login')
    expect((await ops(['staff', 'add', 'x@example.com'])).stderr).toContain('usage: staff add')
  })
})
