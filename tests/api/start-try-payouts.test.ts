import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BalanceLogType } from '#contract/wallet'
import { createDb } from '../../api/db/connect'
import { move } from '../../api/services/ledger'
import { esbuildTarget } from '../../scripts/lib/node-version.mjs'
import { newEmail } from '../support/kit'
import { PIN, requestId, validNuban } from '../support/wallet'

/**
 * `npm start` with a refused setting, and `npm run try:payouts` (start.mjs --paystack-fake), run
 * for real in a throw-away copy of the project as tests/api/start-script.test.ts does: the script,
 * the api bundled as `npm run build` bundles it, the tests' Paystack stand-in, and a stand-in web.
 */

const repo = path.resolve(import.meta.dirname, '../..')
let root: string
const started: ChildProcess[] = []

const STUB_WEB = `
import http from 'node:http'
http.createServer((req, res) => {
  if (req.url === '/healthcheck') return res.end('OK')
  res.statusCode = 404
  res.end()
}).listen(Number(process.env.PORT), process.env.HOST || '0.0.0.0')
`

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'cardlane-try-'))
  cpSync(path.join(repo, 'scripts'), path.join(root, 'scripts'), { recursive: true })
  mkdirSync(path.join(root, 'tests/support'), { recursive: true })
  cpSync(path.join(repo, 'tests/support/paystack-fake.ts'), path.join(root, 'tests/support/paystack-fake.ts'))
  // The fake lists the committed banks.
  mkdirSync(path.join(root, 'api/lib'), { recursive: true })
  cpSync(path.join(repo, 'api/lib/banks-ng.json'), path.join(root, 'api/lib/banks-ng.json'))
  symlinkSync(path.join(repo, 'node_modules'), path.join(root, 'node_modules'))
  mkdirSync(path.join(root, 'build/server'), { recursive: true })
  mkdirSync(path.join(root, 'build/ops/server'), { recursive: true })
  await build({
    entryPoints: { api: path.join(repo, 'api/main.ts') },
    outdir: path.join(root, 'build'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: esbuildTarget,
    packages: 'external',
    logLevel: 'error',
    tsconfig: path.join(repo, 'tsconfig.json'),
  })
  writeFileSync(path.join(root, 'build/server.js'), STUB_WEB)
  writeFileSync(path.join(root, 'build/server/index.js'), '')
  writeFileSync(path.join(root, 'build/ops/server/index.js'), '')
  writeFileSync(path.join(root, 'build/.stamp'), new Date().toISOString())
})

function childPids(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
}

afterEach(() => {
  for (const child of started.splice(0)) {
    for (const pid of childPids(child.pid!)) process.kill(pid, 'SIGKILL')
    child.kill('SIGKILL')
  }
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve) => {
          const server = net.createServer().listen(0, '127.0.0.1', () => resolve(server))
        }),
    ),
  )
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port)
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
  return ports
}

function runStart(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: root, NO_COLOR: '1', ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.push(child)
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const waitFor = async (text: string | RegExp, ms = 20_000) => {
    const deadline = Date.now() + ms
    while (!(typeof text === 'string' ? output.includes(text) : text.test(output))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`never printed ${text}; output:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return { child, output: () => output, exit, waitFor }
}

const count = (text: string, part: string) => text.split(part).length - 1

describe.skipIf(process.env.TEST_DB === 'postgres' || process.platform !== 'linux')('npm start and npm run try:payouts', () => {
  it('a refused setting stops npm start once, with the message and the variable, and no restart', async () => {
    const [webPort, apiPort] = await freePorts(2)
    const run = runStart({
      PORT: String(webPort),
      API_PORT: String(apiPort),
      PAYOUT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_test_0123456789',
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
    })
    const code = await Promise.race([run.exit, new Promise((r) => setTimeout(() => r('still running'), 20_000))])
    expect(code, run.output()).toBe(1)
    const out = run.output()
    expect(count(out, 'PAYSTACK_SECRET_KEY: production pays with a live key (sk_live_…)')).toBe(1)
    expect(count(out, 'PAYSTACK_BASE_URL: must be https:// in production')).toBe(1)
    expect(out).toContain('The api process refused its settings (above): change the variable it names, then run npm start again.')
    expect(out).not.toContain('restarting')
    expect(out).not.toContain('is running')
  })

  it('--paystack-fake: a withdrawal is paid by the local Paystack stand-in, end to end', { timeout: 60_000 }, async () => {
    const [webPort, apiPort] = await freePorts(2)
    const run = runStart({ PORT: String(webPort), API_PORT: String(apiPort), PAYSTACK_FAKE_PAY_AFTER_SECONDS: '1' }, ['--paystack-fake'])
    await run.waitFor('Cardlane is running', 40_000)
    expect(run.output()).toMatch(
      /Payouts: automatic, to a local stand-in for Paystack at http:\/\/127\.0\.0\.1:\d+ \(no money moves\); it pays each transfer after 1 s\./,
    )
    const api = `http://127.0.0.1:${apiPort}`
    const call = async (method: string, url: string, body?: unknown, token?: string) => {
      const res = await fetch(api + url, {
        method,
        headers: { 'content-type': 'application/json', clientType: 'h5', ...(token && { token }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return (await res.json()) as { code: number; msg: string; data: any }
    }
    // A person signs up with the code printed on the console, sets a PIN and adds a bank account
    // (its holder's name comes from the stand-in's name enquiry).
    const email = newEmail('try')
    expect((await call('POST', '/auth/sendEmailCode', { email, type: 1 })).code).toBe(200)
    await run.waitFor(new RegExp(`Code for ${email.replaceAll('.', '\\.')}: (\\d{6})`))
    const verifyCode = new RegExp(`Code for ${email.replaceAll('.', '\\.')}: (\\d{6})`).exec(run.output())![1]
    const registered = await call('POST', '/auth/register', { email, password: 'a fine passphrase 42', verifyCode })
    expect(registered.code, registered.msg).toBe(200)
    const token = registered.data as string

    const { db } = createDb(`file:${path.join(root, 'data/cardlane.db')}`)
    try {
      // The stand-in names every account ADAEZE OBI: a profile of that name is not flagged for a person to look.
      const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
      await db.updateTable('users').set({ user_name: 'Adaeze Obi' }).where('id', '=', user.id).execute()
      expect((await call('POST', '/v1/user/setPin', { pin: PIN }, token)).code).toBe(200)
      const card = await call('POST', '/v1/bankCard/add', { bankCode: '058', accountNumber: validNuban('058'), pin: PIN }, token)
      expect(card.code, card.msg).toBe(200)
      // Money in the wallet, as a completed order would credit it.
      await db.transaction().execute((trx) =>
        move(
          trx,
          {
            userId: user.id,
            type: BalanceLogType.ADJUSTMENT,
            amount: 1_000_000,
            refType: 'adjustment',
            refId: 'try',
            key: `try:${user.id}`,
          },
          'NGN',
          Date.now(),
        ),
      )
      const w = await call(
        'POST',
        '/v1/withdraw/create',
        { bankCardId: card.data.id, amount: 300_000, pin: PIN, requestId: requestId() },
        token,
      )
      expect(w.code, w.msg).toBe(200)
      let status = w.data.status
      const deadline = Date.now() + 30_000
      while (status !== 'success' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250))
        status = (await call('GET', `/v1/withdraw/detail?id=${w.data.id}`, undefined, token)).data.status
      }
      expect(status, run.output()).toBe('success')
      // The stand-in says so once the api has answered its webhook, which may be after the api shows the withdrawal paid.
      await run.waitFor(/paystack-fake paid [a-z0-9_-]+ \(2950 NGN\); webhook answered HTTP 200/, 10_000)
    } finally {
      await db.destroy()
    }
  })
})
