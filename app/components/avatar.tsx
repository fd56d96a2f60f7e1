// A person's picture, or their initials on a colour derived from their name when there is no picture
// (or it fails to load), so every account looks distinct and the layout never jumps while loading.
import { useEffect, useRef, useState } from 'react'
import { cx } from './ui'

/** Calm, mid-dark hues; white initials on each are at least 4.5:1. */
const palette = ['#0b7466', '#2f5fb3', '#7a4bb5', '#a63d6b', '#b14a1a', '#4d6b1f', '#1f6f8b', '#5a5fa8']

function hash(text: string): number {
  let h = 0
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0
  return Math.abs(h)
}

/** "Ada Lovelace" → "AL"; "ada@example.com" → "A"; "" → "?" */
export function initials(name: string): string {
  const base = name.includes('@') ? name.slice(0, name.indexOf('@')) : name
  const words = base
    .trim()
    .split(/[\s._-]+/)
    .filter(Boolean)
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words.slice(0, 1)
  const result = letters
    .map((w) => Array.from(w)[0] ?? '')
    .join('')
    .toUpperCase()
  return result || '?'
}

export function avatarColor(name: string): string {
  return palette[hash(name.trim().toLowerCase()) % palette.length]
}

export type AvatarProps = {
  /** Image address; null/empty shows initials. */
  src?: string | null
  /** Whose avatar: used for the initials, the colour and the accessible name. */
  name: string
  /** Diameter in px. Defaults to 40. */
  size?: number
  /** Hide from assistive technology when the name is printed right beside it. */
  decorative?: boolean
  className?: string
}

export function Avatar({ src, name, size = 40, decorative = false, className }: AvatarProps) {
  // Remember which address failed, so a new src gets a fresh try.
  const [failedSrc, setFailedSrc] = useState<string | null>(null)
  const failed = Boolean(src) && failedSrc === src
  const imgRef = useRef<HTMLImageElement>(null)
  // A server-rendered image can fail before React hydrates and attaches onError: check once.
  useEffect(() => {
    const img = imgRef.current
    if (src && img && img.complete && img.naturalWidth === 0) setFailedSrc(src)
  }, [src])
  const label = decorative ? undefined : name || 'Avatar'
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) }
  if (src && !failed) {
    return (
      <img
        ref={imgRef}
        className={cx('cl-avatar', className)}
        src={src}
        alt={label ?? ''}
        width={size}
        height={size}
        style={style}
        loading="lazy"
        decoding="async"
        onError={() => setFailedSrc(src)}
      />
    )
  }
  return (
    <span
      className={cx('cl-avatar', 'cl-avatar--initials', className)}
      style={{ ...style, backgroundColor: avatarColor(name || '?') }}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      <span aria-hidden="true">{initials(name)}</span>
    </span>
  )
}
