import { tokyoDay } from '@tenpo/domain';
import type { Queue } from '../../jobs/engine';
import type { Clock } from '../../lib/clock';
import type { MetricsRepo } from './metrics.repo';
import type { MetricsSync } from './metrics.sync';

/** One store's sync (backfill and daily pull alike): `{ storeId }`. */
export const METRICS_SYNC_QUEUE = 'metrics.sync';
/** The daily fan-out: one sync job per connected store. */
export const METRICS_DAILY_QUEUE = 'metrics.daily';
export const METRICS_SCHEDULE = 'metrics.daily';

/**
 * Syncs at once per process: the backfill of many stores at start stays in the background
 * (two provider calls in flight) and leaves the rest of the engine its slots.
 */
export const METRICS_SYNC_CONCURRENCY = 2;

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

  queue.work<MetricsJob>(
    METRICS_SYNC_QUEUE,
    async (p, ctx) => {
      const out = await sync.syncStore(p.storeId, ctx.signal);
      if (out.state === 'wait') ctx.retryAt(out.until, out.reason);
    },
    { concurrency: METRICS_SYNC_CONCURRENCY },
  );

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
      await queue.enqueue(METRICS_SYNC_QUEUE, { storeId } satisfies MetricsJob, {
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
        cron: `0 ${deps.syncHour} * * *`,
        queue: METRICS_DAILY_QUEUE,
      });
      const day = today();
      const stores = await repo.storesWithoutBackfill();
      for (const storeId of stores)
        await queue.enqueue(METRICS_SYNC_QUEUE, { storeId } satisfies MetricsJob, {
          key: dailyKeyOf(storeId, day),
        });
      return stores.length;
    },
  };
}
