// POST /file/upload (resource route, login): one card photo from the sell page's JavaScript, streamed
// to the api as it arrives (app/upstream/uploads.server.ts) and answered as JSON `{ fileId }` or
// `{ error }`. Its byte limit is server/body-limit.ts's (a photo and its framing): a body that says
// or grows past it is refused before it is read. The api reads the type from the bytes.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { MAX_UPLOAD_BYTES } from '#contract/uploads'
import { photoUploadAction, photoUploadLoader } from '~/upstream/photo-upload.server'
import { uploadPhotoFlow } from '~/upstream/uploads.server'
import { refusalMessages as R } from '~/utils/refusal-messages'

export const loader = ({ request }: LoaderFunctionArgs) => photoUploadLoader(request)

export const action = ({ request, context }: ActionFunctionArgs) =>
  photoUploadAction(request, context, {
    fileBytes: MAX_UPLOAD_BYTES,
    upload: uploadPhotoFlow,
    words: {
      notMultipart: 'Send the photo as multipart/form-data, in a part named file',
      oneAtATime: 'Send one photo per upload',
      unreadable: 'The upload could not be read. Please try again.',
      tooLarge: R.cardPhotoTooLarge,
      choose: 'Choose a photo to upload',
    },
  })
