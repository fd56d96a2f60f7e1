import type { Db } from '../db/connect'

/** Where people signed in before (api/lib/sign-in-place.ts says what a place is). */

/**
 * Places anyone signed in from, held in memory (the most recent first, bounded), so a flood can be
 * turned away before it costs a query (middleware/shed-strangers.ts). Filled at start from the
 * table, then by every sign-in here; per database handle.
 */
const KNOWN_MAX = 50_000
const knownPlaces = new WeakMap<Db, Set<string>>()

function noteKnown(db: Db, places: string[]) {
  let known = knownPlaces.get(db)
  if (!known) knownPlaces.set(db, (known = new Set()))
  for (const place of places) {
    known.delete(place)
    known.add(place)
    if (known.size > KNOWN_MAX) known.delete(known.values().next().value as string)
  }
}

/** Reads the places of the most recent sign-ins into memory (at start). */
export async function loadKnownPlaces(db: Db): Promise<void> {
  const rows = await db.selectFrom('sign_in_places').select('place').orderBy('last_at', 'desc').limit(KNOWN_MAX).execute()
  noteKnown(db, rows.map((r) => r.place).reverse())
}

/** True when someone signed in from one of `places` before, by memory alone (no query). */
export const isPlaceKnownToAnyone = (db: Db, places: string[]): boolean => places.some((p) => knownPlaces.get(db)?.has(p))

/** Marks these places as this person's, as of `now`. */
export async function rememberPlaces(db: Db, userId: string, places: string[], now: number): Promise<void> {
  if (places.length === 0) return
  noteKnown(db, places)
  await db
    .insertInto('sign_in_places')
    .values(places.map((place) => ({ user_id: userId, place, last_at: now })))
    .onConflict((oc) => oc.columns(['user_id', 'place']).doUpdateSet({ last_at: now }))
    .execute()
}

/** The first of `places` where the account of `email` signed in before; undefined for a stranger (or no account). */
export async function knownPlaceOf(db: Db, email: string, places: string[]): Promise<string | undefined> {
  if (places.length === 0) return undefined
  const rows = await db
    .selectFrom('sign_in_places')
    .innerJoin('users', 'users.id', 'sign_in_places.user_id')
    .select('sign_in_places.place')
    .where('users.email', '=', email)
    .where('sign_in_places.place', 'in', places)
    .execute()
  return places.find((p) => rows.some((r) => r.place === p))
}

/**
 * A sign-in from a browser this person never used before, while they did sign in elsewhere: the
 * web's device id (a `d:` place) is new to them. Not on the first sign-in of an account, and not
 * when the caller has no device id (nothing to compare, so nothing is claimed).
 */
export async function isNewDevice(db: Db, userId: string, places: string[]): Promise<boolean> {
  const devices = places.filter((p) => p.startsWith('d:'))
  if (devices.length === 0) return false
  const rows = await db.selectFrom('sign_in_places').select('place').where('user_id', '=', userId).where('place', 'like', 'd:%').execute()
  return rows.length > 0 && !rows.some((r) => devices.includes(r.place))
}
