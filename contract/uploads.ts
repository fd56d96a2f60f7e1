import { z } from 'zod'
import { get, noInput, post } from './endpoint'
import { FILE_ID } from './upload-rules'

export {
  AVATAR_SIDE,
  avatarPath,
  FILE_ID,
  IMAGE_TYPES,
  MAX_AVATAR_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
  MAX_UPLOAD_BYTES,
  UPLOAD_FIELD,
} from './upload-rules'

export const fileIdField = z
  .string({ required_error: 'id is required', invalid_type_error: 'id must be text' })
  .trim()
  .regex(FILE_ID, 'id is not a photo id')

export const uploadData = z.object({
  fileId: z.string(),
  /** Of the stored (re-encoded) image. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
  contentType: z.literal('image/jpeg'),
})
export type UploadData = z.infer<typeof uploadData>

export const fileQuery = z.object({ id: fileIdField })

/** Stands for "image bytes, not an envelope" in a record's `data` (see above). */
export const imageBytes = z.instanceof(Uint8Array)

export const uploadsApi = {
  /** multipart/form-data, one part `file` (the body record is empty: nothing else is read). */
  upload: post('/v1/file/upload', 'user', noInput, uploadData),
  file: get('/v1/file/get', 'user', fileQuery, imageBytes),
  /** multipart/form-data, one part `file`, at most MAX_AVATAR_BYTES: a profile photo. */
  avatar: post('/v1/avatar/upload', 'user', noInput, uploadData),
  avatarFile: get('/v1/avatar/get', 'user', fileQuery, imageBytes),
}
