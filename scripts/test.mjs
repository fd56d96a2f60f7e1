// `npm test`: every suite. api + web integration on SQLite, the same on PostgreSQL, then the
// browser suite in Chromium against a fresh build. Ends with one line: "N passed, N failed".
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
process.chdir(root)
const reports = path.join(root, 'tmp', 'test-reports')
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

const extraArgs = process.argv.slice(2)
const totals = { passed: 0, failed: 0, skipped: 0 }
const failures = []
// The names of failed tests, printed again at the very end: a CI log is often read from its tail.
const failedTests = []

function vitest(name, projects, env = {}) {
  console.log(`\n=== ${name} ===`)
  const out = path.join(reports, `${name.replace(/\W+/g, '-')}.json`)
  const args = [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...extraArgs,
  ]
  const result = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, ...env } })
  let counted = false
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'))
    totals.passed += report.numPassedTests
    totals.failed += report.numFailedTests
    totals.skipped += report.numPendingTests + report.numTodoTests
    for (const file of report.testResults ?? []) {
      const relative = path.relative(root, file.name)
      const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed')
      for (const t of failed) failedTests.push(`${name}: ${relative} > ${t.fullName}\n    ${firstLine(t.failureMessages?.[0])}`)
      // A file that failed before any test ran (an import error, a hook that threw) has no failed test.
      if (file.status === 'failed' && failed.length === 0) failedTests.push(`${name}: ${relative}\n    ${firstLine(file.message)}`)
    }
    counted = true
  }
  if (result.status !== 0) failures.push(`${name} (exit ${result.status})`)
  if (!counted) failures.push(`${name}: no report`)
}

function firstLine(text) {
  return (
    String(text ?? '')
      .split('\n')
      .find((line) => line.trim()) ?? ''
  )
}

function reachable(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host })
    socket.setTimeout(1500)
    socket.on('connect', () => (socket.destroy(), resolve(true)))
    socket.on('error', () => resolve(false))
    socket.on('timeout', () => (socket.destroy(), resolve(false)))
  })
}

/** A check that passes or fails as a whole (exit code): typecheck, lint, format, unused code. */
function check(name, command, args) {
  console.log(`\n=== ${name} ===`)
  if (spawnSync(command, args, { stdio: 'inherit' }).status !== 0) failures.push(`${name} (\`${[command, ...args].join(' ')}\`)`)
}

check('typecheck', 'npx', ['tsc', '--noEmit'])
// Any ESLint warning fails too (--max-warnings 0 in `npm run lint`); `npx eslint . --fix` and
// `npm run format` fix most of what these two find.
check('lint', 'npm', ['run', '--silent', 'lint'])
check('format', 'npm', ['run', '--silent', 'format:check'])
// Unused files, exports and dependencies (knip.json names the entry points).
check('unused code', 'npm', ['run', '--silent', 'knip'])

vitest('api+web on SQLite', ['api', 'web'], { TEST_DB: 'sqlite' })

if (process.env.TEST_SKIP_POSTGRES === '1') {
  console.log('\nTEST_SKIP_POSTGRES=1: the PostgreSQL run is skipped.')
} else if (!(await reachable(5432))) {
  failures.push('PostgreSQL is not reachable at 127.0.0.1:5432 (start it, or set TEST_SKIP_POSTGRES=1)')
} else {
  vitest('api+web on PostgreSQL', ['api', 'web'], { TEST_DB: 'postgres' })
}

if (process.env.TEST_SKIP_BROWSER === '1') {
  console.log('\nTEST_SKIP_BROWSER=1: the browser suite is skipped.')
} else {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(chromium)) {
    failures.push(`Chromium not found at ${chromium} (apt-get install -y chromium, or set CHROMIUM_PATH)`)
  } else {
    console.log('\n=== build for the browser suite ===')
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
    if (build.status !== 0) failures.push('build failed')
    else vitest('browser (Chromium, SQLite)', ['browser'], { TEST_DB: 'sqlite', CHROMIUM_PATH: chromium })
  }
}

console.log('')
for (const t of failedTests) console.log(`FAILED TEST: ${t}`)
for (const f of failures) console.log(`FAILED: ${f}`)
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(failures.length || totals.failed ? 1 : 0)
