/**
 * A form's bytes, read whole: the web process lets a plain form's body this far and no further
 * (server/body-limit.ts, FORM_BODY_LIMIT; tests/web/body-limit.test.ts holds the two equal).
 */
export const FORM_MAX_BYTES = 256 * 1024

/**
 * What a posted form may hold before conform sees it. conform turns `a[3].b` names into nested
 * arrays and objects (one short field became an array of a hundred million elements) and joins
 * repeated names with a copy each time (enough empty fields hold a core for seconds). Our forms have
 * a handful of flat fields; lists, when a screen has them, stay short.
 */
export const FORM_LIMITS = {
  /** Entries in one form, repeats included: conform's work grows with the square of repeats. */
  maxFields: 100,
  maxNameLength: 100,
  /** Segments of a name's path: `cards[2].code` is 3. */
  maxDepth: 4,
  /** The highest list index a name may use: `cards[49]`. */
  maxIndex: 49,
}
export type FormLimits = typeof FORM_LIMITS

/** conform's reserved fields (@conform-to/dom's INTENT and STATE). */
const INTENT = '__intent__'
const STATE = '__state__'

/** A form over the limits: 413 for too many fields, 400 for names or reserved fields no form of ours sends. */
export class FormRefusedError extends Error {
  constructor(
    readonly status: 400 | 413,
    reason: string,
  ) {
    super(reason)
    this.name = 'FormRefusedError'
  }
}

/**
 * Reads a posted form within the limits, or null when the body is not a form at all (JSON, text,
 * broken multipart). A urlencoded body is counted before it is parsed: 80 000 empty fields are
 * refused in about a millisecond, not after 80 000 entries were built.
 */
export async function parseForm(request: Request, limits: FormLimits = FORM_LIMITS): Promise<FormData | null> {
  if (/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')) {
    let text: string
    try {
      text = await textWithin(request, FORM_MAX_BYTES)
    } catch (error) {
      if (error instanceof FormRefusedError) throw error
      return null
    }
    let pieces = 1
    for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
      if (++pieces > limits.maxFields) throw new FormRefusedError(413, `more than ${limits.maxFields} fields`)
    }
    const form = new FormData()
    for (const [name, value] of new URLSearchParams(text)) form.append(name, value)
    return guardForm(form, limits)
  }
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    return null
  }
  return guardForm(form, limits)
}

/**
 * The body as text, at most `maxBytes` of it. server.ts already holds form routes to that; a route
 * with a larger, streamed limit (uploads) that reads a plain form here is held to it too.
 */
async function textWithin(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      throw new FormRefusedError(413, `body over ${maxBytes} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, size).toString('utf8')
}

/** Checks a parsed form, in time linear in its entries; throws FormRefusedError past the limits. */
export function guardForm(form: FormData, limits: FormLimits = FORM_LIMITS): FormData {
  let count = 0
  for (const [name, value] of form) {
    if (++count > limits.maxFields) throw new FormRefusedError(413, `more than ${limits.maxFields} fields`)
    if (name === INTENT || name === STATE) checkReserved(name, value, limits)
    else checkName(name, limits)
  }
  return form
}

/**
 * Path segments that reach an object's prototype: conform walks a name's segments into plain
 * objects, so `__proto__` or `constructor.prototype` would write to (or throw on) Object's own.
 */
const PROTOTYPE_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * A name as conform reads it: segments `a`, `.b`, `[3]`, `[]`. Its depth and list indices are
 * bounded, and no segment may name a prototype; a name conform cannot read at all it ignores, so
 * only length matters for those.
 */
function checkName(name: string, limits: FormLimits) {
  if (name.length > limits.maxNameLength) throw new FormRefusedError(400, 'field name too long')
  const segments = name.match(/[^.[\]]+|\[\d*\]/g) ?? []
  if (segments.length > limits.maxDepth) throw new FormRefusedError(400, 'field name nested too deep')
  for (const segment of segments) {
    if (PROTOTYPE_SEGMENTS.has(segment)) throw new FormRefusedError(400, 'field name reaches a prototype')
    if (/^\[\d+\]$/.test(segment) && Number(segment.slice(1, -1)) > limits.maxIndex) throw new FormRefusedError(400, 'list index too large')
  }
}

const INTENT_TYPES = new Set(['validate', 'update', 'reset', 'insert', 'remove', 'reorder'])

/**
 * conform's own fields: a JSON intent (a button's `form.insert()`, `form.reset()`…) and its JSON
 * state. conform throws on anything else; and an intent's name and indices are paths like any other.
 */
function checkReserved(name: string, value: FormDataEntryValue, limits: FormLimits) {
  if (typeof value !== 'string') throw new FormRefusedError(400, `${name} is not text`)
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    throw new FormRefusedError(400, `${name} is not JSON`)
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FormRefusedError(400, `${name} is not an object`)
  if (name === STATE) return
  const { type, payload } = parsed as { type?: unknown; payload?: unknown }
  if (typeof type !== 'string' || !INTENT_TYPES.has(type) || !payload || typeof payload !== 'object') {
    throw new FormRefusedError(400, 'unknown intent')
  }
  const { name: field, index, from, to } = payload as Record<string, unknown>
  for (const position of [index, from, to]) {
    if (position === undefined) continue
    if (!Number.isInteger(position) || (position as number) < 0 || (position as number) > limits.maxIndex) {
      throw new FormRefusedError(400, 'intent index out of range')
    }
  }
  if (field === undefined || field === '') return
  if (typeof field !== 'string') throw new FormRefusedError(400, 'intent name invalid')
  checkName(field, limits)
}
