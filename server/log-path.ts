import { pagePath } from './page-path'

/**
 * A path as a log line may write it: a set-up link's token, an unsubscribe link's token (signed by
 * the api, dots and all), or any other segment that looks like one of our opaque tokens (32+
 * URL-safe characters that are not an id), becomes a placeholder, so whoever reads the logs cannot
 * finish someone's set-up or stop their e-mails with them.
 */
const TOKEN_AFTER = new Set(['setup', 'unsubscribe'])
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const TOKEN_LIKE = /^[A-Za-z0-9_-]{32,}$/

export function loggedPath(path: unknown): unknown {
  if (typeof path !== 'string') return path
  // A page's data (`/unsubscribe/<token>.data`) is masked as its page, then named as data.
  const page = pagePath(path)
  const suffix = path.slice(page.length)
  return page
    .split('/')
    .map((segment, i, all) => {
      if (i > 0 && TOKEN_AFTER.has(all[i - 1].toLowerCase()) && segment) return ':token'
      return TOKEN_LIKE.test(segment) && !UUID.test(segment) ? ':secret' : segment
    })
    .join('/')
    .concat(suffix)
}
