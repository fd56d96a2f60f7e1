import { isIP } from 'node:net'

/**
 * Who is calling, as far as limits are concerned.
 *
 * The api believes a forwarded visitor address (`X-Forwarded-For`) only from the web tier named in
 * TRUST_PROXY (api/config.ts; Express applies it as `trust proxy`), so `req.ip` is the visitor when
 * the web forwards it and the caller's own address otherwise. This turns that address into the key
 * every per-address limit counts under.
 */

/**
 * IPv4 as is; IPv6 by its /64, the block one subscriber gets (RFC 6177): a client rotating through
 * the 2^64 addresses of its own /64 is one client. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is the IPv4.
 * Anything that is not an address shares the key `invalid`.
 */
export function clientKey(ip: string | undefined): string {
  const address = (ip ?? '').split('%')[0] // a zone index (fe80::1%eth0) does not make another client
  const family = isIP(address)
  if (family === 4) return address
  if (family !== 6) return 'invalid'
  const groups = ipv6Groups(address)
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.')
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail split in two). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase()
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number)
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0')
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16))
}

/** Address ranges Express's `trust proxy` knows by name. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/**
 * TRUST_PROXY: the web tier whose `X-Forwarded-For` is believed, as a comma list of addresses,
 * subnets (CIDR) and the names loopback, linklocal, uniquelocal; or `none` to believe no one (every
 * caller is counted at the address it connects from). Answers the list (empty for `none`) or why
 * the value is refused. `true` and hop counts are refused: they believe whoever connects, so any
 * client that reaches the api's port could pick its own address and escape every per-address limit.
 * Subnets wider than a /8 (IPv4) or /32 (IPv6) are refused for the same reason.
 */
export function parseTrustedWeb(value: string): { entries: string[] } | { problem: string } {
  const text = value.trim()
  if (text === 'none') return { entries: [] }
  if (text === 'true' || /^\d+$/.test(text)) {
    return { problem: 'true or a hop count would believe any caller; list the web servers (e.g. loopback, 10.0.1.0/24), or none' }
  }
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (!entries.length) return { problem: 'list the web servers (e.g. loopback, 10.0.1.0/24), or none' }
  for (const entry of entries) {
    if (RANGE_NAMES.has(entry)) continue
    const [address, prefix, extra] = entry.split('/')
    const family = isIP(address)
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN
    if (!family || extra !== undefined || !(bits <= (family === 4 ? 32 : 128))) {
      return { problem: `"${entry}" is not an address, a subnet (10.0.1.0/24) or one of loopback, linklocal, uniquelocal` }
    }
    if (bits < (family === 4 ? 8 : 32)) return { problem: `"${entry}" is wider than the web tier; name its hosts or subnet` }
  }
  return { entries }
}
