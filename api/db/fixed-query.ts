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

/** Where a value goes in a query compiled once: the builder passes it on as a value, untouched. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A query whose shape never changes but whose values do (a moment, a day's bounds): built and
 * compiled once per database handle with a slot where each value goes, then run with each slot's
 * value in its place. `build` must pass its `values` into the query as they are (a slot is not a
 * number to compute with); a value it used otherwise has no slot in the compiled query, and the
 * first run says so.
 */
export function slottedQuery<Values extends Record<string, unknown>, Row>(
  build: (db: Db, values: Values) => Compilable<Row>,
): (db: Db, values: Values) => Promise<Row[]> {
  const compiled = new WeakMap<Db, CompiledQuery<Row>>()
  const compile = (db: Db, values: Values) => {
    const asked = new Set<string>()
    const slots = new Proxy({} as Values, {
      get: (_, name) => {
        if (typeof name !== 'string') return undefined
        asked.add(name)
        return new Slot(name)
      },
    })
    const query = build(db, slots).compile()
    const placed = new Set(query.parameters.flatMap((p) => (p instanceof Slot ? [p.name] : [])))
    for (const name of asked)
      if (!placed.has(name)) throw new Error(`slottedQuery: the value ${name} was used to build the query, not passed into it`)
    for (const name of Object.keys(values))
      if (!placed.has(name)) throw new Error(`slottedQuery: the value ${name} has no place in the query`)
    return query
  }
  return async (db, values) => {
    let query = compiled.get(db)
    if (!query) {
      query = compile(db, values)
      compiled.set(db, query)
    }
    const parameters = query.parameters.map((p) => {
      if (!(p instanceof Slot)) return p
      const value = values[p.name]
      if (value === undefined) throw new Error(`slottedQuery: no value for ${p.name}`)
      return value
    })
    return (await db.executeQuery<Row>({ ...query, parameters })).rows
  }
}

/**
 * `slottedQuery` with the values by position: `preparedQuery(2, (db, userId, now) => …)` is called
 * `(db, userId, now)`. The same rule: each argument goes into the query as one value, untouched.
 */
export function preparedQuery<Args extends readonly (string | number)[], Row>(
  arity: Args['length'],
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const run = slottedQuery<Record<string, string | number>, Row>((db, values) =>
    build(db, ...(Array.from({ length: arity }, (_, i) => values[`argument ${i}`]) as unknown as Args)),
  )
  return (db, ...args) => run(db, Object.fromEntries(args.map((value, i) => [`argument ${i}`, value])))
}
