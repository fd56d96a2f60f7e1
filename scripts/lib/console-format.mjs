// What the console of `npm start` and `npm run dev` shows of the children's output (pino-pretty
// is not a dependency; this is the little of it we need): a JSON log line becomes one short line,
// requests for static files and health polls disappear, and a mailed code is one line that stands
// out instead of a mail dump. Anything else passes through as it came.

const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' }
const HIDDEN_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'service', 'msg', 'err'])
// The outbox mailer (api/lib/mailer.ts) prints each mail between these two lines.
const MAIL_START = /^-{3,} mail\b/
const MAIL_END = /^-{3,} end of mail -{3,}$/

/**
 * @param {{ color?: boolean, raw?: boolean }} options raw: pass every line unchanged (LOG_FORMAT=json)
 * @returns {(source: string, line: string) => string[]} the lines to print for one line of a child
 */
export function createConsoleFormat({ color = false, raw = false } = {}) {
  const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text)
  const mails = new Map()

  return function format(source, line) {
    if (raw) return [line]
    const mail = mails.get(source)
    if (mail) {
      if (!MAIL_END.test(line)) {
        mail.push(line)
        return []
      }
      mails.delete(source)
      return [formatMail(mail, paint)]
    }
    if (MAIL_START.test(line)) {
      mails.set(source, [])
      return []
    }
    const entry = parseJson(line)
    // Blank lines (the mailer opens each mail with one) and remix dev's handshake say nothing.
    if (!entry) return line.trim() === '' || line.startsWith('[REMIX DEV]') ? [] : [line]
    return formatEntry(source, entry, paint)
  }
}

function parseJson(line) {
  if (!line.startsWith('{')) return null
  try {
    const value = JSON.parse(line)
    return value && typeof value === 'object' && typeof value.level === 'number' ? value : null
  } catch {
    return null
  }
}

/** A static file, a health poll (npm start polls them, load balancers too): not worth a line when it worked. */
function isNoise(path, status) {
  if (status >= 400) return false
  // A page's data (`/x.data`, single fetch) is a page's request, not a file.
  return (
    path.startsWith('/assets/') || (/\.[a-z0-9]+$/i.test(path) && !path.endsWith('.data')) || path === '/healthcheck' || path === '/healthz'
  )
}

function formatEntry(source, entry, paint) {
  const time = paint(2, new Date(entry.time ?? Date.now()).toTimeString().slice(0, 8))
  const who = paint(source === 'api' ? 36 : 35, source.padEnd(3))
  if (entry.msg === 'request' && entry.method && entry.path) {
    if (isNoise(entry.path, entry.status)) return []
    const status = paint(entry.status >= 500 ? 31 : entry.status >= 400 ? 33 : 32, String(entry.status))
    // The api answers 200 with a business code in the body; show that code when it says more.
    const code = entry.code !== undefined && entry.code !== entry.status ? ` code ${entry.code}` : ''
    return [`${time} ${who} ${entry.method} ${entry.path} ${status}${code} ${paint(2, `${entry.ms}ms`)}`]
  }
  const level = LEVELS[entry.level] ?? String(entry.level)
  const label = level === 'info' ? '' : `${paint(entry.level >= 50 ? 31 : 33, level.toUpperCase())} `
  const extras = Object.entries(entry)
    .filter(([key]) => !HIDDEN_KEYS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
  const lines = [`${time} ${who} ${label}${entry.msg ?? ''}${extras.length ? paint(2, ` ${extras.join(' ')}`) : ''}`]
  const err = entry.err
  if (err && typeof err === 'object') {
    const stack = typeof err.stack === 'string' ? err.stack : `${err.type ?? 'Error'}: ${err.message ?? ''}`
    lines.push(...stack.split('\n').map((l) => `    ${l}`))
  }
  return lines
}

function formatMail(lines, paint) {
  const header = (name) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? '?'
  const to = header('To')
  const subject = header('Subject')
  const bodyStart = lines.indexOf('')
  const code = lines
    .slice(bodyStart < 0 ? 0 : bodyStart)
    .map((l) => l.trim())
    .find((l) => /^\d{4,8}$/.test(l))
  if (!code) return paint(1, `Mail to ${to}: ${subject}`)
  // "Your Cardlane code to sign in" → "sign in": what the code is for.
  const purpose = subject.match(/ code to (.+)$/)?.[1] ?? subject
  return `${paint(1, `Code for ${to}:`)} ${paint('1;7', code)} (${purpose})`
}
