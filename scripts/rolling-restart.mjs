// Requests dropped during a rolling restart behind nginx (docs/deploy.md): two api processes on one
// SQLite file, two webs in front of them, Debian's nginx with deploy/nginx.conf (ports of this run
// written into a temp copy), 16 clients asking for /login and /catalogue while each web in turn gets
// SIGTERM and is started again. Measures, never asserts; tests/api/nginx.test.ts asserts none drop.
//   node scripts/rolling-restart.mjs   (needs nginx; makes the Remix build when it is older than app/)
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { bundleProcesses, ensureRemixBuild, exited, freePort, startApiProcess, startWebProcess } from '../tests/support/api-process.mjs'
import { startNginx } from '../tests/support/nginx-process.mjs'

ensureRemixBuild()
const { api: apiBundle, web: webBundle, dir } = await bundleProcesses('rolling-restart', { web: true })
const databaseUrl = `file:${path.join(dir, `db-${Date.now()}.sqlite`)}`
const apiPorts = [await freePort(), await freePort()]
const apis = []
for (const port of apiPorts) apis.push(await startApiProcess({ bundle: apiBundle, port, databaseUrl }))
const sessionSecret = randomBytes(32).toString('hex')
const webPorts = [await freePort(), await freePort()]
const web = (i) =>
  startWebProcess({
    bundle: webBundle,
    port: webPorts[i],
    apiUrl: `http://127.0.0.1:${apiPorts[i]}`,
    sessionSecret,
    env: { TRUST_PROXY: 'loopback' },
  })
const webs = [await web(0), await web(1)]
const port = await freePort()
const nginx = await startNginx({ port, webPorts, stdio: ['ignore', 'ignore', 'inherit'] })
const base = `http://127.0.0.1:${port}`

let stop = false
const counts = { answered: 0, dropped: 0 }
const client = async (n) => {
  for (let i = 0; !stop; i++) {
    const target = (n + i) % 2 === 0 ? '/login' : '/catalogue'
    try {
      const res = await fetch(`${base}${target}`, { redirect: 'manual' })
      await res.arrayBuffer()
      if (res.status >= 200 && res.status < 400) counts.answered++
      else {
        counts.dropped++
        counts[res.status] = (counts[res.status] ?? 0) + 1
      }
    } catch {
      counts.dropped++
      counts.network = (counts.network ?? 0) + 1
    }
  }
}
const started = Date.now()
const clients = Array.from({ length: 16 }, (_, n) => client(n))
await new Promise((r) => setTimeout(r, 2000))
for (const i of [0, 1]) {
  webs[i].kill('SIGTERM')
  console.log(`web ${i + 1} stopped with exit ${await exited(webs[i])}`)
  webs[i] = await web(i)
  // nginx keeps a web it saw fail out of rotation for fail_timeout (deploy/nginx.conf).
  await new Promise((r) => setTimeout(r, 6000))
}
stop = true
await Promise.all(clients)
const seconds = (Date.now() - started) / 1000
console.log(
  `rolling restart of 2 webs behind nginx under 16 clients (${seconds.toFixed(0)} s): ${counts.answered} answered, ${counts.dropped} dropped`,
  counts,
)
const ready = await fetch(`${base}/readyz`)
console.log(`/readyz through nginx: ${ready.status} ${await ready.text()}`)
for (const child of [nginx.child, ...webs, ...apis]) {
  child.kill('SIGTERM')
  await exited(child)
}
rmSync(nginx.dir, { recursive: true, force: true })
