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

/** A value of the compiled text: one of the call's arguments (by position), or the query's own. */
type Slot = { arg: number } | { value: unknown }

/**
 * A query whose shape never changes, only its values (a user id, a moment): built and compiled
 * once per database handle with a stand-in for each argument, then run with the call's values in
 * the stand-ins' places. The builder must hand each argument to the query as one value and do
 * nothing else with it (no branch on it, no list, no arithmetic): an argument that does not come
 * out as a parameter of its own, or a stand-in found nowhere, is refused when it compiles.
 */
export function preparedQuery<Args extends readonly (string | number)[], Row>(
  arity: Args['length'],
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const compiled = new WeakMap<Db, { query: CompiledQuery<Row>; slots: Slot[] }>()
  return async (db, ...args) => {
    let prepared = compiled.get(db)
    if (!prepared) {
      prepared = prepare<Row>(db, arity, build as unknown as (db: Db, ...args: unknown[]) => Compilable<Row>)
      compiled.set(db, prepared)
    }
    const { query, slots } = prepared
    const parameters = slots.map((s) => ('arg' in s ? args[s.arg] : s.value))
    return (await db.executeQuery<Row>({ ...query, parameters })).rows
  }
}

function prepare<Row>(db: Db, arity: number, build: (db: Db, ...args: unknown[]) => Compilable<Row>) {
  // Stand-ins no caller's value can equal: the compiled parameters are compared by identity.
  const standIns = Array.from({ length: arity }, (_, i) => Object.freeze({ preparedArgument: i }))
  const query = build(db, ...standIns).compile()
  const slots: Slot[] = query.parameters.map((value) => {
    const arg = standIns.indexOf(value as (typeof standIns)[number])
    return arg >= 0 ? { arg } : { value }
  })
  for (let i = 0; i < arity; i++) {
    if (!slots.some((s) => 'arg' in s && s.arg === i)) throw new Error(`preparedQuery: argument ${i} is not a parameter of the query`)
  }
  return { query, slots }
}
