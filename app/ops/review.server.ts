import { type AppLoadContext, data } from '@remix-run/node'
import { z } from 'zod'
import { parseAmount } from '#contract/money'
import { reviewDeskApi } from '#contract/ops/review'
import { reasonCodes, type ReasonCode } from '#contract/orders'
import { MAX_UPLOAD_BYTES } from '#contract/uploads'
import { redirectWithStaffToast } from '~/ops/session.server'
import { accessMessages } from '~/utils/messages'
import { isMultipart, MultipartError, readMultipart, readSmallForm, refusedBodyHeaders } from '~/utils/multipart.server'
import type { FlowResult } from '../upstream/flow.server'
import { uploadProofFlow } from '../upstream/uploads.server'
import { FormRefusedError, guardForm } from '../utils/form-parse.server'
import { checkDeskForm } from './desk-move.server'
import { staffFlow, type SignedInStaff } from './staff.server'

/**
 * The review desk's moves on one order (app/ops/routes/ops.review.$orderId.tsx): claim, reveal,
 * complete, propose, reject with a proof photo. A refusal comes back as `{ intent, error }` for
 * the form that asked; a decision opens the next waiting order.
 */

export type DecisionReply = { intent: string; error?: string; codes?: Record<string, string[]> }

const refused = (intent: string, error: string, status = 400) =>
  data<DecisionReply>({ intent, error }, { status, headers: { 'Cache-Control': 'no-store' } })

/** A file part that is empty (no file chosen) is no proof: nothing is uploaded. */
async function nonEmpty(stream: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array> | null> {
  const it = stream[Symbol.asyncIterator]()
  let first = await it.next()
  while (!first.done && first.value.length === 0) first = await it.next()
  if (first.done) return null
  const head = first.value
  return (async function* () {
    yield head
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value
  })()
}

/** The form, and the proof photo uploaded as this reviewer when one came with it. */
async function readDecision(request: Request, context: AppLoadContext, staff: SignedInStaff) {
  if (!isMultipart(request)) return { form: await readSmallForm(context, request), proof: undefined }
  const { form, files } = await readMultipart(
    request,
    { files: 1, fileBytes: MAX_UPLOAD_BYTES, fields: 40, fieldBytes: 2048 },
    async (file, signal): Promise<FlowResult<{ fileId: string }> | null> => {
      const photo = file.name === 'proof' ? await nonEmpty(file.stream) : null
      if (!photo) {
        for await (const _ of file.stream); // not a proof: read past it
        return null
      }
      return uploadProofFlow(request, context, staff.token, photo, signal)
    },
  )
  try {
    guardForm(form)
  } catch (error) {
    if (!(error instanceof FormRefusedError)) throw error
    throw data({ message: error.status === 413 ? accessMessages.tooLarge : accessMessages.formUnreadable }, { status: error.status })
  }
  return { form, proof: files.find((f) => f.result)?.result ?? undefined }
}

const NOTE = 'Note: at most 500 characters'
const REASON = 'What the seller reads: at most 500 characters'
const CHOOSE_REASON = 'Choose the reason for the rejection'
/** A text box of the desk: its sentence past 500 characters; left empty it says nothing. */
const note = (message: string) =>
  z
    .string()
    .max(500, message)
    .transform((v) => v.trim() || undefined)
/** A card's own fields on the propose form: `payout-<cardId>` and `reason-<cardId>`. */
const CARD_FIELD = /^(payout|reason)-[\w-]{1,64}$/

/**
 * The order page's five forms: claim, reveal, complete, propose (a payout and a reason per card, by
 * the card's id) and reject (its photo is a file part, read apart).
 */
const decisionForm = z
  .discriminatedUnion('intent', [
    z.object({ intent: z.literal('claim') }).strict(),
    z.object({ intent: z.literal('reveal') }).strict(),
    z.object({ intent: z.literal('complete'), note: note(NOTE).optional() }).strict(),
    z
      .object({ intent: z.literal('propose'), reason: note(REASON).optional() })
      .catchall(z.string().max(24, 'Card payout: an amount like 1500 or 1500.50')),
    z
      .object({
        intent: z.literal('reject'),
        reasonCode: z.enum(reasonCodes, { errorMap: () => ({ message: CHOOSE_REASON }) }),
        note: note(NOTE).optional(),
      })
      .strict(),
  ])
  .superRefine((form, ctx) => {
    if (form.intent !== 'propose') return
    const unknown = Object.keys(form).filter((k) => k !== 'intent' && k !== 'reason' && !CARD_FIELD.test(k))
    if (unknown.length) ctx.addIssue({ code: 'unrecognized_keys', keys: unknown })
  })
type ProposeForm = Extract<z.output<typeof decisionForm>, { intent: 'propose' }>

/** The lower payouts asked for, card by card of this order; a card field of another order is not ours. */
function proposal(form: ProposeForm, cards: { cardId: string }[], currency: string) {
  const ours = new Set(cards.flatMap((c) => [`payout-${c.cardId}`, `reason-${c.cardId}`]))
  const stray = Object.keys(form).filter((k) => CARD_FIELD.test(k) && !ours.has(k))
  if (stray.length) return { error: `This form does not take ${stray.slice(0, 3).join(', ')}` }
  const out: { cardId: string; payout: number; reasonCode: ReasonCode }[] = []
  for (const c of cards) {
    const amount = form[`payout-${c.cardId}`]?.trim()
    if (!amount) continue
    const payout = parseAmount(amount, currency)
    if (payout === undefined) return { error: `Card payout "${amount}" is not an amount` }
    const code = form[`reason-${c.cardId}`] ?? 'OTHER'
    out.push({ cardId: c.cardId, payout, reasonCode: (reasonCodes as readonly string[]).includes(code) ? (code as ReasonCode) : 'OTHER' })
  }
  return out.length === 0 ? { error: 'Give a lower payout for at least one card' } : { cards: out }
}

/** The order to open after a decision: the oldest waiting one that is not this one, else the queue. */
async function nextOrder(request: Request, context: AppLoadContext, id: string): Promise<string> {
  const queue = await staffFlow(request, context, reviewDeskApi.queue, { pageNum: 1, pageSize: 10, status: 'pending' })
  const next = queue.success ? queue.data.list.find((o) => o.id !== id) : undefined
  return next ? `/ops/review/${next.id}` : '/ops/review'
}

export async function decide(request: Request, context: AppLoadContext, staff: SignedInStaff, id: string) {
  let read
  try {
    read = await readDecision(request, context, staff)
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error
    const tooLarge = error.reason === 'file-too-large' || error.reason === 'body-too-large'
    return data<DecisionReply>(
      { intent: 'reject', error: tooLarge ? 'The proof photo is larger than 5 MB' : 'The form could not be read. Try again' },
      { status: tooLarge ? 413 : 400, headers: refusedBodyHeaders },
    )
  }
  const { proof } = read
  const form = checkDeskForm(read.form, decisionForm, 'Choose what to do with this order')
  if (!form.ok) return refused(INTENTS.has(form.raw.intent ?? '') ? (form.raw.intent ?? '') : '', form.problem)
  const move = form.value
  const here = `/ops/review/${id}`
  const done = async (message: string) =>
    redirectWithStaffToast(request, await nextOrder(request, context, id), { type: 'success', message })
  switch (move.intent) {
    case 'claim': {
      const r = await staffFlow(request, context, reviewDeskApi.claim, { id })
      return r.success
        ? redirectWithStaffToast(request, here, { type: 'success', message: `You hold ${r.data.orderNo} for 30 minutes` })
        : refused(move.intent, r.msg)
    }
    case 'reveal': {
      const r = await staffFlow(request, context, reviewDeskApi.reveal, { id })
      if (!r.success) return refused(move.intent, r.msg)
      const codes = Object.fromEntries(r.data.cards.map((c) => [c.cardId, c.codes]))
      return data<DecisionReply>({ intent: move.intent, codes }, { headers: { 'Cache-Control': 'no-store' } })
    }
    case 'complete': {
      const r = await staffFlow(request, context, reviewDeskApi.complete, { id, note: move.note })
      return r.success ? done(`${r.data.orderNo} completed: the seller is paid`) : refused(move.intent, r.msg)
    }
    case 'propose': {
      const order = await staffFlow(request, context, reviewDeskApi.detail, { id, codes: 'hide' })
      if (!order.success) return refused(move.intent, order.msg)
      const p = proposal(move, order.data.cards, order.data.payoutCurrency)
      if ('error' in p) return refused(move.intent, p.error ?? '')
      const r = await staffFlow(request, context, reviewDeskApi.propose, { id, reason: move.reason ?? '', cards: p.cards })
      return r.success ? done(`${r.data.orderNo}: a lower payout is offered to the seller`) : refused(move.intent, r.msg)
    }
    case 'reject': {
      if (proof && !proof.success) return refused(move.intent, proof.msg)
      const r = await staffFlow(request, context, reviewDeskApi.reject, {
        id,
        reasonCode: move.reasonCode,
        note: move.note,
        proofImageId: proof?.success ? proof.data.fileId : undefined,
      })
      return r.success ? done(`${r.data.orderNo} rejected`) : refused(move.intent, r.msg)
    }
  }
}

/** The forms of the page, so a refusal shows beside the form that asked. */
const INTENTS = new Set(['claim', 'reveal', 'complete', 'propose', 'reject'])
