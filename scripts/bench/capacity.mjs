// Capacity on this machine (web + api + database together): pages/s of signed-in Home against the
// bare reference's /data, loaded in turn in the same run (wrk -t1 -c50, round by round, so drift of
// a shared machine cancels in the ratio), then p99 of signed-in Home at 10 connections.
// Budgets: ≥ 40 % of the reference's pages/s; p99 ≤ 50 ms at 10 connections.
import { assertLocal, median, verdict, wrk } from './lib.mjs'

export async function capacityBudgets(stack, person, reference, { rounds = 3, seconds = 5 } = {}) {
  const home = assertLocal(`${stack.base}/`)
  const headers = { Cookie: person.cookie }
  const rows = []
  if (reference) {
    const ratios = []
    const ours = []
    const theirs = []
    await wrk(reference.url, { seconds: 1 })
    await wrk(home, { seconds: 1, headers })
    for (let round = 1; round <= rounds; round++) {
      const ref = await wrk(reference.url, { seconds })
      const us = await wrk(home, { seconds, headers })
      if (us.bad) console.log(`  signed-in Home: ${us.bad} of ${us.requests} answers were errors`)
      theirs.push(ref.perSecond)
      ours.push(us.perSecond)
      ratios.push(us.perSecond / ref.perSecond)
      console.log(
        `  ${stack.kind} round ${round}: reference /data ${ref.perSecond.toFixed(0)} pages/s, signed-in Home ${us.perSecond.toFixed(0)} pages/s (${(100 * ratios.at(-1)).toFixed(0)} %)`,
      )
    }
    const ratio = median(ratios) * 100
    rows.push({
      part: 'capacity',
      db: stack.kind,
      budget: 'signed-in Home ≥ 40 % of the reference pages/s (50 connections)',
      figure: `${ratio.toFixed(0)} % (${median(ours).toFixed(0)} vs ${median(theirs).toFixed(0)} pages/s)`,
      verdict: verdict(ratio, 40, { atMost: false, unit: ' points' }),
    })
  } else {
    rows.push({
      part: 'capacity',
      db: stack.kind,
      budget: 'signed-in Home ≥ 40 % of the reference pages/s (50 connections)',
      figure: 'no reference (../shared/perf-baseline absent)',
      verdict: 'not measured',
    })
  }
  const latency = await wrk(home, { connections: 10, seconds: 8, headers, latency: true })
  console.log(
    `  ${stack.kind}: signed-in Home at 10 connections: ${latency.perSecond.toFixed(0)} pages/s, p99 ${latency.p99.toFixed(1)} ms`,
  )
  rows.push({
    part: 'capacity',
    db: stack.kind,
    budget: 'signed-in Home p99 ≤ 50 ms at 10 connections',
    figure: `${latency.p99.toFixed(1)} ms`,
    verdict: verdict(latency.p99, 50, { unit: ' ms' }),
  })
  return rows
}
