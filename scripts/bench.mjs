// Benchmarks against a running app on this machine (`npm start` first). Measures, never asserts.
//
//   node scripts/bench.mjs [--base http://127.0.0.1:3000] [--api http://127.0.0.1:3001]
//       latency: p50/p95/max and requests per second per scenario (--requests 200 --concurrency 8)
//
//   node scripts/bench.mjs --cost [--ref http://127.0.0.1:3300] [--rounds 3] [--seconds 3] [--warm 1] [--pages /,/account] [--connections 50]
//       page cost: CPU of the web process per request (utime + stime from /proc/PID/stat ÷ requests
//       served), each page plain and with a browser's Accept-Encoding, interleaved round by round
//       with the bare Remix reference's /data page (../shared/perf-baseline: `run.sh start 3300 3310`),
//       each run after --warm seconds of unmeasured load.
//       Shared machines drift 15–25 % between runs; the ratio to the reference in the same run is
//       the figure (docs/performance.md). Load from wrk -t1 -c50 when installed, else from Node.
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs'
import path from 'node:path'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
const flag = (name) => process.argv.includes(`--${name}`)
const base = arg('base', 'http://127.0.0.1:3000')
const api = arg('api', 'http://127.0.0.1:3001')
const outbox = arg('outbox', 'data/outbox')
const localOnly = /^http:\/\/127\.\d+\.\d+\.\d+(:\d+)?$/
for (const url of [base, api, arg('ref', 'http://127.0.0.1:3300')])
  if (!localOnly.test(url)) throw new Error(`bench targets 127.0.0.1 only: ${url}`)

const BROWSER_ENCODING = 'gzip, deflate, br'
const password = 'bench passphrase for timing'

/** An account to sign in with: registered through the api with the code the outbox holds for it. */
async function signedInCookie() {
  const email = `bench.${Date.now()}@example.com`
  const post = (url, body) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', clientType: 'h5' }, body: JSON.stringify(body) }).then(
      (r) => r.json(),
    )
  const sent = await post(`${api}/auth/sendEmailCode`, { email, type: 1 })
  if (sent.code !== 200) throw new Error(`sendEmailCode failed: ${sent.msg}`)
  let verifyCode
  for (let i = 0; i < 20 && !verifyCode; i++) {
    await new Promise((r) => setTimeout(r, 150))
    verifyCode = codeFor(email)
  }
  if (!verifyCode) throw new Error(`no code for ${email} in ${outbox} (run the api with the outbox, as npm start does)`)
  const registered = await post(`${api}/auth/register`, { email, password, verifyCode })
  if (registered.code !== 200) throw new Error(`register failed: ${registered.msg}`)
  // The browser's cookie, through the real login form.
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'password', email, password }),
    redirect: 'manual',
  })
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  if (!cookie) throw new Error(`login through the web failed (${login.status})`)
  // The login cookie still holds the "Welcome back" toast; a browser shows it once and gets the
  // session back without it. Measure that steady state, not a toast committed on every request.
  const first = await fetch(`${base}/`, { headers: { cookie }, redirect: 'manual' })
  await first.arrayBuffer()
  const steady = first.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  return { email, cookie: steady || cookie }
}

/** The newest mail to `email` in the outbox, by its content (file names need not hold the address). */
function codeFor(email) {
  const files = readdirSync(outbox)
    .map((f) => path.join(outbox, f))
    .map((f) => ({ f, t: statSync(f).mtimeMs }))
    .sort((a, b) => b.t - a.t)
    .slice(0, 50)
  for (const { f } of files) {
    const text = readFileSync(f, 'utf8')
    if (text.includes(email)) return /\b(\d{6})\b/.exec(text)?.[1]
  }
  return undefined
}

// ---------------------------------------------------------------- latency (the default)

async function latency() {
  const total = Number(arg('requests', 200))
  const concurrency = Number(arg('concurrency', 8))
  const deadline = Date.now() + 60_000 // never runs longer than a minute in all

  async function scenario(name, once, n = total) {
    const times = []
    let next = 0
    const worker = async () => {
      while (next < n && Date.now() < deadline) {
        next++
        const start = performance.now()
        await once()
        times.push(performance.now() - start)
      }
    }
    const began = performance.now()
    await Promise.all(Array.from({ length: concurrency }, worker))
    const seconds = (performance.now() - began) / 1000
    times.sort((a, b) => a - b)
    const pct = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1)
    console.log(
      `${name.padEnd(34)} n=${String(times.length).padStart(4)}  p50 ${pct(0.5).padStart(7)} ms  p95 ${pct(0.95).padStart(7)} ms  max ${times.at(-1).toFixed(1).padStart(7)} ms  ${(times.length / seconds).toFixed(1)} req/s`,
    )
  }
  const expectOk = async (res, ...ok) => {
    await res.arrayBuffer()
    if (!ok.includes(res.status)) throw new Error(`unexpected status ${res.status} for ${res.url}`)
  }

  const { email, cookie } = await signedInCookie()
  console.log(`Cardlane bench: ${base}, ${total} requests per scenario, concurrency ${concurrency}`)
  await scenario('GET / (visitor, SSR)', async () => expectOk(await fetch(`${base}/`), 200))
  await scenario('GET /login (SSR)', async () => expectOk(await fetch(`${base}/login`), 200))
  await scenario('GET /account (signed in)', async () => expectOk(await fetch(`${base}/account`, { headers: { cookie } }), 200))
  await scenario('GET /account?_data (client navigation)', async () =>
    expectOk(await fetch(`${base}/account?_data=routes%2Faccount`, { headers: { cookie } }), 200),
  )
  await scenario(
    'POST /login (password hash)',
    async () =>
      expectOk(
        await fetch(`${base}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ intent: 'password', email, password }),
          redirect: 'manual',
        }),
        302,
      ),
    Math.min(total, 20),
  )
}

// ---------------------------------------------------------------- page cost

const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100

/** The process listening on this TCP port (ours or the reference), from /proc. */
function pidOnPort(port) {
  const inodes = new Set()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      if (cols.length > 9 && cols[3] === '0A' && parseInt(cols[1].split(':')[1], 16) === port) inodes.add(cols[9])
    }
  }
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let fds = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
        if (m && inodes.has(m[1])) return Number(pid)
      } catch {
        // The descriptor closed while we looked: not the one.
      }
    }
  }
  throw new Error(`no process of this user listens on port ${port}`)
}

/** utime + stime of a process, in ms. */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS
}

const hasWrk = spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error === undefined
// 50 as the issue measured it; fewer (down to 1) shows the cost without queueing and contention.
const connections = Math.max(1, Math.min(200, Number(arg('connections', 50)) || 50))

/** Load for `seconds`: answers the requests served and the ones that were not 2xx/3xx. */
async function load(url, headers, seconds) {
  if (hasWrk) {
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url]
    const out = execFileSync('wrk', args, { encoding: 'utf8', timeout: (seconds + 30) * 1000 })
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0)
    const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
    return { requests, bad }
  }
  let requests = 0
  let bad = 0
  const until = Date.now() + seconds * 1000
  const worker = async () => {
    while (Date.now() < until) {
      const res = await fetch(url, { headers, redirect: 'manual' })
      await res.arrayBuffer()
      requests++
      if (res.status >= 400) bad++
    }
  }
  await Promise.all(Array.from({ length: connections }, worker))
  return { requests, bad }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN
}

async function cost() {
  const ref = arg('ref', 'http://127.0.0.1:3300')
  const rounds = Number(arg('rounds', 3))
  const seconds = Number(arg('seconds', 3))
  const warmSeconds = Math.max(0, Number(arg('warm', 1)) || 0)
  const deadline = Date.now() + Number(arg('max-seconds', 420)) * 1000
  const ours = pidOnPort(Number(new URL(base).port || 80))
  const theirs = pidOnPort(Number(new URL(ref).port || 80))
  const { cookie } = await signedInCookie()

  const visitorPages = ['/', '/login', '/register', '/forgot-password', '/download', '/user/privacy']
  const signedInPages = ['/', '/account', '/edit-profile', '/user/privacy', '/account?_data=routes%2Faccount']
  const only = arg('pages', '').split(',').filter(Boolean)
  const targets = [
    { name: 'reference /data', url: `${ref}/data`, pid: theirs, headers: {} },
    ...visitorPages.map((p) => ({ name: `visitor ${p}`, url: base + p, pid: ours, headers: {} })),
    ...signedInPages.map((p) => ({ name: `signed-in ${p}`, url: base + p, pid: ours, headers: { Cookie: cookie } })),
  ].filter((t) => !only.length || t.name.startsWith('reference') || only.some((p) => t.url === base + p))

  // A page that does not answer 200 is not measured (a route another branch has not added yet).
  const scenarios = []
  for (const t of targets) {
    const res = await fetch(t.url, { headers: t.headers, redirect: 'manual' })
    await res.arrayBuffer()
    if (res.status !== 200) {
      console.log(`skipped ${t.name}: ${res.status}`)
      continue
    }
    for (const encoding of ['plain', 'browser']) {
      scenarios.push({
        ...t,
        encoding,
        headers: encoding === 'browser' ? { ...t.headers, 'Accept-Encoding': BROWSER_ENCODING } : t.headers,
        samples: [],
      })
    }
  }

  console.log(
    `Page cost: web pid ${ours} (${base}) vs reference pid ${theirs} (${ref}); ${rounds} rounds × ${scenarios.length} runs of ${seconds} s, ${hasWrk ? `wrk -t1 -c${connections}` : `Node load, ${connections} connections`}`,
  )
  for (const s of scenarios.filter((s) => s.encoding === 'plain')) await load(s.url, s.headers, 1) // warm up
  for (let round = 1; round <= rounds && Date.now() < deadline; round++) {
    for (const s of scenarios) {
      if (Date.now() >= deadline) break
      // Steady state only: a process coming back from idle (while the others were measured) costs
      // more for its first second (docs/performance.md has the figures). Unmeasured load first.
      if (warmSeconds > 0) await load(s.url, s.headers, warmSeconds)
      const before = cpuMs(s.pid)
      const { requests, bad } = await load(s.url, s.headers, seconds)
      const used = cpuMs(s.pid) - before
      if (bad) console.log(`  ${s.name} (${s.encoding}): ${bad} of ${requests} answers were errors`)
      if (requests > 0) s.samples.push(used / requests)
    }
    process.stdout.write(`  round ${round} done\n`)
  }

  // Each page against the reference measured in the same round: the machine's drift between
  // rounds (other work on a shared machine) cancels out.
  const refRun = scenarios.find((s) => s.name === 'reference /data' && s.encoding === 'plain')
  const ratios = (s) => s.samples.map((ms, round) => ms / refRun.samples[round]).filter(Number.isFinite)
  const ratio = (s) => median(ratios(s))
  // The spread over rounds: on a shared 2-core machine a single round's ratio moves by a third.
  const spread = (s) => (ratios(s).length > 1 ? `${Math.min(...ratios(s)).toFixed(2)}–${Math.max(...ratios(s)).toFixed(2)}` : '')
  const find = (name, enc) => scenarios.find((s) => s.name === name && s.encoding === enc)
  console.log(
    `\n${'page'.padEnd(44)} ${'plain ms'.padStart(9)} ${'ratio'.padStart(6)} ${'rounds'.padStart(10)}   ${'browser ms'.padStart(10)} ${'ratio'.padStart(6)} ${'rounds'.padStart(10)}`,
  )
  for (const name of [...new Set(scenarios.map((s) => s.name))]) {
    const [plain, browser] = [find(name, 'plain'), find(name, 'browser')]
    const [plainRatio, browserRatio] = [ratio(plain), ratio(browser)]
    const over = Math.max(plainRatio, browserRatio) > 1.25 && !name.startsWith('reference') ? '  over budget' : ''
    console.log(
      `${name.padEnd(44)} ${median(plain.samples).toFixed(3).padStart(9)} ${plainRatio.toFixed(2).padStart(6)} ${spread(plain).padStart(10)}   ${median(browser.samples).toFixed(3).padStart(10)} ${browserRatio.toFixed(2).padStart(6)} ${spread(browser).padStart(10)}${over}`,
    )
  }
  console.log(`\nCPU ms per request (median of ${refRun.samples.length} rounds); ratio = median over rounds of ÷ the reference /data plain`)
  console.log(
    `of the same round (budget ≤ 1.25). Load average now: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  )
}

if (flag('cost')) await cost()
else await latency()
