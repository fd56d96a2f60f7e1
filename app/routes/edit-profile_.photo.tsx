// POST /edit-profile/photo (resource route, login): the profile photo chosen on Edit Profile, from
// the page's JavaScript (so it can show the upload's progress), streamed to the api's avatar upload
// as it arrives and answered as JSON `{ fileId }` or `{ error }`. The page then saves
// headImg = /avatar/<fileId> with the nickname. The api reads the type from the bytes, crops and
// shrinks it. Body limit: body-limit.server.ts's /edit-profile row.
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { UPLOAD_FIELD } from '#contract/uploads'
import { uploadAvatarFlow } from '~/upstream/uploads.server'
import { requireToken } from '~/utils/auth.server'
import { bodyLimitFor } from '~/utils/body-limit.server'
import { flowMessage, profileMessages as M } from '~/utils/messages'
import { MultipartError, readMultipart, refusedBodyHeaders } from '~/utils/multipart.server'

type UploadReply = { fileId?: string; error?: string }

const refused = (status: number, error: string, close = false) =>
  json<UploadReply>({ error }, { status, headers: { 'Cache-Control': 'no-store', ...(close ? refusedBodyHeaders : {}) } })

const REASONS: Record<MultipartError['reason'], [status: number, message: string]> = {
  'not-multipart': [400, M.oneAtATime],
  malformed: [400, M.photoUnreadable],
  'too-many-files': [400, M.oneAtATime],
  'too-many-fields': [400, M.oneAtATime],
  'field-too-large': [400, M.oneAtATime],
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
      // Past 2 MB the flow stops sending and reads the rest away, to answer "too large" in words.
      { files: 1, fileBytes: bodyLimitFor(new URL(request.url).pathname).maxBytes, fields: 4, fieldBytes: 1024 },
      async (file, signal) => {
        if (file.name !== UPLOAD_FIELD) {
          for await (const _ of file.stream); // not the photo: read past it
          return null
        }
        return uploadAvatarFlow(request, file.stream, signal)
      },
    ))
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error // a Response (signed out meanwhile) or a bug
    const [status, message] = REASONS[error.reason]
    return refused(status, message, status === 413)
  }
  const result = files.find((f) => f.result)?.result
  if (!result) return refused(400, M.choosePhoto)
  if (!result.success) return refused(result.code === 413 ? 413 : 400, flowMessage(result))
  return json<UploadReply>({ fileId: result.data.fileId }, { headers: { 'Cache-Control': 'no-store' } })
}
