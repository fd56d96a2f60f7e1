import { type AppLoadContext } from '@remix-run/node'
import { UPLOAD_FIELD, type UploadData } from '#contract/uploads'
import { requireToken } from '~/utils/auth.server'
import { flowMessage } from '~/utils/messages'
import { MultipartError, readMultipart, refusedBodyHeaders } from '~/utils/multipart.server'
import type { FlowResult } from './flow.server'

/**
 * The web's photo upload routes (/file/upload for a card, /edit-profile/photo for the avatar):
 * one photo from the page's JavaScript, streamed to the api as it arrives, answered as JSON
 * `{ fileId }` or `{ error }` in the route's own words. Each route names its byte limit, its
 * flow and its sentences; the rules are here once.
 */
export type PhotoUploadReply = { fileId?: string; error?: string }

export type PhotoUploadRoute = {
  /** The photo's bytes past which the flow stops sending and the answer is "too large". */
  fileBytes: number
  upload: (
    request: Request,
    context: AppLoadContext,
    photo: AsyncIterable<Uint8Array>,
    signal: AbortSignal,
  ) => Promise<FlowResult<UploadData>>
  /** The route's sentences; a body that is not multipart gets `notMultipart`, else `oneAtATime`. */
  words: { oneAtATime: string; unreadable: string; tooLarge: string; choose: string; notMultipart?: string }
}

const refused = (status: number, error: string, close = false) =>
  Response.json({ error } satisfies PhotoUploadReply, {
    status,
    headers: { 'Cache-Control': 'no-store', ...(close ? refusedBodyHeaders : {}) },
  })

/** A GET is not an upload (guarded all the same, as every route of a login-only path). */
export async function photoUploadLoader(request: Request) {
  await requireToken(request)
  return Response.json({ error: 'Upload a photo with POST' } satisfies PhotoUploadReply, { status: 405, headers: { Allow: 'POST' } })
}

export async function photoUploadAction(request: Request, context: AppLoadContext, route: PhotoUploadRoute) {
  await requireToken(request)
  const { words } = route
  const reasons: Record<MultipartError['reason'], [status: number, message: string]> = {
    'not-multipart': [400, words.notMultipart ?? words.oneAtATime],
    malformed: [400, words.unreadable],
    'too-many-files': [400, words.oneAtATime],
    'too-many-fields': [400, words.oneAtATime],
    'field-too-large': [400, words.oneAtATime],
    'file-too-large': [413, words.tooLarge],
    'body-too-large': [413, words.tooLarge],
  }
  let files
  try {
    ;({ files } = await readMultipart(
      request,
      { files: 1, fileBytes: route.fileBytes, fields: 4, fieldBytes: 1024 },
      async (file, signal) => {
        if (file.name !== UPLOAD_FIELD) {
          for await (const _ of file.stream); // not the photo: read past it
          return null
        }
        return route.upload(request, context, file.stream, signal)
      },
    ))
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error // a Response (signed out meanwhile) or a bug
    const [status, message] = reasons[error.reason]
    return refused(status, message, status === 413)
  }
  const result = files.find((f) => f.result)?.result
  if (!result) return refused(400, words.choose)
  if (!result.success) return refused(result.code === 413 ? 413 : 400, flowMessage(result))
  return Response.json({ fileId: result.data.fileId } satisfies PhotoUploadReply, { headers: { 'Cache-Control': 'no-store' } })
}
