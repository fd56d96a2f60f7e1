// Inline SVG icons: no icon font or sprite request, nothing to load before the first paint, and they
// take the text colour (currentColor). Drawn on a 24px grid with round 1.75px strokes so the set
// reads as one family. Decorative by default (aria-hidden); pass `title` when an icon stands alone
// (it becomes the aria-label). The shapes are markup strings, not React elements: the server then
// writes an icon as one element instead of rendering three or four (docs/performance.md).
import type { SVGProps } from 'react'
import { cx } from './ui'

const paths = {
  home: '<path d="M3.5 10.2 12 3.5l8.5 6.7"/><path d="M5.5 8.8V19a1.5 1.5 0 0 0 1.5 1.5h3.25V15a1 1 0 0 1 1-1h1.5a1 1 0 0 1 1 1v5.5H17a1.5 1.5 0 0 0 1.5-1.5V8.8"/>',
  tag: '<path d="M3.5 4.75c0-.69.56-1.25 1.25-1.25h6.73c.33 0 .65.13.88.37l7.96 7.96a2 2 0 0 1 0 2.83l-5.76 5.76a2 2 0 0 1-2.83 0l-7.96-7.96a1.25 1.25 0 0 1-.37-.88V4.75Z"/><circle cx="8.25" cy="8.25" r="1.5"/>',
  list: '<path d="M9 6.5h11M9 12h11M9 17.5h11"/><path d="M4.5 6.5h.01M4.5 12h.01M4.5 17.5h.01" stroke-width="2.5"/>',
  receipt: '<path d="M5.5 3.5h13v17l-2.6-1.6-2.3 1.6-1.6-1.1-1.6 1.1-2.3-1.6-2.6 1.6v-17Z"/><path d="M9 8.5h6M9 12h6M9 15.5h3.5"/>',
  user: '<circle cx="12" cy="8" r="4"/><path d="M4.5 20.5c.6-3.7 3.7-6 7.5-6s6.9 2.3 7.5 6"/>',
  wallet:
    '<path d="M18 7.5V5.75c0-.97-.78-1.75-1.75-1.75H5.5a2 2 0 0 0 0 4"/><path d="M3.5 6v12a2.5 2.5 0 0 0 2.5 2.5h12.25c.97 0 1.75-.78 1.75-1.75V9.25c0-.97-.78-1.75-1.75-1.75H5.5a2 2 0 0 1-2-1.5Z"/><path d="M16 14h.01" stroke-width="2.5"/>',
  bell: '<path d="M6 9.5a6 6 0 1 1 12 0c0 3.6.9 5.8 1.8 7.1.3.4 0 .9-.5.9H4.7c-.5 0-.8-.5-.5-.9C5.1 15.3 6 13.1 6 9.5Z"/><path d="M10 20.5a2.2 2.2 0 0 0 4 0"/>',
  'chevron-left': '<path d="m15 18-6-6 6-6"/>',
  'chevron-right': '<path d="m9 18 6-6-6-6"/>',
  info: '<circle cx="12" cy="12" r="9"/><path d="M12 11v5.5"/><path d="M12 7.75h.01" stroke-width="2.5"/>',
  'check-circle': '<circle cx="12" cy="12" r="9"/><path d="m8.25 12.25 2.5 2.5 5-5.25"/>',
  'alert-triangle':
    '<path d="M10.27 4.5a2 2 0 0 1 3.46 0l7.1 12.5A2 2 0 0 1 19.1 20H4.9a2 2 0 0 1-1.73-3l7.1-12.5Z"/><path d="M12 9.5v4"/><path d="M12 16.75h.01" stroke-width="2.5"/>',
  'x-circle': '<circle cx="12" cy="12" r="9"/><path d="m14.75 9.25-5.5 5.5M9.25 9.25l5.5 5.5"/>',
  x: '<path d="M18 6 6 18M6 6l12 12"/>',
  eye: '<path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12Z"/><circle cx="12" cy="12" r="3"/>',
  'eye-off':
    '<path d="M10.1 5.7A9.6 9.6 0 0 1 12 5.5c6 0 9.5 6.5 9.5 6.5a17 17 0 0 1-2.5 3.3M6.6 7.1C4 8.8 2.5 12 2.5 12S6 18.5 12 18.5a9.4 9.4 0 0 0 5-1.5"/><path d="M9.9 9.9a3 3 0 0 0 4.2 4.2"/><path d="m3.5 3.5 17 17"/>',
  mail: '<rect x="3" y="5" width="18" height="14" rx="2.5"/><path d="m3.8 7 7.1 5.3a1.8 1.8 0 0 0 2.2 0L20.2 7"/>',
  lock: '<rect x="4.5" y="10.5" width="15" height="10" rx="2.5"/><path d="M8 10.5V7.5a4 4 0 0 1 8 0v3"/><path d="M12 14.5v2"/>',
  shield: '<path d="M12 3.5 5 6v5.5c0 4.4 3 7.9 7 9 4-1.1 7-4.6 7-9V6l-7-2.5Z"/><path d="m9 12 2.2 2.2L15.2 10"/>',
  download: '<path d="M12 4v11"/><path d="m7.5 10.5 4.5 4.5 4.5-4.5"/><path d="M4.5 15.5v2.5a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2v-2.5"/>',
  chat: '<path d="M20.5 11.5c0 4.4-3.8 8-8.5 8-1.2 0-2.4-.2-3.4-.7L4 20l1-3.7a7.6 7.6 0 0 1-1.5-4.8c0-4.4 3.8-8 8.5-8s8.5 3.6 8.5 8Z"/><path d="M8.5 11.5h.01M12 11.5h.01M15.5 11.5h.01" stroke-width="2.5"/>',
  edit: '<path d="M4 20h4L19 9a2.83 2.83 0 0 0-4-4L4 16v4Z"/><path d="m13.5 6.5 4 4"/>',
  plus: '<path d="M12 5v14M5 12h14"/>',
  'plus-square': '<rect x="3.5" y="3.5" width="17" height="17" rx="3.5"/><path d="M12 8.5v7M8.5 12h7"/>',
  share:
    '<path d="M12 3.5v11"/><path d="m8 7.5 4-4 4 4"/><path d="M8.5 10.5H7a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-1.5"/>',
  'more-vertical': '<path d="M12 5.5h.01M12 12h.01M12 18.5h.01" stroke-width="3"/>',
  smartphone: '<rect x="6" y="2.5" width="12" height="19" rx="2.5"/><path d="M10.5 18h3"/>',
  bank: '<path d="M3.5 9.5 12 4l8.5 5.5"/><path d="M5.5 10v7M10 10v7M14 10v7M18.5 10v7"/><path d="M3.5 20h17"/>',
  card: '<rect x="2.75" y="5.5" width="18.5" height="13" rx="2.5"/><path d="M2.75 10h18.5M6.5 14.5h3"/>',
  gift: '<rect x="3.5" y="8" width="17" height="4" rx="1"/><path d="M5 12v7a1.5 1.5 0 0 0 1.5 1.5h11A1.5 1.5 0 0 0 19 19v-7M12 8v12.5"/><path d="M12 8S10.8 4 8.2 4a2 2 0 0 0 0 4H12Zm0 0s1.2-4 3.8-4a2 2 0 0 1 0 4H12Z"/>',
  clock: '<circle cx="12" cy="12" r="9"/><path d="M12 7.5V12l3 2"/>',
  trash:
    '<path d="M4 6.5h16M9.5 6.5V4.75c0-.7.56-1.25 1.25-1.25h2.5c.7 0 1.25.56 1.25 1.25V6.5"/><path d="m6 6.5.9 12.6a1.5 1.5 0 0 0 1.5 1.4h7.2a1.5 1.5 0 0 0 1.5-1.4L18 6.5"/>',
  'external-link':
    '<path d="M14 4h6v6M20 4l-9 9"/><path d="M18 14v4.5a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 4 18.5v-11A1.5 1.5 0 0 1 5.5 6H10"/>',
  'file-text':
    '<path d="M14 3.5H7A1.5 1.5 0 0 0 5.5 5v14A1.5 1.5 0 0 0 7 20.5h10a1.5 1.5 0 0 0 1.5-1.5V8L14 3.5Z"/><path d="M14 3.5V8h4.5M9 12.5h6M9 16h6"/>',
  refresh: '<path d="M20 11.5A8 8 0 0 0 5.6 7.2L4 9"/><path d="M4 4.5V9h4.5M4 12.5a8 8 0 0 0 14.4 4.3L20 15"/><path d="M20 19.5V15h-4.5"/>',
} satisfies Record<string, string>

/** Aliases so call sites can use the domain word (sell, orders) or the shape (tag, receipt). */
const aliases = { sell: 'tag', orders: 'receipt' } as const

export type IconName = keyof typeof paths | keyof typeof aliases

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & {
  name: IconName
  /** Pixel size (width = height). Defaults to 24. */
  size?: number
  /** Accessible name. Without it the icon is decorative and hidden from assistive technology. */
  title?: string
}

export function Icon({ name, size = 24, title, className, ...rest }: IconProps) {
  const key = (name in aliases ? aliases[name as keyof typeof aliases] : name) as keyof typeof paths
  const a11y = title ? { role: 'img', 'aria-label': title } : { 'aria-hidden': true as const, focusable: 'false' as const }
  return (
    // Stroke, fill and line ends come from .cl-icon in app.css: fewer bytes and attributes an icon.
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      className={cx('cl-icon', className)}
      {...a11y}
      {...rest}
      // Fixed markup of ours, never user input: written out as it is instead of a React element a shape.
      dangerouslySetInnerHTML={{ __html: paths[key] }}
    />
  )
}
