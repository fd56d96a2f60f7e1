// A brand's logo on its colour (contract/catalogue.ts logoSchema): the brand's mark from
// simple-icons where it has one (brand-marks.ts, decision 015), a symbol of one cached sprite file
// so no path is in JavaScript, else its initials. Decorative (the brand's name is always written beside it),
// but still readable: marks and initials are held to WCAG's 3:1, and a colour pair that falls
// short, whoever set it, is drawn in white or near-black instead.
import type { Logo } from '#contract/catalogue'
import { brandMarkHref } from './brand-marks'
import { cx } from './ui'

/** Relative luminance of a #rrggbb colour (WCAG 2); null for anything else. Kept per colour: a
 * page of tiles asks for the same few colours on every request. */
const luminances = new Map<string, number | null>()
function luminance(hex: string): number | null {
  let known = luminances.get(hex)
  if (known === undefined) {
    known = luminanceOf(hex)
    if (luminances.size < 1000) luminances.set(hex, known)
  }
  return known
}

function luminanceOf(hex: string): number | null {
  const m = /^#([0-9a-f]{6})$/i.exec(hex.trim())
  if (!m) return null
  const channel = (i: number) => {
    const s = parseInt(m[1].slice(i, i + 2), 16) / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
const INK = '#111111'

/** The logo's own text colour when it reads on its background, else the better of white and ink. */
export function readableForeground(logo: Pick<Logo, 'background' | 'foreground'>): string {
  const bg = luminance(logo.background)
  const fg = luminance(logo.foreground)
  if (bg === null) return logo.foreground
  if (fg !== null && ratio(bg, fg) >= 3) return logo.foreground
  return ratio(bg, 1) >= ratio(bg, luminance(INK)!) ? '#FFFFFF' : INK
}

export function BrandTile({
  brandId,
  logo,
  size = 'md',
  className,
}: {
  brandId?: string
  logo: Logo
  size?: 'sm' | 'md' | 'lg'
  className?: string
}) {
  const mark = brandMarkHref(brandId)
  return (
    <span
      className={cx('cl-brandtile', `cl-brandtile--${size}`, mark && 'cl-brandtile--mark', className)}
      style={{ background: logo.background, color: readableForeground(logo) }}
      aria-hidden="true"
    >
      {mark ? (
        // The symbol's path takes its fill from here: the tile's readable foreground.
        <svg viewBox="0 0 24 24" className="cl-brandtile__mark" fill="currentColor" focusable="false">
          <use href={mark} />
        </svg>
      ) : (
        logo.initials
      )}
    </span>
  )
}
