// `npm run bench`: every performance budget of the app measured on this machine and printed
// against its budget, with the machine, its load and the date; the table is written into
// docs/performance.md between <!-- bench:start --> and <!-- bench:end -->. A benchmark, never a
// test: it measures and reports, it fails only when it cannot measure. 127.0.0.1 only; every loop
// is bounded in time (docs/performance.md says how long a whole run takes).
//
//   npm run bench [-- --only lighthouse,first-visit,screens,capacity,dashboard,memory,ledger,restore] [--db sqlite,postgres]
//                 [--heap] [--no-build] [--no-write | --write] [--memory-seconds 75] [--ledger-seconds 10] [--rounds 3]
//                 [--cpu-prof <dir>]   (web and api write V8 CPU profiles into <dir> as they stop)
// A whole run writes docs/performance.md (--no-write: not); a run of some parts only with --write.
//   npm run bench -- --cost …      page CPU against the reference on a running app (scripts/bench.mjs --cost)
//   npm run bench -- --latency …   latency of a running app (scripts/bench.mjs)
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ensureBuild, screenUrls, seed, startReference, startStack } from './app.mjs'
import { capacityBudgets } from './capacity.mjs'
import { dashboardBudgets } from './dashboard.mjs'
import { firstVisitBudgets } from './first-visit.mjs'
import { ledgerBudgets } from './ledger.mjs'
import { arg, flag, hasWrk, list, loadAverage, machine, root } from './lib.mjs'
import { lighthouseBudgets } from './lighthouse.mjs'
import { memoryBudgets } from './memory.mjs'
import { restoreBudgets } from './restore.mjs'
import { screenBudgets } from './screens.mjs'

// The older modes, on an app already running: handed to scripts/bench.mjs as they were.
if (flag('cost') || flag('latency')) {
  const args = process.argv.slice(2).filter((a) => a !== '--latency')
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/bench.mjs'), ...args], { stdio: 'inherit' })
  process.exit(result.status ?? 1)
}

const PARTS = ['lighthouse', 'first-visit', 'screens', 'capacity', 'dashboard', 'memory', 'ledger', 'restore']
const only = list('only', PARTS.join(','))
const dbs = list('db', 'sqlite,postgres')
for (const p of only) if (!PARTS.includes(p)) throw new Error(`--only: unknown part ${p} (one of ${PARTS.join(', ')})`)
for (const d of dbs) if (!['sqlite', 'postgres'].includes(d)) throw new Error(`--db: sqlite or postgres, not ${d}`)
const wants = (p) => only.includes(p)
// The memory part drives wrk with a script: say so before the minutes the other parts take, not after.
if (wants('memory') && !hasWrk) throw new Error('the memory part needs wrk (apt-get install wrk), or leave it out with --only')

const started = new Date()
const box = machine()
const loadBefore = loadAverage()
console.log(
  `Cardlane bench, ${started.toISOString()}: ${box.cores} cores (${box.cpu}), ${box.memoryGb} GB, Node ${box.node}, load average ${loadBefore}`,
)

const rows = []
const stacks = []
let reference = null
const section = (title) => console.log(`\n${title}`)
// Ctrl-C or a kill: the processes this run started stop with it (the PostgreSQL database is dropped).
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    console.log(`\n${signal}: stopping what the bench started…`)
    for (const s of stacks) await s.stop().catch(() => undefined)
    reference?.stop()
    process.exit(130)
  })
}

try {
  const needsApp = only.some((p) => p !== 'ledger' && p !== 'restore')
  // --no-build: measure build/ as it is (say, the build of the commit before a change).
  if (needsApp && !flag('no-build')) ensureBuild()
  if (wants('capacity') || wants('screens')) {
    reference = await startReference()
    if (!reference) console.log('No ../shared/perf-baseline here: capacity against the reference is not measured.')
  }

  // The browser and per-screen parts run on SQLite (the default install); capacity on each database.
  const pageParts = ['lighthouse', 'first-visit', 'screens', 'memory'].filter(wants)
  for (const kind of dbs) {
    const pagesHere = kind === dbs[0] ? pageParts : []
    if (!pagesHere.length && !wants('capacity') && !wants('dashboard')) continue
    section(`Starting web + api on ${kind === 'sqlite' ? 'a throw-away SQLite file' : 'a throw-away PostgreSQL database'}…`)
    const profiles = arg('cpu-prof', '')
    const profFlags = profiles ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profiles)}`] : []
    const stack = await startStack(kind, { heap: flag('heap') && pagesHere.includes('memory'), webFlags: profFlags, apiFlags: profFlags })
    stacks.push(stack)
    const person = await seed(stack)
    const screens = screenUrls(person)
    console.log(`  web ${stack.base} (pid ${stack.webPid}), api ${stack.api} (pid ${stack.apiPid}); ${screens.length} screens`)
    if (pagesHere.includes('lighthouse')) {
      section('Slow phone on a slow network (Lighthouse, mobile, simulated throttling)')
      rows.push(...(await lighthouseBudgets(stack, person)))
    }
    if (pagesHere.includes('first-visit')) {
      section('First visit (bytes over the wire, empty cache)')
      rows.push(...(await firstVisitBudgets(stack, person, screens)))
    }
    if (pagesHere.includes('screens')) {
      section('Every screen: api calls and web + api CPU a page')
      rows.push(...(await screenBudgets(stack, person, screens, { reference })))
    }
    if (pagesHere.includes('memory')) {
      section('Memory of the web under load')
      rows.push(...(await memoryBudgets(stack, person, screens, { seconds: Number(arg('memory-seconds', 75)), heap: flag('heap') })))
    }
    if (wants('capacity')) {
      section(`Capacity on ${kind}`)
      rows.push(...(await capacityBudgets(stack, person, reference, { rounds: Number(arg('rounds', 3)) })))
    }
    // Last on each database: it fills the books with thousands of rows the other parts should not see.
    if (wants('dashboard')) {
      section(`The console's dashboard on ${kind}`)
      rows.push(...(await dashboardBudgets(stack)))
    }
    await stack.stop()
    stacks.pop()
  }
  if (wants('ledger')) {
    section('The ledger below the PIN hash')
    rows.push(...(await ledgerBudgets(dbs, { seconds: Math.min(30, Number(arg('ledger-seconds', 10))) })))
  }
  if (wants('restore')) {
    section('Restoring a backup (npm run ops -- backup, then restore into a fresh database)')
    rows.push(...(await restoreBudgets(dbs)))
  }
} finally {
  for (const s of stacks) await s.stop().catch(() => undefined)
  reference?.stop()
}

// ---------------------------------------------------------------- the table

const loadAfter = loadAverage()
// A load above the core count before the run means other work shared the cores: the figures are
// the machine's. The load at the end is mostly the bench's own servers and clients, so it is shown, not judged.
const busy =
  Number(loadBefore.split(' ')[0]) > box.cores
    ? `**The machine was busy (load average above its ${box.cores} cores): these figures say more about it than about the app; rerun on a quiet machine before reading a verdict.**`
    : null
const heading = `${started.toISOString().slice(0, 16).replace('T', ' ')} UTC · ${box.cores} cores (${box.cpu}) · ${box.memoryGb} GB · Node ${box.node} · load average ${loadBefore} at the start, ${loadAfter} at the end`
const table = [
  '| budget | figure | verdict |',
  '| --- | --- | --- |',
  ...rows.map((r) => `| ${r.db ? `${r.db}: ` : ''}${r.budget} | ${r.figure} | ${r.verdict} |`),
]
section(`${heading}\n`)
if (busy) console.log(`${busy.replaceAll('**', '')}\n`)
const width = Math.max(...rows.map((r) => (r.db ? r.db.length + 2 : 0) + r.budget.length))
for (const r of rows) console.log(`${`${r.db ? `${r.db}: ` : ''}${r.budget}`.padEnd(width)}  ${r.figure.padEnd(40)}  ${r.verdict}`)

// Only a whole run replaces the table (a part alone would drop the other rows), unless --write.
const whole = only.length === PARTS.length && dbs.length === 2
if (rows.length && (flag('write') || (whole && !flag('no-write')))) {
  const file = path.join(root, 'docs/performance.md')
  const text = readFileSync(file, 'utf8')
  const block = [
    '<!-- bench:start -->',
    `Last \`npm run bench\`${only.length < PARTS.length ? ` (\`--only ${only.join(',')}\`)` : ''}: ${heading}.`,
    ...(busy ? ['', busy] : []),
    '',
    ...table,
    '<!-- bench:end -->',
  ].join('\n')
  const [start, end] = [text.indexOf('<!-- bench:start -->'), text.indexOf('<!-- bench:end -->')]
  let next
  if (start >= 0 && end > start) next = text.slice(0, start) + block + text.slice(end + '<!-- bench:end -->'.length)
  else {
    // First run: "Where things stand" goes right under the title, the history stays below.
    const firstLineEnd = text.indexOf('\n') + 1
    next = `${text.slice(0, firstLineEnd)}\n## Where things stand\n\n${block}\n${text.slice(firstLineEnd)}`
  }
  writeFileSync(file, next)
  console.log('\nWritten to docs/performance.md (between the bench markers).')
}
