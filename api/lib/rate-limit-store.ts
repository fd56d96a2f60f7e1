import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit'
import type { Db } from '../db/connect'
import { getRateLimit, hitRateLimit, resetRateLimit, unhitRateLimit } from '../models/rate-limits'

/**
 * express-rate-limit store over the rate_limits table, so limits hold across api instances.
 * Uses the api's clock, so tests can move past a window.
 */
export class DbRateLimitStore implements Store {
  windowMs = 60_000
  readonly localKeys = false

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const row = await getRateLimit(this.db, this.prefix + key, this.now())
    return row && { totalHits: row.hits, resetTime: new Date(row.resetAt) }
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { hits, resetAt } = await hitRateLimit(this.db, this.prefix + key, this.windowMs, this.now())
    return { totalHits: hits, resetTime: new Date(resetAt) }
  }

  async decrement(key: string): Promise<void> {
    await unhitRateLimit(this.db, this.prefix + key)
  }

  async resetKey(key: string): Promise<void> {
    await resetRateLimit(this.db, this.prefix + key)
  }
}
