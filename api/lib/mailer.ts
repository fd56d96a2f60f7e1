import { randomBytes } from 'node:crypto'
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
  /** The HTML alternative of `text` (notification e-mails, decision 046). */
  html?: string
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>
  /** `<id@host>`: the same delivery sent again carries the same one, so a mailbox can tell. */
  messageId?: string
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
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html !== undefined && { html: mail.html }),
        ...(mail.headers && { headers: mail.headers }),
        ...(mail.messageId !== undefined && { messageId: mail.messageId }),
      })
    },
    async close() {
      transport.close()
    },
  }
}

type Print = (text: string) => void
const stdout: Print = (t) => process.stdout.write(t)

function toEml(mail: Mail, from: string, date: Date): string {
  return [
    `From: ${from}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    `Date: ${date.toUTCString()}`,
    ...(mail.messageId ? [`Message-ID: ${mail.messageId}`] : []),
    ...Object.entries(mail.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    // The text part only: the HTML alternative goes by SMTP.
    'Content-Type: text/plain; charset=utf-8',
    '',
    mail.text,
    '',
  ].join('\n')
}

// scripts/lib/console-format.mjs finds printed mails by these two lines.
const printed = (eml: string) => `\n----- mail (MAIL_TRANSPORT is not smtp) -----\n${eml}----- end of mail -----\n`

/** MAIL_TRANSPORT=console: each mail, code included, is printed to the api's output. */
export function createConsoleMailer(from: string, print: Print = stdout): Mailer {
  return {
    async send(mail) {
      print(printed(toEml(mail, from, new Date())))
    },
  }
}

/**
 * MAIL_TRANSPORT=outbox (what `npm start` uses): each mail is printed and saved as an .eml file in
 * the outbox folder (readable by its owner only), so a person trying the app can read their code.
 * File names carry the time and a random part, never the address: an address may be 254
 * characters, over what a file name may hold, and the folder listing should not list who signed up.
 */
export function createOutboxMailer(outboxDir: string, from: string, print: Print = stdout): Mailer {
  let made: Promise<unknown> | undefined
  let seq = 0
  return {
    async send(mail) {
      const date = new Date()
      const eml = toEml(mail, from, date)
      print(printed(eml))
      made ??= mkdir(outboxDir, { recursive: true, mode: 0o700 })
      await made
      // Sorted by name is sorted by time; the random part keeps two api processes apart.
      const name = `${date.toISOString().replace(/[:.]/g, '-')}-${String(++seq).padStart(4, '0')}-${randomBytes(4).toString('hex')}.eml`
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
