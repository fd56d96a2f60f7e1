import type { Compilable, CompiledQuery } from 'kysely'
import type { Db } from './connect'

/**
 * A query without parameters compiles to the same text every time, and building it is most of
 * what a small read costs the api: it is built and compiled once per database handle and then
 * only run (a transaction is a handle of its own, so its reads stay inside it).
 */
export function fixedQuery<Row>(build: (db: Db) => Compilable<Row>): (db: Db) => Promise<Row[]> {
  const compiled = new WeakMap<Db, CompiledQuery<Row>>()
  return async (db) => {
    let query = compiled.get(db)
    if (!query) {
      query = build(db).compile()
      compiled.set(db, query)
    }
    return (await db.executeQuery(query)).rows
  }
}
