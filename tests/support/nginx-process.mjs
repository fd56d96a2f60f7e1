// Debian's nginx with deploy/nginx.conf, for tests and scripts/rolling-restart.mjs: the shipped
// file with this run's ports written in and every path it writes moved into a temp folder, so it
// runs next to anything else on the machine and needs no root.
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { root, waitUntilAnswers } from './api-process.mjs'

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
export const nginxPresent = () => existsSync(NGINX)

/** The addresses deploy/nginx.conf is written with (docs/deploy.md, "Trying this set-up on one machine"). */
const SHIPPED = { listen: '127.0.0.1:8080', webs: ['127.0.0.1:3100', '127.0.0.1:3101'] }

/**
 * deploy/nginx.conf with `listen` on `port`, the web upstream on `webPorts` and its pid, temp and
 * log paths under `dir`. Throws when the shipped file no longer has the addresses it replaces.
 * @param {{ dir: string, port: number, webPorts: number[] }} options
 */
export function nginxConfig({ dir, port, webPorts }) {
  let text = readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8')
  const swap = (from, to) => {
    if (!text.includes(from)) throw new Error(`deploy/nginx.conf no longer contains ${from}`)
    text = text.split(from).join(to)
  }
  swap(`listen ${SHIPPED.listen};`, `listen 127.0.0.1:${port};`)
  SHIPPED.webs.forEach((address, i) => swap(`server ${address} `, `server 127.0.0.1:${webPorts[i]} `))
  swap('/tmp/cardlane-nginx', path.join(dir, 'cardlane-nginx'))
  return text
}

/**
 * Starts nginx in the foreground in front of `webPorts` on 127.0.0.1:`port`; resolves once its
 * /healthz (passed to a web) answers.
 * @param {{ port: number, webPorts: number[], stdio?: import('node:child_process').StdioOptions }} options
 */
export async function startNginx({ port, webPorts, stdio = ['ignore', 'ignore', 'pipe'] }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cardlane-nginx-'))
  // Started as root, nginx's workers run as nobody and must reach their temp folders in here.
  chmodSync(dir, 0o755)
  const conf = path.join(dir, 'nginx.conf')
  writeFileSync(conf, nginxConfig({ dir, port, webPorts }))
  // -e (nginx 1.19.5+): its own error log, before the config's is read, is not /var/log/nginx.
  const child = spawn(NGINX, ['-p', dir, '-e', 'stderr', '-c', conf, '-g', 'daemon off;'], { stdio })
  let said = ''
  child.stderr?.on('data', (chunk) => (said = (said + chunk).slice(-2000)))
  try {
    await waitUntilAnswers(`http://127.0.0.1:${port}/healthz`, child, 'nginx')
  } catch (error) {
    throw new Error(`${/** @type {Error} */ (error).message}: ${said}`)
  }
  return { child, dir, conf }
}
