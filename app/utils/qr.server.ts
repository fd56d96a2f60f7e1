import QRCode from 'qrcode'
import { getWebEnv } from './env.server'

/**
 * The address the /download QR code opens, and the code itself, drawn on the server as SVG.
 *
 * Only PUBLIC_URL is trusted for it. The request's Host (or X-Forwarded-Host) is whatever the
 * client sent: put into a page, a forged one would turn the QR code into a link to someone
 * else's site for anyone a cache served that page to. Without PUBLIC_URL no QR code is drawn.
 */
export function siteUrl(): string | null {
  const configured = getWebEnv().PUBLIC_URL
  return configured ? new URL('/', configured).toString() : null
}

const cache = new Map<string, Promise<string>>()

/** The QR code of `url` as an SVG document (dark modules on white, whatever the theme: scanners need it). */
export function qrSvg(url: string): Promise<string> {
  let svg = cache.get(url)
  if (!svg) {
    svg = QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } })
    svg.catch(() => cache.delete(url))
    cache.set(url, svg)
  }
  return svg
}

/**
 * A QR code of a secret (an authenticator's otpauth:// URI): drawn fresh and never kept, so the
 * seed lives only as long as the page that shows it.
 */
export const secretQrSvg = (text: string): Promise<string> =>
  QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } })
