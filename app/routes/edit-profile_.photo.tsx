// POST /edit-profile/photo (resource route, login): the profile photo chosen on Edit Profile, from
// the page's JavaScript (so it can show the upload's progress), streamed to the api's avatar upload
// as it arrives and answered as JSON `{ fileId }` or `{ error }`. The page then saves
// headImg = /avatar/<fileId> with the nickname. The api reads the type from the bytes, crops and
// shrinks it. Body limit: server/body-limit.ts's /edit-profile row.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { photoUploadAction, photoUploadLoader } from '~/upstream/photo-upload.server'
import { uploadAvatarFlow } from '~/upstream/uploads.server'
import { profileMessages as M } from '~/utils/messages'
import { refusalMessages as R } from '~/utils/refusal-messages'

export const loader = ({ request }: LoaderFunctionArgs) => photoUploadLoader(request)

export const action = ({ request, context }: ActionFunctionArgs) =>
  photoUploadAction(request, context, {
    // Past 2 MB the flow stops sending and reads the rest away, to answer "too large" in words.
    fileBytes: context.bodyLimit,
    upload: uploadAvatarFlow,
    words: { oneAtATime: M.oneAtATime, unreadable: M.photoUnreadable, tooLarge: R.avatarTooLarge, choose: M.choosePhoto },
  })
