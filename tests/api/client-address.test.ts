import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { clientKey } from '../../api/lib/client-address'

/** The key every per-address limit counts under (api/lib/client-address.ts). */

describe('clientKey', () => {
  test.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:cb00:7109', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['not an address', 'invalid'],
    ['', 'invalid'],
    [undefined, 'invalid'],
  ])('%j → %j', (ip, key) => {
    expect(clientKey(ip)).toBe(key)
  })

  const group = fc.integer({ min: 0, max: 0xffff })
  const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n })
  const text = (gs: number[]) => gs.map((g) => g.toString(16)).join(':')

  test('every address inside one /64 is one client, written any way', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), (prefix, a, b) => {
        fc.pre(prefix.some((g) => g !== 0)) // ::/64 holds the IPv4-mapped addresses, counted as IPv4
        expect(clientKey(text([...prefix, ...a]))).toBe(clientKey(text([...prefix, ...b])))
        expect(clientKey(text([...prefix, ...a]).toUpperCase())).toBe(clientKey(text([...prefix, ...a])))
      }),
    )
  })

  test('addresses in different /64s are different clients', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), (p, q, rest) => {
        fc.pre(p.some((g, i) => g !== q[i]) && p.some((g) => g !== 0) && q.some((g) => g !== 0))
        expect(clientKey(text([...p, ...rest]))).not.toBe(clientKey(text([...q, ...rest])))
      }),
    )
  })
})
