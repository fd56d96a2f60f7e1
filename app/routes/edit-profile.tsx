// Edit Profile (SPEC §2, login): the nickname (2–20 characters), the profile photo, and the e-mail,
// shown but not editable. Without JavaScript one multipart form carries photo and nickname: the
// action streams the photo to the api's avatar upload as it arrives, then saves both with setInfo.
// With JavaScript the chosen photo is checked, shown at once (drawn on a canvas: the CSP allows no
// blob: images) and uploaded on its own to /edit-profile/photo with its progress; Save then sends
// the nickname and the uploaded photo's id. The api crops the photo square and makes it small; the
// browser reads it back at /avatar/:id. A refused photo or nickname changes nothing.
import { getFormProps, getInputProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type AppLoadContext, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { NICKNAME_MAX, NICKNAME_MIN } from '#contract/profile-rules'
import { avatarPath, IMAGE_TYPES } from '#contract/upload-rules'
import { fileIdField, type UploadData } from '#contract/uploads'
import { ActionToast } from '~/components/action-toast'
import { Avatar } from '~/components/avatar'
import { Button } from '~/components/button'
import { Card } from '~/components/card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ErrorList, Field, FormError } from '~/components/forms'
import { GoogleLinkRow } from '~/components/google-link-row'
import { Icon } from '~/components/icon'
import { Screen } from '~/components/screen'
import { cx, useHydrated } from '~/components/ui'
import editProfileStyles from '~/styles/screens/edit-profile.css?url'
import type { FlowResult } from '~/upstream/flow.server'
import { updateProfileFlow } from '~/upstream/profile.server'
import { uploadAvatarFlow } from '~/upstream/uploads.server'
import { requireToken } from '~/utils/auth.server'
import { guardForm } from '~/utils/form-parse.server'
import { usePendingIntent } from '~/utils/form-state'
import { formConstraints, formRefusal, type FormReply } from '~/utils/form.server'
import { useSchemaForm } from '~/utils/forms'
import { flowMessage, profileMessages as M } from '~/utils/messages'
import { isMultipart, MultipartError, readMultipart, readSmallForm, refusedBodyHeaders } from '~/utils/multipart.server'
import { profileSchema } from '~/utils/profile-schemas'
import { refusalMessages as R } from '~/utils/refusal-messages'
import { successMessages } from '~/utils/shell-messages'
import { stylesheetHandle, stylesheetLinks } from '~/utils/stylesheets'
import { redirectWithToast } from '~/utils/toast.server'
import { usePublicEnv, useUser } from '~/utils/user'

export const handle = stylesheetHandle(editProfileStyles)
export const links = stylesheetLinks(handle)

/** The file input's name (no JavaScript: the photo travels with the form). */
const PHOTO_FIELD = 'photo'

/**
 * The guard and the form's constraints: the person comes from the root's one /v1/user/index call
 * (useUser). The nickname's lengths travel here, so the screen's first visit loads no rules chunk
 * for two numbers; the schema says "required" apart from the shortest length, hence its minimum.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireToken(request)
  const constraints = formConstraints({ 'edit-profile': profileSchema })
  const userName = constraints.formConstraints['edit-profile']!.userName!
  Object.assign(userName, { minLength: NICKNAME_MIN, maxLength: NICKNAME_MAX })
  // The photo's accepted types and where an uploaded one is served travel here too: the upload
  // rules' chunk is loaded only when a photo is chosen.
  return { ...constraints, photoTypes: IMAGE_TYPES.join(','), avatarAt: avatarPath('') }
}

type Reply = FormReply<{ avatarId: string | null }>

/** Why a multipart body was not read to its end, in the page's words. */
const MULTIPART_MESSAGES: Record<MultipartError['reason'], string> = {
  'not-multipart': M.photoUnreadable,
  malformed: M.photoUnreadable,
  'too-many-files': M.oneAtATime,
  'too-many-fields': M.photoUnreadable,
  'field-too-large': M.photoUnreadable,
  'file-too-large': R.avatarTooLarge,
  'body-too-large': R.avatarTooLarge,
}

/**
 * The posted form. Without JavaScript it is multipart and carries the photo: streamed to the api
 * as it arrives (never held whole), past 2 MB refused by the flow and the rest read away, so the
 * page can say so. With JavaScript it is a small plain form.
 */
async function readProfileForm(
  request: Request,
  context: AppLoadContext,
): Promise<{ form: FormData; photo: FlowResult<UploadData> | null }> {
  if (!isMultipart(request)) return { form: await readSmallForm(context, request), photo: null }
  const { form, files } = await readMultipart(
    request,
    { files: 1, fileBytes: context.bodyLimit, fields: 8, fieldBytes: 1024 },
    async (file, signal) => {
      if (file.name !== PHOTO_FIELD) {
        for await (const _ of file.stream); // not ours: read past it
        return null
      }
      return uploadAvatarFlow(request, context, file.stream, signal)
    },
  )
  guardForm(form)
  return { form, photo: files.find((f) => f.result)?.result ?? null }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireToken(request)
  let read
  try {
    read = await readProfileForm(request, context)
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error
    const status = error.reason === 'file-too-large' || error.reason === 'body-too-large' ? 413 : 400
    return data<Reply>(
      {
        avatarId: null,
        toast: null,
        result: { status: 'error', initialValue: null, error: { [PHOTO_FIELD]: [MULTIPART_MESSAGES[error.reason]] } },
      },
      { status, headers: status === 413 ? refusedBodyHeaders : undefined },
    )
  }
  const { form, photo } = read
  // A photo that arrived with this form replaces one uploaded before.
  if (photo?.success) form.set('avatarId', photo.data.fileId)
  const submission = parseWithZod(form, { schema: profileSchema })
  const avatarId = submission.status === 'success' ? (submission.value.avatarId ?? null) : keptAvatarId(form)
  if (photo && !photo.success) {
    // Nothing is saved: the nickname and any photo already uploaded wait for the next try.
    return data<Reply>(
      { avatarId, toast: null, result: submission.reply({ fieldErrors: { [PHOTO_FIELD]: [flowMessage(photo)] } }) },
      { status: 400 },
    )
  }
  if (submission.status !== 'success') return formRefusal(submission, { avatarId })
  const { userName } = submission.value
  const result = await updateProfileFlow(request, context, { userName, ...(avatarId && { headImg: avatarPath(avatarId) }) })
  if (!result.success) return formRefusal(submission, { avatarId }, result)
  // Back to Account: the root loader fetches the user info again (SPEC §4).
  return redirectWithToast(request, '/account', { type: 'success', message: successMessages.profileUpdated })
}

/** An uploaded photo's id from a refused form, if it is one. */
function keptAvatarId(form: FormData): string | null {
  const parsed = fileIdField.safeParse(form.get('avatarId'))
  return parsed.success ? parsed.data : null
}

// ─── The photo ─────────────────────────────────────────────────────────────────────────────────

/** The photo's checks and preview, loaded when a photo is chosen (components/avatar-photo.tsx). */
const loadAvatarPhoto = () => import('~/components/avatar-photo')
const Preview = lazy(loadAvatarPhoto)

type Photo =
  | { status: 'current' }
  | { status: 'uploading'; file: File; progress: number }
  | { status: 'ready'; fileId: string; file?: File }
  | { status: 'failed'; error: string; file?: File }

const AVATAR_SIZE = 96

type PhotoFieldProps = {
  name: string
  headImg: string | null
  initial: Photo
  errors: string[]
  /** Tells the form whether a photo is on its way (Save waits for it). */
  onUploadingChange: (uploading: boolean) => void
}

function PhotoField({ name, headImg, initial, errors, onUploadingChange }: PhotoFieldProps) {
  const { photoTypes, avatarAt } = useLoaderData<typeof loader>()
  const hydrated = useHydrated()
  const [photo, setPhoto] = useState<Photo>(initial)
  const upload = useRef(0)
  const uploading = photo.status === 'uploading'
  useEffect(() => onUploadingChange(uploading), [uploading, onUploadingChange])

  function choose(file: File | undefined) {
    if (!file) return
    const ticket = ++upload.current
    setPhoto({ status: 'uploading', file, progress: 0 })
    // The checks and the upload load once a photo is chosen: the screen's first visit loads neither.
    Promise.all([loadAvatarPhoto(), import('~/utils/upload-photo')])
      .then(
        ([{ avatarProblem }, { uploadPhoto }]) => {
          const problem = avatarProblem(file)
          // Refused before any upload: the photo is not shown, as the api would not keep it.
          if (problem) return void (ticket === upload.current && setPhoto({ status: 'failed', error: problem }))
          return uploadPhoto(
            '/edit-profile/photo',
            file,
            (progress) => {
              if (ticket === upload.current) setPhoto({ status: 'uploading', file, progress })
            },
            M.uploadFailed,
          ).then((fileId) => void (ticket === upload.current && setPhoto({ status: 'ready', fileId, file })))
        },
        () => Promise.reject(new Error(M.uploadFailed)),
      )
      .catch((error: Error) => ticket === upload.current && setPhoto({ status: 'failed', error: error.message, file }))
  }

  // The server's word about the last submit counts until a new photo is chosen.
  const shownErrors = photo.status === 'failed' ? [photo.error] : photo.status === 'uploading' ? [] : errors
  const file = photo.status === 'current' ? undefined : photo.file
  const inputId = 'edit-profile-photo'
  const status =
    photo.status === 'uploading' ? `Uploading photo… ${Math.round(photo.progress * 100)}%` : photo.status === 'ready' ? M.photoReady : ''
  return (
    <div className={cx('cl-field', 'cl-edit-photo', shownErrors.length > 0 && 'is-invalid')}>
      <div className="cl-edit-photo__frame">
        {file ? (
          <Suspense fallback={<Avatar src={headImg} name={name} size={AVATAR_SIZE} />}>
            <Preview file={file} size={AVATAR_SIZE} />
          </Suspense>
        ) : photo.status === 'ready' ? (
          <img
            src={avatarAt + photo.fileId}
            alt="Your new avatar"
            width={AVATAR_SIZE}
            height={AVATAR_SIZE}
            className="cl-edit-photo__image"
          />
        ) : (
          <Avatar src={headImg} name={name} size={AVATAR_SIZE} />
        )}
      </div>
      {photo.status === 'ready' ? <input type="hidden" name="avatarId" value={photo.fileId} /> : null}
      {photo.status === 'uploading' ? (
        <progress className="cl-edit-photo__progress" max={1} value={photo.progress} aria-label="Uploading photo" />
      ) : null}
      <p className="cl-edit-photo__status" role="status">
        {status}
      </p>
      <label htmlFor={inputId} className={hydrated ? 'cl-button cl-button--secondary cl-edit-photo__pick' : 'cl-field__label'}>
        {hydrated ? (
          <span className="cl-button__content">
            <Icon name="edit" size={20} className="cl-button__icon" />
            {headImg || photo.status !== 'current' ? 'Change photo' : 'Add a photo'}
          </span>
        ) : (
          'Profile photo'
        )}
      </label>
      <input
        id={inputId}
        type="file"
        // Without JavaScript the photo travels with the form; with it, it is uploaded on its own.
        name={hydrated ? undefined : PHOTO_FIELD}
        accept={photoTypes}
        className={hydrated ? 'cl-visually-hidden' : 'cl-input cl-edit-photo__native'}
        aria-describedby={cx(shownErrors.length > 0 && `${inputId}-error`, `${inputId}-help`)}
        aria-invalid={shownErrors.length > 0 || undefined}
        onChange={(event) => {
          choose(event.currentTarget.files?.[0])
          event.currentTarget.value = '' // the same photo can be chosen again
        }}
      />
      <div className="cl-field__footer">
        <ErrorList id={`${inputId}-error`} errors={shownErrors} />
        <p id={`${inputId}-help`} className="cl-field__help">
          JPEG, PNG or WebP, up to 2 MB. We crop it to a square.
        </p>
      </div>
    </div>
  )
}

// ─── The screen ────────────────────────────────────────────────────────────────────────────────

export default function EditProfileScreen() {
  const user = useUser()
  const hydrated = useHydrated()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSchemaForm(() => import('~/utils/profile-schemas').then((m) => m.profileSchema), {
    id: 'edit-profile',
    lastResult: actionData?.result,
    defaultValue: { userName: user.userName },
  })
  const { googleEnabled } = usePublicEnv()
  const [uploading, setUploading] = useState(false)
  const [held, setHeld] = useState(false)
  const keptId = actionData?.avatarId ?? null
  const serverErrors = actionData?.result.error
  const serverPhotoErrors = [...(serverErrors?.[PHOTO_FIELD] ?? []), ...(serverErrors?.avatarId ?? [])]
  const formProps = getFormProps(form)
  const onUploadingChange = useCallback((now: boolean) => {
    setUploading(now)
    if (!now) setHeld(false)
  }, [])

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // A photo still on its way: Save waits for it rather than saving the old one.
    if (uploading) {
      event.preventDefault()
      setHeld(true)
      return
    }
    formProps.onSubmit(event)
  }

  return (
    <Screen backTo="/account">
      <ActionToast toast={actionData?.toast} />
      <Form
        method="post"
        // Without JavaScript the photo is a file in this form; with it, only its id.
        encType={hydrated ? undefined : 'multipart/form-data'}
        className="cl-form"
        {...formProps}
        onSubmit={onSubmit}
      >
        <PhotoField
          // A new answer from the server starts the photo over from what it kept.
          key={keptId ?? 'none'}
          name={user.userName}
          headImg={user.headImg}
          initial={keptId ? { status: 'ready', fileId: keptId } : { status: 'current' }}
          errors={serverPhotoErrors}
          onUploadingChange={onUploadingChange}
        />
        <Field
          label="Nickname"
          inputProps={{
            ...getInputProps(fields.userName, { type: 'text' }),
            autoComplete: 'nickname',
          }}
          errors={fields.userName.errors}
          help={`What people see on your trades. ${fields.userName.minLength} to ${fields.userName.maxLength} characters.`}
        />
        <Field
          label="E-mail"
          id="edit-profile-email"
          inputProps={{ type: 'email', value: user.email, readOnly: true, autoComplete: 'off' }}
          help="The e-mail you sign in with. It cannot be changed here."
          className="cl-edit-profile__email"
        />
        <FormError errors={held ? [M.photoUploading, ...(form.errors ?? [])] : form.errors} id={form.errorId} />
        <Button type="submit" variant="primary" block pending={usePendingIntent()}>
          Save
        </Button>
      </Form>
      {user.googleEmail || googleEnabled ? (
        <section className="cl-section" aria-labelledby="edit-profile-sign-in">
          <h2 id="edit-profile-sign-in" className="cl-section__title">
            Sign-in
          </h2>
          <Card flush>
            <GoogleLinkRow googleEmail={user.googleEmail} />
          </Card>
        </section>
      ) : null}
    </Screen>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
