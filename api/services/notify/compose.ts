import type { NotifyKind } from '#contract/notify'
import type { NotificationsTable } from '../../db/schema'
import type { Mail } from '../../lib/mailer'
import { LOCKED_KINDS, NOTIFY_LABELS } from './kinds'

/** What a push and an e-mail of one notification say (decision 046). */

type Notification = Pick<NotificationsTable, 'id' | 'kind' | 'title' | 'content' | 'ref_id'>

/** The screen a notification opens (the web's paths, as its Notifications screen links them). */
export function screenPath(n: Pick<Notification, 'kind' | 'ref_id'>): string {
  if (n.kind === 'order' && n.ref_id) return `/order/${encodeURIComponent(n.ref_id)}`
  if (n.kind === 'withdrawal' && n.ref_id) return `/wallet/withdraw/${encodeURIComponent(n.ref_id)}`
  if (n.kind === 'support' && n.ref_id) return `/support/${encodeURIComponent(n.ref_id)}`
  if (n.kind === 'security') return '/account'
  return '/notification'
}

/**
 * The push payload the service worker shows: `title`, `body`, `url` to open on a click, `tag` (the
 * notification's id: a push sent twice replaces itself on the device). The body is the summary
 * without amounts unless the person allowed amounts on the lock screen.
 */
export function pushPayload(n: Notification, summary: string, amounts: boolean): string {
  return JSON.stringify({ title: n.title, body: amounts ? n.content : summary, url: screenPath(n), tag: n.id })
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * The e-mail: a text part, an HTML part with the brand, the link to the screen, and, for a kind
 * that can be turned off, the one-click unsubscribe (RFC 8058) with the person's signed token.
 */
export function notificationMail(o: {
  to: string
  n: Notification
  kind: NotifyKind
  brandName: string
  publicUrl: string
  unsubscribeToken: string
  messageId: string
}): Mail {
  const link = `${o.publicUrl}${screenPath(o.n)}`
  const locked = LOCKED_KINDS.includes(o.kind)
  const unsubscribeUrl = `${o.publicUrl}/unsubscribe/${o.unsubscribeToken}`
  const footer = locked
    ? `This is a security e-mail from ${o.brandName}: it cannot be turned off.`
    : `You get this because e-mails about "${NOTIFY_LABELS[o.kind]}" are on. Stop them: ${unsubscribeUrl}`
  const text = `${o.n.content}\n\nOpen it: ${link}\n\n-- \n${o.brandName}\n${footer}\n`
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1a1a;max-width:560px;margin:0 auto;padding:16px">',
    `<p style="font-weight:700;font-size:18px;color:#0b6b4f">${escapeHtml(o.brandName)}</p>`,
    `<h1 style="font-size:20px">${escapeHtml(o.n.title)}</h1>`,
    `<p>${escapeHtml(o.n.content)}</p>`,
    `<p><a href="${escapeHtml(link)}" style="color:#0b6b4f">Open it in ${escapeHtml(o.brandName)}</a></p>`,
    `<p style="font-size:12px;color:#555">${
      locked
        ? escapeHtml(footer)
        : `You get this because e-mails about “${escapeHtml(NOTIFY_LABELS[o.kind])}” are on. <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a>`
    }</p>`,
    '</body></html>',
  ].join('')
  return {
    to: o.to,
    subject: o.n.title,
    text,
    html,
    messageId: o.messageId,
    ...(!locked && { headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }),
  }
}
