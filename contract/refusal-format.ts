/**
 * What a refusal record is and how its sentence is filled (refusals.ts holds the records). Apart
 * from the table so a rule that refuses in its own words (rates.ts) does not load every refusal.
 */
export type Refusal = { readonly code: number; readonly msg: string }

/** The names of a sentence's `{placeholders}`. */
type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never

/** What a refusal's sentence needs: nothing for a fixed sentence, a value for each placeholder otherwise. */
export type RefusalParams<R extends Refusal> = [Placeholders<R['msg']>] extends [never]
  ? []
  : [Record<Placeholders<R['msg']>, string | number>]

/** The refusal's sentence with its placeholders filled. */
export function formatRefusal<R extends Refusal>(refusal: R, ...params: RefusalParams<R>): string {
  const values: Record<string, string | number> = params[0] ?? {}
  return refusal.msg.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
}
