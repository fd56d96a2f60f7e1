import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely'
import type { Db } from './connect'
import * as m0001 from './migrations/0001_accounts'
import * as m0002 from './migrations/0002_wallet'
import * as m0003 from './migrations/0003_selling'
import * as m0004 from './migrations/0004_tasks'
import * as m0005 from './migrations/0005_google-link-avatars'
import * as m0006 from './migrations/0006_analytics-visitors'
import * as m0007 from './migrations/0007_fair-sharing'
import * as m0008 from './migrations/0008_staff'
import * as m0009 from './migrations/0009_payouts'
import * as m0010 from './migrations/0010_review-signals'
import * as m0012 from './migrations/0012_payout-state'
import * as m0013 from './migrations/0013_notifications'
import * as m0015 from './migrations/0015_unread-count'
import * as m0016 from './migrations/0016_payout-unknown'
import * as m0017 from './migrations/0017_banks'
import * as m0018 from './migrations/0018_auto-withdrawal'
import * as m0019 from './migrations/0019_maker-checker'
import * as m0020 from './migrations/0020_deliveries'
import * as m0021 from './migrations/0021_notify-preferences'
import * as m0022 from './migrations/0022_support-conversations'
import * as m0023 from './migrations/0023_dashboard-indexes'
import * as m0024 from './migrations/0024_dashboard-kept-figures'
import * as m0025 from './migrations/0025_offer-answer-by'
import * as m0026 from './migrations/0026_dashboard-covering-indexes'
import * as m0027 from './migrations/0027_delivery-devices'
import * as m0028 from './migrations/0028_wallet-last-seq'
import * as m0029 from './migrations/0029_catalogue-version'

/**
 * Every migration, in order. Listed in code (not read from a folder) so the bundled api carries
 * them. Names sort; never rename or edit one that has shipped: add the next number.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': m0001,
  '0002_wallet': m0002,
  '0003_selling': m0003,
  '0004_tasks': m0004,
  '0005_google-link-avatars': m0005,
  '0006_analytics-visitors': m0006,
  '0007_fair-sharing': m0007,
  '0008_staff': m0008,
  '0009_payouts': m0009,
  '0010_review-signals': m0010,
  '0012_payout-state': m0012,
  '0013_notifications': m0013,
  '0015_unread-count': m0015,
  '0016_payout-unknown': m0016,
  '0017_banks': m0017,
  '0018_auto-withdrawal': m0018,
  '0019_maker-checker': m0019,
  '0020_deliveries': m0020,
  '0021_notify-preferences': m0021,
  '0022_support-conversations': m0022,
  '0023_dashboard-indexes': m0023,
  '0024_dashboard-kept-figures': m0024,
  '0025_offer-answer-by': m0025,
  '0026_dashboard-covering-indexes': m0026,
  '0027_delivery-devices': m0027,
  '0028_wallet-last-seq': m0028,
  '0029_catalogue-version': m0029,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

/**
 * Brings the schema up to date. Kysely takes a lock (an advisory lock on PostgreSQL), so several
 * api instances starting at once migrate once.
 */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider })
  const result = await migrator.migrateToLatest()
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName
    const err = new Error(`Migration ${failed ?? ''} failed: ${String((result.error as Error)?.message ?? result.error)}`)
    ;(err as Error & { cause?: unknown }).cause = result.error
    throw err
  }
  return result
}
