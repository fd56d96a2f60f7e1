import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterEach, describe, expect, test } from 'vitest'
import { createConsoleMailer, createMailSender, createOutboxMailer, createSmtpMailer, type Mailer } from '../../api/lib/mailer'
import { verifyCodeMail } from '../../api/lib/messages'

/** The mailers: SMTP (MAIL_TRANSPORT=smtp), outbox files + console (outbox), console only (console), memory (tests). */

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

const mail = { to: 'reader@example.com', ...verifyCodeMail('Cardlane', 1, '042042', 10) }

test('without SMTP a mail is printed and saved as an .eml file in the outbox', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cardlane-outbox-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  const printed: string[] = []
  const mailer = createOutboxMailer(join(dir, 'outbox'), 'Cardlane <no-reply@cardlane.local>', (t) => printed.push(t))
  await mailer.send(mail)
  const files = await readdir(join(dir, 'outbox'))
  expect(files).toHaveLength(1)
  expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-\d{4}-[0-9a-f]{8}\.eml$/)
  expect((await stat(join(dir, 'outbox', files[0]))).mode & 0o777).toBe(0o600)
  const eml = await readFile(join(dir, 'outbox', files[0]), 'utf8')
  expect(eml).toContain('To: reader@example.com')
  expect(eml).toContain('From: Cardlane <no-reply@cardlane.local>')
  expect(eml).toContain('042042')
  expect(printed.join('')).toContain('042042')
})

test('the file name never holds the address: a 254-character address gets its mail too', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cardlane-outbox-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  const longest = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`
  expect(longest).toHaveLength(254)
  const mailer = createOutboxMailer(dir, 'Cardlane <no-reply@cardlane.local>', () => undefined)
  await mailer.send({ ...mail, to: longest })
  await mailer.send({ ...mail, to: 'second@example.com' })
  const files = (await readdir(dir)).sort()
  expect(files).toHaveLength(2)
  for (const f of files) expect(f).not.toMatch(/@|example|aaaa/)
  expect(await readFile(join(dir, files[0]), 'utf8')).toContain(`To: ${longest}`)
  expect(await readFile(join(dir, files[1]), 'utf8')).toContain('To: second@example.com')
})

test('MAIL_TRANSPORT=console prints the mail and writes no file', async () => {
  const printed: string[] = []
  await createConsoleMailer('Cardlane <no-reply@cardlane.local>', (t) => printed.push(t)).send(mail)
  expect(printed.join('')).toMatch(/^\n-{3,} mail\b[\s\S]*To: reader@example\.com[\s\S]*042042[\s\S]*-{3,} end of mail -{3,}\n$/)
})

/** Just enough SMTP to accept one message. */
function fakeSmtp(): Promise<{ port: number; received: string[]; server: Server }> {
  const received: string[] = []
  const server = createServer((socket: Socket) => {
    let data = false
    let buffer = ''
    socket.write('220 fake ESMTP\r\n')
    socket.on('data', (chunk) => {
      buffer += chunk.toString()
      let i: number
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i)
        buffer = buffer.slice(i + 2)
        if (data) {
          if (line === '.') {
            data = false
            socket.write('250 queued\r\n')
          } else received.push(line)
          continue
        }
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake\r\n')
        else if (verb === 'DATA') {
          data = true
          socket.write('354 go on\r\n')
        } else if (verb === 'QUIT') socket.end('221 bye\r\n')
        else socket.write('250 ok\r\n')
      }
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as { port: number }).port, received, server })),
  )
}

test('with SMTP_URL the mail goes to the SMTP server', async () => {
  const smtp = await fakeSmtp()
  cleanups.push(() => new Promise((r) => smtp.server.close(r)))
  const mailer = createSmtpMailer(`smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, 'Cardlane <no-reply@cardlane.local>')
  await mailer.send(mail)
  await mailer.close?.()
  const message = smtp.received.join('\n')
  expect(message).toContain('To: reader@example.com')
  expect(message).toContain('042042')
})

describe('sending in the background', () => {
  test('a failed delivery is logged with neither text nor code, and idle() waits for it', async () => {
    const lines: string[] = []
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(c, _e, done) {
          lines.push(String(c))
          done()
        },
      }),
    )
    const broken: Mailer = {
      send: () => new Promise((_, reject) => setTimeout(() => reject(new Error('connection refused')), 10)),
    }
    const sender = createMailSender(broken, logger)
    sender.send(mail)
    await sender.idle()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('mail could not be sent')
    expect(lines[0]).not.toContain('042042')
  })
})
