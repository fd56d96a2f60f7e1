// POST /file/upload (resource route, login): one card photo from the sell page's JavaScript, streamed
// to the api as it arrives (app/upstream/uploads.server.ts) and answered as JSON `{ fileId }` or
// `{ error }`. Its byte limit is body-limit.server.ts's (a photo and its framing): a body that says
// or grows past it is refused before it is read. The api reads the type from the bytes.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { MAX_UPLOAD_BYTES, UPLOAD_FIELD } from '#contract/uploads'
import { uploadPhotoFlow } from '~/upstream/uploads.server'
import { requireToken } from '~/utils/auth.server'
import { flowMessage, sellingMessages as M } from '~/utils/messages'
import { MultipartError, readMultipart, refusedBodyHeaders } from '~/utils/multipart.server'

type UploadReply = { fileId?: string; error?: string }

const refused = (status: number, error: string, close = false) =>
  json<UploadReply>({ error }, { status, headers: { 'Cache-Control': 'no-store', ...(close ? refusedBodyHeaders : {}) } })

const REASONS: Record<MultipartError['reason'], [status: number, message: string]> = {
  'not-multipart': [400, 'Send the photo as multipart/form-data, in a part named file'],
  malformed: [400, 'The upload could not be read. Please try again.'],
  'too-many-files': [400, 'Send one photo per upload'],
  'too-many-fields': [400, 'Send one photo per upload'],
  'field-too-large': [400, 'Send one photo per upload'],
  'file-too-large': [413, M.photoTooLarge],
  'body-too-large': [413, M.photoTooLarge],
}

/** A GET here is not an upload (guarded all the same, as every route of a login-only path). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireToken(request)
  return json<UploadReply>({ error: 'Upload a photo with POST' }, { status: 405, headers: { Allow: 'POST' } })
}

export async function action({ request }: ActionFunctionArgs) {
  await requireToken(request)
  let files
  try {
    ;({ files } = await readMultipart(
      request,
      { files: 1, fileBytes: MAX_UPLOAD_BYTES, fields: 4, fieldBytes: 1024 },
      async (file, signal) => {
        if (file.name !== UPLOAD_FIELD) {
          for await (const _ of file.stream); // not a photo of ours: read past it
          return null
        }
        return uploadPhotoFlow(request, file.stream, signal)
      },
    ))
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error // a Response (signed out meanwhile) or a bug
    const [status, message] = REASONS[error.reason]
    return refused(status, message, status === 413)
  }
  const result = files.find((f) => f.result)?.result
  if (!result) return refused(400, 'Choose a photo to upload')
  if (!result.success) return refused(result.code === 413 ? 413 : 400, flowMessage(result))
  return json<UploadReply>({ fileId: result.data.fileId }, { headers: { 'Cache-Control': 'no-store' } })
}
