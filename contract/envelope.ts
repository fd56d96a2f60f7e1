import { z } from 'zod'

/**
 * Every api answer is an envelope. `code` 200 is success (SPEC §3, §9);
 * 400 bad input, 401 missing/expired token; business refusals answer HTTP 200
 * with their own 4xxx code and a human `msg` (DESIGN §3).
 */
export type Envelope<T = unknown> = { code: number; msg: string; data: T }

export const Code = {
  OK: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** Request body over the size limit; also the HTTP status. */
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
  /** Health check: the database did not answer. */
  SERVICE_UNAVAILABLE: 503,
} as const

/** Paged lists (DESIGN §3): pageNum from 1, pageSize default 10, at most 50. */
const wholeNumber = (words: string, max: number) => z.coerce.number({ invalid_type_error: words }).int(words).min(1, words).max(max, words)

/** The page asked for: the web's console reads its `?page=` with the same words. */
export const pageNumField = wholeNumber('a whole page number from 1 to 100000', 100_000)

export const pageQuerySchema = z.object({
  pageNum: pageNumField.default(1),
  pageSize: wholeNumber('a whole number of rows from 1 to 50', 50).default(10),
})
export type PageQuery = z.infer<typeof pageQuerySchema>

export const pageSchema = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    list: z.array(item),
    total: z.number().int().nonnegative(),
    pageNum: z.number().int().positive(),
    pageSize: z.number().int().positive(),
  })
export type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number }
