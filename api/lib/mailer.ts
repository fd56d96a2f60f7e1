import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { Logger } from './logger'

export type Mail = {
  to: string
  subject: string
  text: string
  /** Which kind of code this mail carries, if any; only the in-memory mailer keeps it (for tests). */
  codeType?: number
}

export interface Mailer {
  send(mail: Mail): Promise<void>
  close?(): Promise<void>
}

/** Real delivery through the SMTP server in SMTP_URL (smtp://user:pass@host:587, smtps://…). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text })
    },
    async close() {
      transport.close()
    },
  }
}

/**
 * Without SMTP (the embedded default): each mail is printed to the console and saved as an .eml
 * file in the outbox folder, so a person trying the app can read their code.
 */
export function createOutboxMailer(
  outboxDir: string,
  from: string,
  print: (text: string) => void = (t) => process.stdout.write(t),
): Mailer {
  let made: Promise<unknown> | undefined
  let seq = 0
  return {
    async send(mail) {
      const date = new Date()
      const eml = [
        `From: ${from}`,
        `To: ${mail.to}`,
        `Subject: ${mail.subject}`,
        `Date: ${date.toUTCString()}`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        mail.text,
        '',
      ].join('\n')
      print(`\n----- mail (no SMTP_URL set) -----\n${eml}----- end of mail -----\n`)
      made ??= mkdir(outboxDir, { recursive: true })
      await made
      const safeTo = mail.to.replace(/[^a-z0-9@._-]/gi, '_')
      const name = `${date.toISOString().replace(/[:.]/g, '-')}-${String(++seq).padStart(4, '0')}-${safeTo}.eml`
      await writeFile(join(outboxDir, name), eml, { mode: 0o600 })
    },
  }
}

/** Keeps every mail in an array: the test suite reads codes from here. */
export function createMemoryMailer(): Mailer & { mails: Mail[] } {
  const mails: Mail[] = []
  return {
    mails,
    async send(mail) {
      mails.push({ ...mail })
    },
  }
}

/**
 * Sends without making the request wait: the answer to "send me a code" must not take longer when
 * an account exists (and a mail goes out) than when it does not. Failures are logged without the
 * mail's text. idle() lets shutdown and tests wait for what is still on its way.
 */
export type MailSender = { send(mail: Mail): void; idle(): Promise<void> }

export function createMailSender(mailer: Mailer, logger: Logger): MailSender {
  const pending = new Set<Promise<void>>()
  return {
    send(mail) {
      const p = mailer
        .send(mail)
        .catch((err: unknown) => logger.error({ err, to: mail.to, subject: mail.subject }, 'mail could not be sent'))
        .finally(() => pending.delete(p))
      pending.add(p)
    },
    async idle() {
      while (pending.size) await Promise.allSettled([...pending])
    },
  }
}
