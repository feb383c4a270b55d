import { tokyoDay } from '@tenpo/domain';
import type { JobHandler, Queue } from '../../jobs/engine';
import { dailyAt } from '../../jobs/recurrence';
import type { Clock } from '../../lib/clock';
import type { MetricsRepo } from './metrics.repo';
import type { MetricsSync } from './metrics.sync';

/** One store's daily pull: `{ storeId }`. */
export const METRICS_SYNC_QUEUE = 'metrics.sync';
/**
 * One store's backfill (a location chosen, a store without metrics at start): the same run as
 * the daily pull, on a queue of its own so that its limiter can count its 33 calls.
 */
export const METRICS_BACKFILL_QUEUE = 'metrics.backfill';
/** The daily fan-out: one sync job per connected store. */
export const METRICS_DAILY_QUEUE = 'metrics.daily';
export const METRICS_SCHEDULE = 'metrics.daily';

/**
 * Syncs at once per process: the backfill of many stores at start stays in the background
 * (two provider calls in flight) and leaves the rest of the engine its slots.
 */
export const METRICS_SYNC_CONCURRENCY = 2;

/**
 * Google's Performance API allows 300 queries a minute per project (providers.md §1.5), and only
 * this sync calls it. A backfill makes up to 33 calls (9 daily requests, 24 keyword months), a
 * daily pull 1–2: 5 backfills (≤ 165 calls) and 60 daily pulls (≤ 120) a minute stay under it
 * together, across every process (the engine's limiters are counted in the database), so a
 * start with many stores waits its turn instead of collecting 429s. A 429 is still honoured.
 */
export const BACKFILLS_PER_MINUTE = 5;
export const DAILY_PULLS_PER_MINUTE = 60;

export type MetricsJob = { storeId: number };

/** The day's job of a store: a second enqueue the same Tokyo day is a no-op. */
export const dailyKeyOf = (storeId: number, today: string) => `metrics:sync:${storeId}:${today}`;

export type MetricsJobs = ReturnType<typeof registerMetricsJobs>;

/**
 * The metrics sync's jobs (ADR 0035): `metrics.sync` runs one store, `metrics.daily` (a cron at
 * METRICS_SYNC_HOUR, Tokyo) fans out to every connected store. A rate limit waits for its reset
 * without counting an attempt; a 5xx retries with the engine's back-off; a revoked grant stops
 * the store (its Google row is in error until it is connected again).
 */
export function registerMetricsJobs(
  queue: Queue,
  deps: { sync: MetricsSync; repo: MetricsRepo; clock: Clock; syncHour: number },
) {
  const { sync, repo, clock } = deps;
  const today = () => tokyoDay(clock.now().getTime());

  const run: JobHandler<MetricsJob> = async (p, ctx) => {
    const out = await sync.syncStore(p.storeId, ctx.signal);
    if (out.state === 'wait') ctx.retryAt(out.until, out.reason);
  };
  queue.work<MetricsJob>(METRICS_SYNC_QUEUE, run, {
    concurrency: METRICS_SYNC_CONCURRENCY,
    limiter: { key: () => 'metrics:google:daily', max: DAILY_PULLS_PER_MINUTE, perMs: 60_000 },
  });
  queue.work<MetricsJob>(METRICS_BACKFILL_QUEUE, run, {
    concurrency: METRICS_SYNC_CONCURRENCY,
    limiter: { key: () => 'metrics:google:backfill', max: BACKFILLS_PER_MINUTE, perMs: 60_000 },
  });

  queue.work(METRICS_DAILY_QUEUE, async () => {
    const day = today();
    for (const s of await repo.connectedStores())
      await queue.enqueue(METRICS_SYNC_QUEUE, { storeId: s.store_id } satisfies MetricsJob, {
        key: dailyKeyOf(s.store_id, day),
      });
  });

  return {
    /** A store's Google location was chosen: its backfill starts now (a fresh key each time). */
    async connected(storeId: number): Promise<void> {
      await queue.enqueue(METRICS_BACKFILL_QUEUE, { storeId } satisfies MetricsJob, {
        key: `metrics:connect:${storeId}:${clock.now().getTime()}`,
      });
    },

    /**
     * At start (a process that runs jobs): the daily schedule is declared, and every connected
     * store that never finished a backfill gets its sync (the demo stores on a first start).
     * Enqueues only; the jobs run in the background.
     */
    async start(): Promise<number> {
      await queue.schedule({
        name: METRICS_SCHEDULE,
        cron: dailyAt(deps.syncHour),
        queue: METRICS_DAILY_QUEUE,
      });
      const day = today();
      const stores = await repo.storesWithoutBackfill();
      for (const storeId of stores)
        await queue.enqueue(METRICS_BACKFILL_QUEUE, { storeId } satisfies MetricsJob, {
          key: `metrics:start:${storeId}:${day}`,
        });
      return stores.length;
    },
  };
}
