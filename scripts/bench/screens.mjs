// Every screen: api calls per page (the api's request-log lines while the page is served) and the
// web + api CPU per page (utime + stime of both processes from /proc over a run of requests, two
// at a time, with a browser's Accept-Encoding). Budgets: ≤ 2 api calls and ≤ 4 ms a page; and, with
// the bare reference running, each screen ≤ 3× the reference's /data served plain (its CPU measured
// the same way, before, among and after our screens, so a shared machine's drift shows in both).
//
// Each page is warmed until V8 has optimised its code (a few hundred runs of a component before it
// is compiled), then measured over enough pages that /proc's clock tick is a small part of the
// figure. `seconds` bounds the warm-up and the measured run of each screen, so a busy machine
// measures fewer pages (the figure is over the pages served) and the part stays within minutes.
import { BROWSER_ENCODING, assertLocal, cpuMs, median, sleep, verdict } from './lib.mjs'

/** CPU a page of `once` over pids, after a warm-up; both runs bounded by `seconds`. */
async function cpuPerPage(once, pids, { requests, warm, seconds }) {
  const run = async (count, until = Infinity) => {
    let next = 0
    let served = 0
    const worker = async () => {
      while (next++ < count && Date.now() < until) {
        await once()
        served++
      }
    }
    await Promise.all([worker(), worker()])
    return served
  }
  // Warm first: the first runs of a page's code are interpreted, and fill caches.
  await run(warm, Date.now() + seconds * 1000)
  const cpu = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0)
  const before = cpu()
  const served = await run(requests, Date.now() + seconds * 1000)
  return { ms: (cpu() - before) / served, served }
}

/** The reference's /data, served plain (`identity`), its server's CPU a page. */
async function referencePage(reference, opts) {
  const url = assertLocal(reference.url)
  const once = async () => {
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' }, signal: AbortSignal.timeout(15_000) })
    await res.arrayBuffer()
  }
  const { ms, served } = await cpuPerPage(once, [reference.pid], opts)
  console.log(`  ${'reference /data (plain)'.padEnd(26)}      web ${ms.toFixed(2).padStart(6)} ms a page (${served} pages)`)
  return ms
}

export async function screenBudgets(stack, person, screens, { requests = 300, warm = 200, seconds = 3, reference = null } = {}) {
  const rows = []
  const opts = { requests, warm, seconds }
  const refs = []
  if (reference) refs.push(await referencePage(reference, opts))
  for (const [i, s] of screens.entries()) {
    if (reference && i === Math.floor(screens.length / 2)) refs.push(await referencePage(reference, opts))
    const url = assertLocal(stack.base + s.path)
    const headers = { 'accept-encoding': BROWSER_ENCODING, ...(s.signedIn ? { cookie: person.cookie } : {}) }
    const once = async () => {
      // A kept-alive connection the server closed while idle fails once; a new one does not.
      const get = () => fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(15_000) })
      const res = await get().catch(get)
      await res.arrayBuffer()
      return res.status
    }
    // Calls of one page on its own: the log lines it adds (the api logs once the answer is sent).
    const status = await once()
    await sleep(50)
    const linesBefore = stack.apiRequests()
    await once()
    await sleep(50)
    const calls = stack.apiRequests() - linesBefore

    const { ms, served } = await cpuPerPage(once, [stack.webPid, stack.apiPid], opts)
    const row = { screen: `${s.screen}${s.signedIn ? '' : ' (visitor)'}`, path: s.path, status, calls, ms, served }
    rows.push(row)
    console.log(
      `  ${row.screen.padEnd(26)} ${String(status).padStart(3)}  api calls ${calls}  web + api ${ms.toFixed(2).padStart(6)} ms a page (${served} pages)`,
    )
  }
  if (reference) refs.push(await referencePage(reference, opts))
  const worstCalls = rows.reduce((a, b) => (b.calls > a.calls ? b : a), rows[0])
  const worstMs = rows.reduce((a, b) => (b.ms > a.ms ? b : a), rows[0])
  const callsOver = rows.filter((r) => r.calls > 2)
  const msOver = rows.filter((r) => r.ms > 4)
  const names = (rs) => rs.map((r) => r.screen).join(', ')
  return [
    {
      part: 'screens',
      budget: 'api calls ≤ 2 on every screen',
      figure: `${worstCalls.calls} (${worstCalls.screen})`,
      verdict: verdict(worstCalls.calls, 2, { unit: ' calls' }) + (callsOver.length ? `: ${names(callsOver)}` : ''),
    },
    {
      part: 'screens',
      budget: 'web + api CPU ≤ 4 ms a page',
      figure: `${worstMs.ms.toFixed(2)} ms (${worstMs.screen})`,
      verdict: verdict(worstMs.ms, 4, { unit: ' ms' }) + (msOver.length ? `: ${msOver.length} of ${rows.length} screens over` : ''),
    },
    ...(refs.length ? [againstReference(rows, median(refs))] : []),
  ]
}

/** Each screen against the reference page: the worst ratio, and the screens over 3×. */
function againstReference(rows, refMs) {
  const worst = rows.reduce((a, b) => (b.ms > a.ms ? b : a), rows[0])
  const ratio = worst.ms / refMs
  const over = rows.filter((r) => r.ms > 3 * refMs)
  for (const r of rows) console.log(`  ${r.screen.padEnd(26)} ${(r.ms / refMs).toFixed(2).padStart(5)}× the reference`)
  return {
    part: 'screens',
    budget: 'web + api CPU a page ≤ 3× the reference /data served plain',
    figure: `${ratio.toFixed(2)}× (${worst.screen}: ${worst.ms.toFixed(2)} vs ${refMs.toFixed(2)} ms)`,
    verdict: verdict(ratio, 3, { unit: '×' }) + (over.length ? `: ${over.map((r) => r.screen).join(', ')}` : ''),
  }
}
