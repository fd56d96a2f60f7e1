/**
 * Paging of the console's long lists (review queue, payout desk): `?page=` beside the filters of
 * the desk's GET form, so Previous and Next are plain links that keep every filter.
 */
import { pageNumField } from '#contract/envelope'

/** How many rows a desk shows at once (the api's largest page). */
export const DESK_PAGE_SIZE = 50

/** The page asked for, or the words that say why `?page=` cannot be read. */
export function pageAsked(url: URL): { pageNum: number; problem: null } | { pageNum: 1; problem: string } {
  const raw = url.searchParams.getAll('page')
  if (raw.length === 0 || (raw.length === 1 && raw[0] === '')) return { pageNum: 1, problem: null }
  const parsed = pageNumField.safeParse(raw.length === 1 ? raw[0] : raw)
  return parsed.success ? { pageNum: parsed.data, problem: null } : { pageNum: 1, problem: `page: ${parsed.error.issues[0].message}` }
}

export type Paging = { label: string; previous: string | null; next: string | null }

/** "51–100 of 230" and the links to the pages either side, each with this address's other parameters. */
export function paging(url: URL, page: { pageNum: number; pageSize: number; total: number }): Paging {
  const { pageNum, pageSize, total } = page
  const last = Math.max(1, Math.ceil(total / pageSize))
  const to = (n: number) => {
    const params = new URLSearchParams(url.search)
    params.delete('index')
    params.delete('_data')
    if (n === 1) params.delete('page')
    else params.set('page', String(n))
    const query = params.toString()
    return query ? `${url.pathname}?${query}` : url.pathname
  }
  const from = (pageNum - 1) * pageSize + 1
  const label =
    from > total ? `Page ${pageNum} is past the end: ${total} in all` : `${from}–${Math.min(total, pageNum * pageSize)} of ${total}`
  return {
    label,
    previous: pageNum > 1 ? to(Math.min(pageNum - 1, last)) : null,
    next: pageNum < last ? to(pageNum + 1) : null,
  }
}
