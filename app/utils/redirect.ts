/**
 * Only same-origin paths may be redirect targets (open-redirect defence).
 * Refused: absolute URLs, protocol-relative `//x`, `/\x` (browsers read `\` as `/`),
 * and the same hidden behind percent-encoding (`%5C`, `%2F`) or control characters.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || to.length === 0 || to.length > 2048) return fallback
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
