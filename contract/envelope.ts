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
  /** Request body over the size limit (64 kB); also the HTTP status. */
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
  /** Health check: the database did not answer. */
  SERVICE_UNAVAILABLE: 503,
} as const

/** Paged lists (DESIGN §3): pageNum from 1, pageSize default 10, at most 50. */
export const pageQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
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
