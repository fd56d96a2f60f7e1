import type { LinksFunction } from '@remix-run/node'
import { useMatches } from '@remix-run/react'
import { createContext, useContext, useRef } from 'react'
import { useNonce } from './nonce'

/**
 * The stylesheets of the first document travel inside it, as `<style>` elements (decision 058):
 * a linked stylesheet holds the first paint until it arrives, and by then the scripts have run.
 * A screen reached by client navigation gets its sheet as a `<link>` from its route's `links`, so
 * Remix loads it before the screen shows, as for any linked stylesheet.
 */

/** A route's handle: the one stylesheet of its own (the root's the shell's; decision 035). */
export type StylesheetHandle = { stylesheet: string }

export const stylesheetHandle = (stylesheet: string): StylesheetHandle => ({ stylesheet })

const inDocument = (href: string) => typeof document === 'undefined' || document.querySelector(`[data-stylesheet="${href}"]`) !== null

/** A screen's `links`: its sheet, unless the document already carries it inline (or is being rendered). */
export const stylesheetLinks =
  ({ stylesheet }: StylesheetHandle): LinksFunction =>
  () =>
    inDocument(stylesheet) ? [] : [{ rel: 'stylesheet', href: stylesheet }]

/**
 * The CSS of a built stylesheet by its URL: the server's comes from the build (entry.server); in
 * the browser it is read back from the document's own element, so hydration renders the same.
 */
const StylesheetTextContext = createContext<(href: string) => string | undefined>(
  (href) => document.querySelector(`style[data-stylesheet="${href}"]`)?.textContent ?? undefined,
)
export const StylesheetTextProvider = StylesheetTextContext.Provider

const handleStylesheet = (handle: unknown) => (handle as Partial<StylesheetHandle> | undefined)?.stylesheet

/**
 * The sheets of the routes the document was rendered for (the root's, the shell's, among them),
 * inline while those routes are shown. Once a screen is left its sheet goes; coming back, its
 * `links` bring it.
 */
export function DocumentStyles() {
  const nonce = useNonce()
  const textOf = useContext(StylesheetTextContext)
  const matches = useMatches()
  const documentSheets = useRef<Map<string, string> | null>(null)
  documentSheets.current ??= new Map(matches.flatMap((m) => (handleStylesheet(m.handle) ? [[m.id, handleStylesheet(m.handle)!]] : [])))
  const shown = new Set(matches.map((m) => m.id))
  for (const id of documentSheets.current.keys()) if (!shown.has(id)) documentSheets.current.delete(id)
  return [...documentSheets.current.values()].map((href) => {
    const text = textOf(href)
    // Without the text (a sheet the build does not know), the document links it as before.
    return text === undefined ? (
      <link key={href} rel="stylesheet" href={href} data-stylesheet={href} />
    ) : (
      <style key={href} nonce={nonce} data-stylesheet={href} dangerouslySetInnerHTML={{ __html: text }} />
    )
  })
}
