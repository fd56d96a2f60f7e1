import { type AppLoadContext, data } from '@remix-run/node'
import { parseAmount } from '#contract/money'
import { reviewDeskApi } from '#contract/ops/review'
import { reasonCodes, type ReasonCode } from '#contract/orders'
import { MAX_UPLOAD_BYTES } from '#contract/uploads'
import { redirectWithStaffToast } from '~/ops/session.server'
import { isMultipart, MultipartError, readMultipart, readSmallForm, refusedBodyHeaders } from '~/utils/multipart.server'
import type { FlowResult } from '../upstream/flow.server'
import { uploadProofFlow } from '../upstream/uploads.server'
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
  return { form, proof: files.find((f) => f.result)?.result ?? undefined }
}

const text = (form: FormData, name: string) => {
  const v = form.get(name)
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined
}

function proposal(form: FormData, cards: { cardId: string }[], currency: string) {
  const out: { cardId: string; payout: number; reasonCode: ReasonCode }[] = []
  for (const c of cards) {
    const amount = text(form, `payout-${c.cardId}`)
    if (amount === undefined) continue
    const payout = parseAmount(amount, currency)
    if (payout === undefined) return { error: `Card payout "${amount}" is not an amount` }
    const code = text(form, `reason-${c.cardId}`) ?? 'OTHER'
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
  const { form, proof } = read
  const intent = text(form, 'intent') ?? ''
  const here = `/ops/review/${id}`
  const done = async (message: string) =>
    redirectWithStaffToast(request, await nextOrder(request, context, id), { type: 'success', message })
  switch (intent) {
    case 'claim': {
      const r = await staffFlow(request, context, reviewDeskApi.claim, { id })
      return r.success
        ? redirectWithStaffToast(request, here, { type: 'success', message: `You hold ${r.data.orderNo} for 30 minutes` })
        : refused(intent, r.msg)
    }
    case 'reveal': {
      const r = await staffFlow(request, context, reviewDeskApi.reveal, { id })
      if (!r.success) return refused(intent, r.msg)
      const codes = Object.fromEntries(r.data.cards.map((c) => [c.cardId, c.codes]))
      return data<DecisionReply>({ intent, codes }, { headers: { 'Cache-Control': 'no-store' } })
    }
    case 'complete': {
      const r = await staffFlow(request, context, reviewDeskApi.complete, { id, note: text(form, 'note') })
      return r.success ? done(`${r.data.orderNo} completed: the seller is paid`) : refused(intent, r.msg)
    }
    case 'propose': {
      const order = await staffFlow(request, context, reviewDeskApi.detail, { id, codes: 'hide' })
      if (!order.success) return refused(intent, order.msg)
      const p = proposal(form, order.data.cards, order.data.payoutCurrency)
      if ('error' in p) return refused(intent, p.error ?? '')
      const r = await staffFlow(request, context, reviewDeskApi.propose, { id, reason: text(form, 'reason') ?? '', cards: p.cards })
      return r.success ? done(`${r.data.orderNo}: a lower payout is offered to the seller`) : refused(intent, r.msg)
    }
    case 'reject': {
      if (proof && !proof.success) return refused(intent, proof.msg)
      const reasonCode = text(form, 'reasonCode') ?? ''
      if (!(reasonCodes as readonly string[]).includes(reasonCode)) return refused(intent, 'Choose the reason for the rejection')
      const r = await staffFlow(request, context, reviewDeskApi.reject, {
        id,
        reasonCode: reasonCode as ReasonCode,
        note: text(form, 'note'),
        proofImageId: proof?.success ? proof.data.fileId : undefined,
      })
      return r.success ? done(`${r.data.orderNo} rejected`) : refused(intent, r.msg)
    }
    default:
      return refused(intent, 'Choose what to do with this order')
  }
}
