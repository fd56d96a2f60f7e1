// Edit profile's photo once one is chosen: what the api would refuse, said before the upload in
// the api's words, and the chosen picture drawn as the api will keep it. A module the screen loads
// when a photo is chosen, so its first visit loads neither these nor the refusal table.
import { useEffect, useRef } from 'react'
import { IMAGE_TYPES, MAX_AVATAR_BYTES } from '#contract/upload-rules'
import { refusalMessages as R } from '~/utils/refusal-messages'

/** Why the api would refuse this file as an avatar, or nothing. */
export function avatarProblem(file: File): string | undefined {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return R.notAPhoto
  if (file.size > MAX_AVATAR_BYTES) return R.avatarTooLarge
  return undefined
}

/** The chosen picture as the api will keep it: the centre square, drawn on a canvas. */
export default function Preview({ file, size }: { file: File; size: number }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    let cancelled = false
    createImageBitmap(file)
      .then((bitmap) => {
        const target = canvas.current
        if (cancelled || !target) return bitmap.close()
        const side = Math.min(bitmap.width, bitmap.height)
        target
          .getContext('2d')
          ?.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, target.width, target.height)
        bitmap.close()
      })
      .catch(() => undefined) // a file the browser cannot draw keeps the empty circle; the api judges it
    return () => {
      cancelled = true
    }
  }, [file])
  return (
    <canvas
      ref={canvas}
      width={size * 2}
      height={size * 2}
      className="cl-edit-photo__image"
      role="img"
      aria-label="Preview of your new photo"
    />
  )
}
