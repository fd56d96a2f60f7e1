// The brands of our catalogue that simple-icons draws (decision 015), by brandId. Named imports
// only: the browser bundle gets these few paths, never the whole set. A brand without a mark there
// keeps its initials (BrandTile).
import { siApple, siEbay, siGoogleplay, siPlaystation, siSteam, siTarget } from 'simple-icons'

/** A 24×24 SVG path (simple-icons' grid). */
export type BrandMark = { path: string }

const marks: Record<string, BrandMark> = {
  apple: siApple,
  steam: siSteam,
  'google-play': siGoogleplay,
  ebay: siEbay,
  playstation: siPlaystation,
  target: siTarget,
}

export const brandMark = (brandId: string | undefined): BrandMark | undefined => (brandId ? marks[brandId] : undefined)
