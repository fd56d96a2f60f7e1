import type { Db } from '../db/connect'

/** Where people signed in before (api/lib/sign-in-place.ts says what a place is). */

/** Marks these places as this person's, as of `now`. */
export async function rememberPlaces(db: Db, userId: string, places: string[], now: number): Promise<void> {
  if (places.length === 0) return
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
