import { createHash } from 'node:crypto'
import type { Request } from 'express'
import { clientKey } from './client-address'

/**
 * Where a request comes from, in the words of `sign_in_places` (migration 0007): its address key
 * (`a:`, an IPv6 caller by its /64) and, when the web sent one, the digest of the device id it
 * keeps in the browser's cookie (`d:`). The device id is a random secret of that browser: only its
 * digest is stored, and nothing here logs it.
 */
export const DEVICE_HEADER = 'x-cardlane-device'
const DEVICE_ID = /^[A-Za-z0-9_-]{22,64}$/

/** The device first: it names one browser, an address may be shared. */
export function placesOf(req: Request): string[] {
  const places: string[] = []
  const device = req.get(DEVICE_HEADER)
  if (device && DEVICE_ID.test(device)) places.push(`d:${createHash('sha256').update(device).digest('base64url')}`)
  const address = clientKey(req.ip)
  if (address !== 'invalid') places.push(`a:${address}`)
  return places
}
