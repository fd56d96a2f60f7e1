import net from 'node:net'

/**
 * Who is calling, as the api will count them (its per-address limits). Express decides from the
 * socket and, only for connections from a proxy we name, X-Forwarded-For.
 *
 * TRUST_PROXY is a comma list of the proxies' addresses or subnets (`10.0.0.7`, `10.0.0.0/8`,
 * `fd00::/8`) or Express's names (`loopback`, `linklocal`, `uniquelocal`). Anything else would let
 * a client pick its own address: `true` believes every X-Forwarded-For, and a hop count believes
 * one the client wrote whenever the port can be reached without the proxy. Both are refused in
 * production and warned about elsewhere.
 */
export type TrustProxy = { value: false | string[] | true | number; unsafe: string | null }

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal'])

export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? ''
  if (value === '' || value === 'false') return { value: false, unsafe: null }
  if (value === 'true') return { value: true, unsafe: 'TRUST_PROXY=true lets any client choose its address with X-Forwarded-For' }
  if (/^\d+$/.test(value)) {
    return {
      value: Number(value),
      unsafe: `TRUST_PROXY=${value} (a hop count) lets any client that reaches this port directly choose its address`,
    }
  }
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const entry of entries) {
    if (!isProxyEntry(entry)) {
      throw new Error(`TRUST_PROXY: "${entry}" is not an address, a subnet or one of loopback, linklocal, uniquelocal`)
    }
  }
  return { value: entries, unsafe: null }
}

function isProxyEntry(entry: string): boolean {
  if (NAMED.has(entry)) return true
  const [address, bits, ...rest] = entry.split('/')
  const family = net.isIP(address)
  if (!family || rest.length) return false
  if (bits === undefined) return true
  if (!/^\d{1,3}$/.test(bits)) return false
  return Number(bits) <= (family === 4 ? 32 : 128)
}

/** One spelling per client: `::ffff:192.0.2.1` (IPv4 on a dual-stack socket) is 192.0.2.1. */
export function normalizeAddress(address: string | undefined): string {
  if (!address) return ''
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return mapped ? mapped[1] : address
}
