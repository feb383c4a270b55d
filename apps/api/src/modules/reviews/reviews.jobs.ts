import type { JobHandler, Queue } from '../../jobs/engine';
import { REVIEW_DIGEST_HOUR } from '@tenpo/domain';
import { dailyAt, everyMinutes } from '../../jobs/recurrence';
import type { Clock } from '../../lib/clock';
import type { ReviewsRepo } from './reviews.repo';
import type { ReviewsSync } from './reviews.sync';

/** One store's reviews read: `{ storeId }`. */
export const REVIEWS_SYNC_QUEUE = 'reviews.sync';
/** The fan-out every REVIEWS_SYNC_MINUTES: one sync per connected store. */
export const REVIEWS_ROUND_QUEUE = 'reviews.round';
export const REVIEWS_SCHEDULE = 'reviews.round';
/** The daily digest of new reviews, for those who chose it (ADR 0094). */
export const REVIEWS_DIGEST_QUEUE = 'reviews.digest';

/**
 * Google's v4 calls share the project's quota of 300 a minute with posts and media
 * (providers.md §1.5); a store's read is one call when nothing changed. 120 stores a minute
 * leaves room for the rest, across every process (the limiter is counted in the database).
 */
export const REVIEW_SYNCS_PER_MINUTE = 120;
export const REVIEWS_SYNC_CONCURRENCY = 2;

export type ReviewsJob = { storeId: number };
export type ReviewsJobs = ReturnType<typeof registerReviewsJobs>;

/** The round's slot: a second enqueue for the same store in the same slot is a no-op. */
export const roundKeyOf = (storeId: number, at: Date, minutes: number) =>
  `reviews:sync:${storeId}:${Math.floor(at.getTime() / (minutes * 60_000))}`;

/**
 * The reviews sync's jobs (ADR 0090): `reviews.sync` reads one store, `reviews.round` (every
 * REVIEWS_SYNC_MINUTES) fans out to every connected store. A rate limit waits for its reset; a
 * 5xx retries with the engine's back-off; a revoked grant stops the store until it reconnects.
 */
export function registerReviewsJobs(
  queue: Queue,
  deps: {
    sync: ReviewsSync;
    repo: ReviewsRepo;
    clock: Clock;
    minutes: number;
    /** Each round also expires stale approval requests and resends stuck ones (ADR 0093). */
    sweep?: () => Promise<unknown>;
    /** The daily digest mail (ADR 0094), at REVIEW_DIGEST_HOUR Tokyo. */
    digest?: () => Promise<unknown>;
  },
) {
  const { sync, repo, clock, minutes } = deps;
  const run: JobHandler<ReviewsJob> = async (p, ctx) => {
    const out = await sync.syncStore(p.storeId, ctx.signal);
    if (out.state === 'wait') ctx.retryAt(out.until, out.reason);
  };
  queue.work<ReviewsJob>(REVIEWS_SYNC_QUEUE, run, {
    concurrency: REVIEWS_SYNC_CONCURRENCY,
    limiter: { key: () => 'reviews:google', max: REVIEW_SYNCS_PER_MINUTE, perMs: 60_000 },
  });
  queue.work(REVIEWS_ROUND_QUEUE, async () => {
    const at = clock.now();
    for (const storeId of await repo.connectedStores())
      await queue.enqueue(REVIEWS_SYNC_QUEUE, { storeId } satisfies ReviewsJob, {
        key: roundKeyOf(storeId, at, minutes),
      });
    await deps.sweep?.();
  });
  queue.work(REVIEWS_DIGEST_QUEUE, async () => {
    await deps.digest?.();
  });

  return {
    /** Reads one store now (after a Google location is chosen); a fresh key each time. */
    async now(storeId: number): Promise<void> {
      await queue.enqueue(REVIEWS_SYNC_QUEUE, { storeId } satisfies ReviewsJob, {
        key: `reviews:now:${storeId}:${clock.now().getTime()}`,
      });
    },
    /** Where jobs run: the schedule is declared and a first round is queued. */
    async start(): Promise<void> {
      await queue.schedule({
        name: REVIEWS_SCHEDULE,
        cron: everyMinutes(minutes),
        queue: REVIEWS_ROUND_QUEUE,
      });
      await queue.schedule({
        name: REVIEWS_DIGEST_QUEUE,
        cron: dailyAt(REVIEW_DIGEST_HOUR),
        queue: REVIEWS_DIGEST_QUEUE,
      });
      await queue.enqueue(
        REVIEWS_ROUND_QUEUE,
        {},
        { key: `reviews:start:${roundKeyOf(0, clock.now(), minutes)}` },
      );
    },
  };
}
