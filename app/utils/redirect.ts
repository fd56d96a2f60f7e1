/**
 * Only same-origin paths may be redirect targets (open-redirect defence).
 * Refused: absolute URLs, protocol-relative `//x`, `/\x` (browsers read `\` as `/`),
 * and the same hidden behind percent-encoding (`%5C`, `%2F`) or control characters.
 * The target as sent must be printable ASCII: it goes into a Location header, which cannot hold
 * `\u3000` (a 500 before), and a full-width `／` is a slash to some readers. Our own targets are
 * built by the URL parser, so they are percent-encoded already.
 */
export function safeRedirect(to: unknown, fallback = '/'): string {
  if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback
  if (!/^[\x21-\x7e]+$/.test(to)) return fallback
  let decoded = to
  try {
    // Decode twice: a target may travel through one more query string.
    decoded = decodeURIComponent(decodeURIComponent(to))
  } catch {
    return fallback
  }
  for (const value of [to, decoded]) {
    if (!value.startsWith('/')) return fallback
    if (value.startsWith('//')) return fallback
    if (value.includes('\\')) return fallback
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(value)) return fallback
  }
  // Last line of defence: the URL parser must keep it on our origin.
  const base = 'http://same.invalid'
  const url = new URL(to, base)
  if (url.origin !== base) return fallback
  return to
}
