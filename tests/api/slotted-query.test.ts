import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { createDb } from '../../api/db/connect'
import { slottedQuery } from '../../api/db/fixed-query'

/** A statement compiled once with a slot for each value (decision 056): each run its own values. */
const { db } = createDb(':memory:')
afterAll(() => db.destroy())

describe('slottedQuery', () => {
  it('compiles once and runs with each call’s values in their places', async () => {
    let built = 0
    const query = slottedQuery((d: typeof db, v: { a: number; b: string }) => {
      built++
      return d.selectNoFrom(() => [sql<number>`${v.a} + 1`.as('next'), sql<string>`${v.b}`.as('word'), sql<number>`${7}`.as('fixed')])
    })
    expect(await query(db, { a: 1, b: 'one' })).toEqual([{ next: 2, word: 'one', fixed: 7 }])
    expect(await query(db, { a: 41, b: 'two' })).toEqual([{ next: 42, word: 'two', fixed: 7 }])
    expect(built).toBe(1)
  })

  it('refuses a value the builder computed with instead of passing on, and a value with no place', async () => {
    const computed = slottedQuery((d: typeof db, v: { a: number }) => d.selectNoFrom(() => [sql<number>`${v.a * 2}`.as('x')]))
    await expect(computed(db, { a: 1 })).rejects.toThrow(/a was used to build the query/)
    const unused = slottedQuery((d: typeof db, _: { a: number }) => d.selectNoFrom(() => [sql<number>`${1}`.as('x')]))
    await expect(unused(db, { a: 1 })).rejects.toThrow(/a has no place/)
  })
})
