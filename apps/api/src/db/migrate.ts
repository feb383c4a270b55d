import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { DbHandle, Dialect } from './kysely';
import { initial } from './migrations/0001-initial';
import { channels } from './migrations/0002-channels';
import { oauthReturnOrigin } from './migrations/0003-oauth-return-origin';
import { jobsV2 } from './migrations/0004-jobs-v2';
import { grantRefreshLease } from './migrations/0005-grant-refresh-lease';
import { posts } from './migrations/0006-posts';
import { postTopics } from './migrations/0007-post-topics';
import { postTargetParts } from './migrations/0008-post-target-parts';
import { metrics } from './migrations/0009-metrics';
import { metricRunningTotals } from './migrations/0010-metric-running-totals';
import { storeInfo } from './migrations/0011-store-info';
import { photos } from './migrations/0012-photos';
import { knowledgeTag } from './migrations/0013-knowledge-tag';
import { products } from './migrations/0015-products';
import { auditLog } from './migrations/0016-audit-log';
import { payments } from './migrations/0017-payments';
import { listingGoogleVersion } from './migrations/0019-listing-google-version';
import { paymentCommitDate } from './migrations/0020-payment-commit-date';
import { accountGuards } from './migrations/0021-account-guards';
import { reviews } from './migrations/0022-reviews';
import { replyTemplates } from './migrations/0023-reply-templates';
import { reviewSearch } from './migrations/0024-review-search';
import { replyApprovals } from './migrations/0025-reply-approvals';
import { notices } from './migrations/0026-notices';
import { postApprovals } from './migrations/0027-post-approvals';
import { firstReply } from './migrations/0028-first-reply';
import { reportMonthsCovering } from './migrations/0029-report-months-covering';
import { keysetPaging } from './migrations/0030-keyset-paging';
import { postsKeyset } from './migrations/0031-posts-keyset';
import { reviewsKeyset } from './migrations/0032-reviews-keyset';
import { rateTake } from './migrations/0033-rate-take';

/** Migrations are listed here in order; each runs on SQLite and PostgreSQL alike. */
const migrations = (dialect: Dialect): Record<string, Migration> => ({
  '0001-initial': initial(dialect),
  '0002-channels': channels(dialect),
  '0003-oauth-return-origin': oauthReturnOrigin(),
  '0004-jobs-v2': jobsV2(dialect),
  '0005-grant-refresh-lease': grantRefreshLease(),
  '0006-posts': posts(dialect),
  '0007-post-topics': postTopics(),
  '0008-post-target-parts': postTargetParts(),
  '0009-metrics': metrics(),
  '0010-metric-running-totals': metricRunningTotals(dialect),
  '0011-store-info': storeInfo(dialect),
  '0012-photos': photos(dialect),
  '0013-knowledge-tag': knowledgeTag(),
  '0015-products': products(dialect),
  '0016-audit-log': auditLog(dialect),
  '0017-payments': payments(dialect),
  '0019-listing-google-version': listingGoogleVersion(),
  '0020-payment-commit-date': paymentCommitDate(),
  '0021-account-guards': accountGuards(dialect),
  '0022-reviews': reviews(dialect),
  '0023-reply-templates': replyTemplates(dialect),
  '0024-review-search': reviewSearch(dialect),
  '0025-reply-approvals': replyApprovals(dialect),
  '0026-notices': notices(dialect),
  '0027-post-approvals': postApprovals(dialect),
  '0028-first-reply': firstReply(dialect),
  '0029-report-months-covering': reportMonthsCovering(dialect),
  '0030-keyset-paging': keysetPaging(dialect),
  '0031-posts-keyset': postsKeyset(),
  '0032-reviews-keyset': reviewsKeyset(),
  '0033-rate-take': rateTake(dialect),
});

const migratorOf = ({ db, dialect, schema }: DbHandle): Migrator => {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  // With a schema of its own, the bookkeeping tables live there too, not in `public`.
  return new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
};

/** The migrations this database has not run yet (a worker refuses to start on such a database). */
export async function pendingMigrations(handle: DbHandle): Promise<string[]> {
  const all = await migratorOf(handle).getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}

export async function migrateToLatest(handle: DbHandle): Promise<string[]> {
  const migrator = migratorOf(handle);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Raised when migrations are still pending after the wait (MIGRATION_WAIT_SECONDS). */
export class MigrationsPendingError extends Error {}

/**
 * Waits until this database has every migration of this build, asking again with back-off
 * (0.5 s, doubling, at most 5 s): a worker, or any process that does not migrate, started
 * beside the API's first start or before `npm run migrate`. Logs once what it waits for, and
 * gives up after `maxWaitMs` with a message that says what to run.
 */
export async function waitForMigrations(
  handle: DbHandle,
  opts: {
    maxWaitMs: number;
    log: (message: string) => void;
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
  },
): Promise<void> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = opts.now ?? Date.now;
  const start = now();
  let delay = 500;
  let logged = false;
  for (;;) {
    // A database that is not reachable yet is waited for the same way as one not yet migrated.
    let reason: string;
    try {
      const pending = await pendingMigrations(handle);
      if (pending.length === 0) {
        if (logged) opts.log('Migrations applied; starting.');
        return;
      }
      reason = `migrations ${pending.join(', ')}`;
    } catch (err) {
      reason = `the database (${err instanceof Error ? err.message : String(err)})`;
    }
    const waited = now() - start;
    if (waited >= opts.maxWaitMs)
      throw new MigrationsPendingError(
        `Gave up after ${Math.round(waited / 1000)} s (MIGRATION_WAIT_SECONDS) waiting for ${reason}: ` +
          'run `npm run migrate` (or start the API, which migrates), then start this process again.',
      );
    if (!logged) {
      logged = true;
      opts.log(
        `Waiting up to ${Math.round(opts.maxWaitMs / 1000)} s (MIGRATION_WAIT_SECONDS) for ${reason}: ` +
          'run `npm run migrate`, or start the API, which migrates.',
      );
    }
    await sleep(Math.min(delay, Math.max(0, opts.maxWaitMs - waited)));
    delay = Math.min(delay * 2, 5000);
  }
}
