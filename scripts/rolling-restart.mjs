// Requests dropped during a rolling restart behind nginx (docs/deploy.md): the built api, two web
// processes on 127.0.0.1:3100 and :3101, Debian's nginx with deploy/nginx.conf on :8080, 16 clients
// asking for /login while each web in turn gets SIGTERM and is started again. Measures, never asserts.
//   node scripts/rolling-restart.mjs   (needs `npm run build` for the Remix build, and nginx)
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { bundleProcesses, exited, freePort, root, startApiProcess, startWebProcess } from '../tests/support/api-process.mjs'

const { api: apiBundle, web: webBundle, dir } = await bundleProcesses('rolling-restart', { web: true })
const apiPort = await freePort()
const api = await startApiProcess({ bundle: apiBundle, port: apiPort, databaseUrl: `file:${path.join(dir, 'db.sqlite')}`, stdio: 'ignore' })
const sessionSecret = randomBytes(32).toString('hex')
const web = (port) =>
  startWebProcess({
    bundle: webBundle,
    port,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    sessionSecret,
    env: { TRUST_PROXY: 'loopback' },
    stdio: 'ignore',
  })
const webs = { 3100: await web(3100), 3101: await web(3101) }
const conf = path.join(root, 'deploy/nginx.conf')
const nginx = spawn('nginx', ['-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' })
await new Promise((r) => setTimeout(r, 500))

let stop = false
const counts = { ok: 0, failed: 0 }
const client = async () => {
  while (!stop) {
    try {
      const res = await fetch('http://127.0.0.1:8080/login')
      await res.text()
      if (res.status === 200) counts.ok++
      else {
        counts.failed++
        counts[res.status] = (counts[res.status] ?? 0) + 1
      }
    } catch {
      counts.failed++
    }
  }
}
const clients = Array.from({ length: 16 }, client)
await new Promise((r) => setTimeout(r, 2000))
for (const port of [3100, 3101]) {
  webs[port].kill('SIGTERM')
  console.log(`web :${port} stopped with exit ${await exited(webs[port])}`)
  webs[port] = await web(port)
  await new Promise((r) => setTimeout(r, 1000))
}
stop = true
await Promise.all(clients)
console.log(
  `rolling restart of 2 webs behind nginx under 16 clients: ${counts.ok} answered 200, ${counts.failed} dropped or failed`,
  counts,
)
const ready = await fetch('http://127.0.0.1:8080/readyz')
console.log(`/readyz through nginx: ${ready.status} ${await ready.text()}`)
nginx.kill('SIGTERM')
for (const w of Object.values(webs)) w.kill('SIGTERM')
api.kill('SIGTERM')
