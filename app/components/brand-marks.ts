// The brands of our catalogue that simple-icons draws (decision 015), by brandId: brand-marks.json
// names each brand's icon, and scripts/brand-marks.mjs writes their paths into brand-marks.svg, a
// sprite the build fingerprints and serves as an immutable file. Bundles carry its URL and the
// brandIds, never a path. A brand without a mark keeps its initials (BrandTile).
import marks from './brand-marks.json'
import spriteUrl from './brand-marks.svg?url'

/** The sprite's symbol for a brand (`<use href>`), or undefined when it has no mark. */
export const brandMarkHref = (brandId: string | undefined): string | undefined =>
  brandId && Object.hasOwn(marks, brandId) ? `${spriteUrl}#${brandId}` : undefined
