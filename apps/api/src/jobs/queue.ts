import type { DbHandle } from '../db/kysely';
import type { Clock } from '../lib/clock';
import {
  PermanentJobError,
  RetryLater,
  type EngineOptions,
  type JobHandler,
  type Queue,
} from './engine';
import { jobFailures, jobLagSeconds, jobRunSeconds, jobRuns } from '../lib/metrics';
import { createPgBossQueue } from './pg-boss-driver';
import { createTableQueue } from './table-driver';

export * from './engine';
export { createTableQueue } from './table-driver';
export { createPgBossQueue, pgBossSchemaOf } from './pg-boss-driver';

export type JobDriver = 'table' | 'pg-boss';

/**
 * The job engine for this database (ADR 0020): the embedded table driver, or pg-boss when
 * configured on PostgreSQL (ADR 0023).
 */
export async function createQueue(
  handle: DbHandle,
  clock: Clock,
  driver: JobDriver,
  options: EngineOptions,
): Promise<Queue> {
  const queue =
    driver === 'pg-boss'
      ? await createPgBossQueue(handle, clock, options)
      : createTableQueue(handle.db, handle.dialect, clock, options);
  return metered(queue);
}

/**
 * Counts every run of every handler (ADR 0052), around the handler, so that both drivers are
 * measured alike without touching how they take and settle jobs. The outcome follows the
 * drivers' own reading of a handler's end: `retryAt` defers, an abort hands the job back, a
 * permanent error or the last attempt fails it, any other error retries it.
 */
export function metered(queue: Queue): Queue {
  const work = queue.work.bind(queue);
  queue.work = (name, handler, opts) => work(name, meter(name, handler as JobHandler), opts);
  return queue;
}

const meter =
  (queue: string, handler: JobHandler): JobHandler =>
  async (payload, ctx) => {
    const started = Date.now();
    if (ctx.dueAt)
      jobLagSeconds.observe({ queue }, Math.max(0, started - ctx.dueAt.getTime()) / 1000);
    try {
      await handler(payload, ctx);
      jobRuns.inc({ queue, outcome: 'completed' });
    } catch (err) {
      if (err instanceof RetryLater) jobRuns.inc({ queue, outcome: 'deferred' });
      else if (ctx.signal.aborted) jobRuns.inc({ queue, outcome: 'aborted' });
      else {
        const final = err instanceof PermanentJobError || ctx.attempt >= ctx.maxAttempts;
        jobRuns.inc({ queue, outcome: final ? 'failed' : 'retry' });
        jobFailures.inc({ queue, final: final ? 'true' : 'false' });
      }
      throw err;
    } finally {
      jobRunSeconds.observe({ queue }, (Date.now() - started) / 1000);
    }
  };
