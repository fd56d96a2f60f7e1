/*
 * The upload rules a screen shows or checks. No schemas here (uploads.ts holds them), so those
 * screens load no validation library on their first visit (decision 059).
 */

/**
 * Card photos (DESIGN §3 "Uploads"). Photos are secrets like codes: there is no public URL. The
 * owner (and operators, through /admin) reads one back through the api with the session.
 *
 * `POST /v1/file/upload` is the one call whose body is NOT JSON: `multipart/form-data` with exactly
 * one file part named `file` (no other parts), at most MAX_UPLOAD_BYTES. Its type is read from the
 * bytes (JPEG, PNG or WebP, whatever the name or Content-Type says); the image is re-encoded as
 * JPEG (EXIF and GPS removed, turned upright, longest side at most MAX_IMAGE_SIDE px) and stored.
 * It answers `{ fileId }`: the id an order's card names in `imageIds`.
 *
 * `GET /v1/file/get?id=` answers the image BYTES (Content-Type image/jpeg), not an envelope, to
 * its owner; a failure (someone else's id, no such id) is an envelope like any other (JSON, with
 * IMAGE_NOT_FOUND). The web proxies the bytes to the browser with the session; it checks the
 * answer's Content-Type to tell the two apart.
 */
export const UPLOAD_FIELD = 'file'
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024
export const MAX_IMAGE_SIDE = 2000
/** What the bytes may be; anything else is NOT_AN_IMAGE. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
/** A picture bigger than this many pixels is refused before it is decoded (a 5 MB PNG can hold billions). */
export const MAX_IMAGE_PIXELS = 40_000_000

/**
 * Profile photos (avatars) go through the same pipeline with their own limits: at most
 * MAX_AVATAR_BYTES, typed by content, cropped square at the centre and made AVATAR_SIDE px wide
 * (JPEG). `POST /v1/avatar/upload` takes the same one-part multipart body as /v1/file/upload and
 * answers the same `{ fileId, … }`; the person then sets `headImg` to `avatarPath(fileId)` with
 * setInfo. An avatar is shown to its owner only: `GET /v1/avatar/get?id=` answers its bytes to
 * them (anything else, IMAGE_NOT_FOUND), and the web serves it at `/avatar/:id`. An avatar is
 * never accepted as a card photo, nor a card photo as an avatar.
 */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024
export const AVATAR_SIDE = 256
/** Where the web serves an avatar: the value setInfo's headImg takes for an uploaded photo. */
export const avatarPath = (fileId: string) => `/avatar/${fileId}`

/** What an uploaded photo's id looks like. */
export const FILE_ID = /^[0-9a-f-]{36}$/i
