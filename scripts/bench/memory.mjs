// Memory: the web's resident memory under a bounded, mixed load of signed-in pages (wrk rotating
// through the screens), sampled every second: start, peak, end. With --heap the web writes a heap
// snapshot (SIGUSR2, --heapsnapshot-signal) into tmp/bench/ after the load, for DevTools' Memory tab.
// The figure is recorded against the 700 000-request growth of the issue, not held to a number yet.
import { readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { work } from './app.mjs'
import { BROWSER_ENCODING, assertLocal, rssMb, sleep, wrk } from './lib.mjs'

export async function memoryBudgets(stack, person, screens, { seconds = 75, heap = false } = {}) {
  const paths = [...new Set(screens.filter((s) => s.signedIn).map((s) => s.path))]
  const script = path.join(work, 'memory.lua')
  writeFileSync(
    script,
    [
      `local paths = { ${paths.map((p) => JSON.stringify(p)).join(', ')} }`,
      'local i = 0',
      'request = function()',
      '  i = i + 1',
      '  return wrk.format("GET", paths[(i % #paths) + 1])',
      'end',
      '',
    ].join('\n'),
  )
  const samples = [rssMb(stack.webPid)]
  const timer = setInterval(() => samples.push(rssMb(stack.webPid)), 1_000)
  let requests = 0
  const until = Date.now() + seconds * 1000
  try {
    while (Date.now() < until) {
      const chunk = Math.max(1, Math.min(15, Math.round((until - Date.now()) / 1000)))
      const run = await wrk(assertLocal(`${stack.base}/`), {
        connections: 10,
        seconds: chunk,
        headers: { Cookie: person.cookie, 'Accept-Encoding': BROWSER_ENCODING },
        script,
      })
      requests += run.requests
    }
  } finally {
    clearInterval(timer)
  }
  samples.push(rssMb(stack.webPid))
  const [start, peak, end] = [samples[0], Math.max(...samples), samples.at(-1)]
  console.log(
    `  web RSS over ${requests} requests (${paths.length} pages, ${seconds} s): start ${start.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, end ${end.toFixed(0)} MB`,
  )
  if (heap) {
    const before = new Set(readdirSync(work))
    process.kill(stack.webPid, 'SIGUSR2')
    let file
    let size = -1
    for (let i = 0; i < 240; i++) {
      await sleep(500)
      file ??= readdirSync(work).find((f) => f.endsWith('.heapsnapshot') && !before.has(f))
      if (!file) continue
      const now = statSync(path.join(work, file)).size
      if (now > 0 && now === size) break
      size = now
    }
    console.log(
      file ? `  heap snapshot: tmp/bench/${file} (open in Chrome DevTools → Memory)` : '  no heap snapshot appeared within 2 minutes',
    )
  }
  return [
    {
      part: 'memory',
      budget: 'web memory bounded (issue: 87 → ~610 MB over 700 000 requests)',
      figure: `${start.toFixed(0)} → peak ${peak.toFixed(0)} → ${end.toFixed(0)} MB over ${requests} requests`,
      verdict: 'recorded',
    },
  ]
}
