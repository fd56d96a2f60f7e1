// The photos of one physical card. Without JavaScript: a plain file input in the multipart sell
// form (the action streams each file to the api) and the photos already uploaded as hidden ids.
// With JavaScript: each photo is checked (type, size, count), shown at once as a small preview
// drawn on a canvas (the CSP allows no blob: images), and uploaded on its own to /file/upload
// with its progress; the form then carries only the ids. Photos already stored show through
// /file/:id, which serves them to their owner only.
import { useEffect, useRef, useState } from 'react'
import { MAX_IMAGES_PER_CARD } from '#contract/order-rules'
import { IMAGE_TYPES, MAX_UPLOAD_BYTES } from '#contract/upload-rules'
import { refusalMessages as R } from '~/utils/refusal-messages'
import { sellingMessages as M } from '~/utils/selling-messages'
import { uploadPhoto } from '~/utils/upload-photo'
import { ErrorList } from './forms'
import { Icon } from './icon'
import { cx, useHydrated } from './ui'

type Item = {
  key: string
  /** Stored: the api's id. */
  fileId?: string
  /** Chosen in this page: drawn from the file itself. */
  file?: File
  progress: number
  error?: string
}

export type PhotoPickerProps = {
  /** `cards[0]`: the card's field names start with it. */
  prefix: string
  /** The card's number as people read it (1, 2…). */
  position: number
  /** Photos already uploaded (after a refused submit, or chosen before). */
  initialIds: string[]
  errors?: string[]
  /** Tells the form how many uploads are still on their way. */
  onPendingChange?: (pending: number) => void
}

let nextKey = 0
const newKey = () => `photo-${++nextKey}`

/** A small picture of the chosen file, drawn on a canvas. */
function Preview({ file, label }: { file: File; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    let cancelled = false
    createImageBitmap(file)
      .then((bitmap) => {
        const target = canvas.current
        if (cancelled || !target) return bitmap.close()
        const side = 160
        const scale = Math.max(side / bitmap.width, side / bitmap.height)
        const ctx = target.getContext('2d')
        ctx?.drawImage(
          bitmap,
          (side - bitmap.width * scale) / 2,
          (side - bitmap.height * scale) / 2,
          bitmap.width * scale,
          bitmap.height * scale,
        )
        bitmap.close()
      })
      .catch(() => undefined) // a file the browser cannot draw keeps the empty tile; the api judges it
    return () => {
      cancelled = true
    }
  }, [file])
  return <canvas ref={canvas} width={160} height={160} className="cl-photo__img" role="img" aria-label={label} />
}

export function PhotoPicker({ prefix, position, initialIds, errors, onPendingChange }: PhotoPickerProps) {
  const hydrated = useHydrated()
  const [items, setItems] = useState<Item[]>(() => initialIds.map((fileId) => ({ key: fileId, fileId, progress: 1 })))
  const [problems, setProblems] = useState<string[]>([])
  const inputId = `${prefix}-photos`
  const pending = items.filter((i) => !i.fileId && !i.error).length

  useEffect(() => onPendingChange?.(pending), [pending, onPendingChange])

  const update = (key: string, change: Partial<Item>) => setItems((all) => all.map((i) => (i.key === key ? { ...i, ...change } : i)))

  function choose(files: FileList | null) {
    if (!files) return
    const found: string[] = []
    const room = MAX_IMAGES_PER_CARD - items.filter((i) => !i.error).length
    const chosen = Array.from(files)
    if (chosen.length > room) found.push(M.tooManyPhotos(MAX_IMAGES_PER_CARD))
    const accepted: Item[] = []
    for (const file of chosen.slice(0, Math.max(0, room))) {
      if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) found.push(`${file.name}: ${R.notAPhoto}`)
      else if (file.size > MAX_UPLOAD_BYTES) found.push(`${file.name}: ${R.cardPhotoTooLarge}`)
      else accepted.push({ key: newKey(), file, progress: 0 })
    }
    setProblems(found)
    setItems((all) => [...all, ...accepted])
    for (const item of accepted) {
      uploadPhoto('/file/upload', item.file!, (progress) => update(item.key, { progress }), M.uploadFailed)
        .then((fileId) => update(item.key, { fileId, progress: 1 }))
        .catch((error: Error) => update(item.key, { error: error.message }))
    }
  }

  const stored = items.filter((i) => i.fileId).map((i) => i.fileId!)
  const shownErrors = [...(errors ?? []), ...problems]
  const describedBy = cx(shownErrors.length > 0 && `${inputId}-error`, `${inputId}-help`)
  return (
    <div className={cx('cl-field', 'cl-photos', shownErrors.length > 0 && 'is-invalid')}>
      <p className="cl-field__label" id={`${inputId}-label`}>
        Photos of card {position}
      </p>
      <input type="hidden" name={`${prefix}.imageIds`} value={stored.join(',')} />
      {items.length > 0 ? (
        <ul className="cl-photos__list" aria-label={`Photos of card ${position}`}>
          {items.map((item, n) => {
            const label = `Card ${position}, ${n + 1} of ${items.length}`
            return (
              <li key={item.key} className={cx('cl-photo', item.error && 'cl-photo--failed')}>
                {item.file ? (
                  <Preview file={item.file} label={label} />
                ) : (
                  <img src={`/file/${item.fileId}`} alt={label} className="cl-photo__img" width={80} height={80} />
                )}
                {!item.fileId && !item.error ? (
                  <progress
                    className="cl-photo__progress"
                    max={1}
                    value={item.progress}
                    aria-label={`Uploading card ${position}, ${n + 1} of ${items.length}`}
                  />
                ) : null}
                {item.error ? <p className="cl-photo__error">{item.error}</p> : null}
                {hydrated ? (
                  <button
                    type="button"
                    className="cl-photo__remove"
                    aria-label={`Remove ${label}`}
                    onClick={() => setItems((all) => all.filter((i) => i.key !== item.key))}
                  >
                    <Icon name="x" size={16} />
                  </button>
                ) : (
                  <button
                    type="submit"
                    name="intent"
                    value={`remove-photo:${prefix}:${item.fileId}`}
                    formNoValidate
                    className="cl-photo__remove"
                    aria-label={`Remove ${label}`}
                  >
                    <Icon name="x" size={16} />
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      ) : null}
      <input
        id={inputId}
        type="file"
        // Without JavaScript the files travel with the form; with it, each is uploaded on its own.
        name={hydrated ? undefined : `${prefix}.photos`}
        multiple
        accept={IMAGE_TYPES.join(',')}
        className={hydrated ? 'cl-visually-hidden cl-photos__input' : 'cl-input cl-photos__native'}
        aria-labelledby={`${inputId}-label`}
        aria-describedby={describedBy}
        aria-invalid={shownErrors.length > 0 || undefined}
        onChange={(event) => {
          choose(event.currentTarget.files)
          event.currentTarget.value = '' // the same photo can be chosen again after removing it
        }}
      />
      {hydrated ? (
        <label htmlFor={inputId} className="cl-button cl-button--secondary cl-photos__add">
          <span className="cl-button__content">
            <Icon name="plus" size={20} className="cl-button__icon" />
            {items.length > 0 ? 'Add more photos' : 'Add photos'}
          </span>
        </label>
      ) : null}
      <div className="cl-field__footer">
        <ErrorList id={`${inputId}-error`} errors={shownErrors} />
        <p id={`${inputId}-help`} className="cl-field__help">
          Front and back, the code scratched clear. JPEG, PNG or WebP, up to 5 MB each, at most {MAX_IMAGES_PER_CARD}.
          {pending > 0 ? ` Uploading ${pending}…` : ''}
        </p>
      </div>
    </div>
  )
}
