import type { z } from 'zod'
import { badRequest } from './envelope'
import { msg } from './messages'

/** The first problem, as "field: message" (SPEC §8 shows HTTP 400 msg to the person). */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return msg.invalidRequest
  if (issue.code === 'unrecognized_keys') {
    return `${issue.path.concat(issue.keys[0] ?? '').join('.')}: ${msg.unknownField}`
  }
  const field = issue.path.length ? issue.path.join('.') : 'body'
  return `${field}: ${issue.message}`
}

/** Parses input with a contract schema or throws a 400 ApiError naming the field. */
export function parseInput<S extends z.ZodTypeAny>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input)
  if (!result.success) throw badRequest(describeZodError(result.error))
  return result.data
}
