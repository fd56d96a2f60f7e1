import { Icon } from './icon'
import { Link } from './link'

/**
 * Newer · Page N of M · Older under a paged list, newest first (history, notifications, wallet
 * activity). Plain links, so it works without JavaScript. Nothing when the list fits one page.
 */
export function Pager({
  label,
  pageNum,
  lastPage,
  href,
}: {
  label: string
  pageNum: number
  lastPage: number
  href: (page: number) => string
}) {
  if (lastPage <= 1) return null
  return (
    <nav className="cl-pager" aria-label={label}>
      {pageNum > 1 ? (
        <Link to={href(pageNum - 1)} className="cl-button cl-button--secondary" rel="prev">
          <Icon name="chevron-left" size={20} /> Newer
        </Link>
      ) : (
        <span />
      )}
      <span className="cl-pager__where">
        Page {Math.min(pageNum, lastPage)} of {lastPage}
      </span>
      {pageNum < lastPage ? (
        <Link to={href(pageNum + 1)} className="cl-button cl-button--secondary" rel="next">
          Older <Icon name="chevron-right" size={20} />
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}
