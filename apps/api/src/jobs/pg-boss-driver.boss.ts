import { TOKYO_TIME_ZONE } from '@tenpo/domain';
import { PgBoss, type JobWithMetadata } from 'pg-boss';
import type { EngineOptions, Schedule } from './engine';
import { readRecurrence } from './recurrence';

/**
 * The pg-boss driver's statements (pg-boss-driver.ts runs the workers on them): pg-boss
 * started, its queues made, and the writes to its tables, each settle fenced to the attempt
 * that was claimed.
 */

/** What a pg-boss job's `data` holds: the engine's payload (any JSON) and its attempt budget. */
export type Data = { payload: unknown; maxAttempts: number };
export type BossJob = JobWithMetadata<Data>;
/** What pg-boss 12's settle and touch calls answer (typed there as an empty object). */
export type Settled = { affected?: number; settled?: string[] };

/** pg-boss's own settings that the tests shorten. */
export type PgBossTuning = {
  superviseIntervalSeconds?: number;
  maintenanceIntervalSeconds?: number;
  cronMonitorIntervalSeconds?: number;
  /** How often the rate limiter's old starts are pruned while the queue runs (default an hour). */
  pruneMs?: number;
  poolMax?: number;
};

/** pg-boss on its own pool, started, its errors and warnings logged. */
export async function startBoss(
  connectionString: string,
  schema: string,
  log: EngineOptions['log'],
  tuning: PgBossTuning,
): Promise<PgBoss> {
  const boss = new PgBoss({
    // A pool of pg-boss's own (ADR 0053): its maintenance and its installs send several statements
    // in one query and read the rows of each, which a pg Pool gives and the Kysely adapter does
    // not (it answers the last statement's rows only). Small: the fetch loops and the settles
    // are short statements; the handlers' own work goes through the app's pool.
    connectionString,
    max: tuning.poolMax ?? 4,
    application_name: 'tenpo-pgboss',
    schema,
    // How often a job whose heartbeat stopped (its worker died) is failed back for a retry: the
    // supervisor's pass, and the per-queue monitor claim that gates the heartbeat check in it.
    superviseIntervalSeconds: tuning.superviseIntervalSeconds ?? 10,
    monitorIntervalSeconds: 10,
    // Retention (deleting finished jobs past deleteAfterSeconds) runs in that pass, once an hour
    // per queue among all processes (pg-boss's default is once a day).
    maintenanceIntervalSeconds: tuning.maintenanceIntervalSeconds ?? 3600,
    cronWorkerIntervalSeconds: 5,
    ...(tuning.cronMonitorIntervalSeconds
      ? { cronMonitorIntervalSeconds: tuning.cronMonitorIntervalSeconds }
      : {}),
    registerInstance: false,
    openTelemetry: { enabled: false },
  });
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  boss.on('warning', (w) => log.warn({ data: w.data }, `pg-boss: ${w.message}`));
  await boss.start();
  return boss;
}

/** pg-boss and its tables, as the driver's statements use them. */
export type BossDb = {
  boss: PgBoss;
  log: EngineOptions['log'];
  /** A table of pg-boss's schema, qualified. */
  t: (name: string) => string;
  q: <R>(text: string, values: unknown[]) => Promise<{ rows: R[] }>;
  retention: { doneMs: number; failedMs: number };
  /** Makes the queue once per process (with the engine's heartbeat and retention). */
  ensureQueue: (name: string) => Promise<void>;
};

export function bossDbOf(
  boss: PgBoss,
  schema: string,
  log: EngineOptions['log'],
  retention: { doneMs: number; failedMs: number },
  heartbeatSeconds: number,
): BossDb {
  const t = (name: string): string => `${schema}.${name}`;
  const q = <R>(text: string, values: unknown[]): Promise<{ rows: R[] }> =>
    boss.getDb().executeSql(text, values) as Promise<{ rows: R[] }>;

  const queues = new Map<string, Promise<void>>();
  const ensureQueue = (name: string): Promise<void> => {
    let p = queues.get(name);
    if (!p) {
      p = (async () => {
        if (await boss.getQueue(name)) return;
        await boss.createQueue(name, {
          heartbeatSeconds,
          // The longest a single run may take before pg-boss fails it (its maximum is a day).
          expireInSeconds: 6 * 3600,
          // Queued (and scheduled) jobs are kept a year; finished ones for the retention period.
          retentionSeconds: 365 * 24 * 3600,
          deleteAfterSeconds: Math.max(1, Math.round(retention.doneMs / 1000)),
          retryLimit: 4,
        });
      })();
      p.catch(() => queues.delete(name));
      queues.set(name, p);
    }
    return p;
  };
  return { boss, log, t, q, retention, ensureQueue };
}

export const maxOf = (job: BossJob): number => job.data.maxAttempts;
export const attemptOf = (job: BossJob): number => job.retryCount - job.retryLimit + maxOf(job);
const FENCE = `and state = 'active' and retry_count = $3`;

/**
 * Puts a claimed job back in the queue for `at`. Not counted (`skip`): its retry limit grows by
 * one, so the claim after it (which raises retry_count, the fence) is the same attempt again.
 */
export async function requeueJob(
  b: BossDb,
  job: BossJob,
  at: Date,
  skip: boolean,
  reason: string | null,
): Promise<boolean> {
  const r = await b.q<{ id: string }>(
    `update ${b.t('job')} set state = 'retry', start_after = $4, heartbeat_on = null,
       retry_limit = retry_limit + $5,
       output = coalesce($6::jsonb, output)
     where name = $1 and id = $2 ${FENCE}
     returning id`,
    [
      job.name,
      job.id,
      job.retryCount,
      at.toISOString(),
      skip ? 1 : 0,
      reason === null ? null : JSON.stringify({ message: reason }),
    ],
  );
  const ok = r.rows.length === 1;
  if (!ok) b.log.warn({ job_id: job.id, queue: job.name }, 'job lost to another worker');
  return ok;
}

export async function failJob(b: BossDb, job: BossJob, message: string): Promise<void> {
  await b.q(
    `update ${b.t('job')} set state = 'failed', completed_on = now(), heartbeat_on = null,
       output = $4::jsonb, deletion_seconds = $5
     where name = $1 and id = $2 ${FENCE}`,
    [
      job.name,
      job.id,
      job.retryCount,
      JSON.stringify({ message }),
      Math.max(1, Math.round(b.retention.failedMs / 1000)),
    ],
  );
}

export async function completeJob(b: BossDb, job: BossJob): Promise<void> {
  // Fenced to this attempt by pg-boss: a job taken over meanwhile is left alone.
  const r: Settled = await b.boss.complete(job.name, { id: job.id, retryCount: job.retryCount });
  if (r.affected === 0)
    b.log.warn({ job_id: job.id, queue: job.name }, 'job lost to another worker');
}

export async function fetchJobs(b: BossDb, name: string, n: number): Promise<BossJob[]> {
  await b.ensureQueue(name);
  const jobs = await b.boss.fetch<Data>(name, { batchSize: n, includeMetadata: true });
  return jobs;
}

/** Cancels a job not yet running, by its key; true when one was. */
export async function cancelByKey(b: BossDb, key: string): Promise<boolean> {
  const r = await b.q(
    `update ${b.t('job')} set state = 'cancelled', completed_on = now()
     where singleton_key = $1 and state < 'active' returning id`,
    [key],
  );
  return r.rows.length === 1;
}

/** Moves a job not yet running, by its key, to `runAt`; true when one was. */
export async function rescheduleByKey(b: BossDb, key: string, runAt: Date): Promise<boolean> {
  const r = await b.q(
    `update ${b.t('job')} set start_after = $2
     where singleton_key = $1 and state < 'active' returning id`,
    [key, runAt.toISOString()],
  );
  return r.rows.length === 1;
}

export async function scheduleJob(b: BossDb, s: Schedule): Promise<void> {
  // The same two shapes as the table driver: pg-boss could read more, the engine says no more.
  readRecurrence(s.cron);
  await b.ensureQueue(s.queue);
  // pg-boss keys a schedule by (queue, key): the engine's name is the key, and a name that moved
  // to another queue leaves its old one.
  for (const old of await b.boss.getSchedules(undefined, s.name))
    if (old.name !== s.queue) await b.boss.unschedule(old.name, s.name);
  const data: Data = { payload: s.payload ?? {}, maxAttempts: 5 };
  await b.boss.schedule(s.queue, s.cron, data, {
    tz: TOKYO_TIME_ZONE,
    key: s.name,
    retryLimit: 4,
    singletonKey: `schedule:${s.name}`,
  });
}

export async function unscheduleAll(b: BossDb, name: string): Promise<void> {
  for (const old of await b.boss.getSchedules(undefined, name))
    await b.boss.unschedule(old.name, name);
}

/** How many of the engine's jobs are queued (created or retry) and failed. */
export async function countStates(b: BossDb): Promise<{ queued: number; failed: number }> {
  const r = await b.q<{ state: string; n: number }>(
    `select state::text as state, count(*)::int as n from ${b.t('job')}
     where state in ('created', 'retry', 'failed') and name not like '\\_\\_pgboss%'
     group by state`,
    [],
  );
  const count = (...s: string[]): number =>
    r.rows.filter((row) => s.includes(row.state)).reduce((a, row) => a + Number(row.n), 0);
  return { queued: count('created', 'retry'), failed: count('failed') };
}

/** Deletes the finished jobs past their deletion time; how many. */
export async function deleteFinishedJobs(b: BossDb): Promise<number> {
  // pg-boss's own maintenance deletes the same rows on its schedule; this is the run on demand
  // (and the limiter's prune, which pg-boss knows nothing of).
  const r = await b.q(
    `delete from ${b.t('job')}
     where state in ('completed', 'cancelled', 'failed')
       and completed_on < now() - deletion_seconds * interval '1 second'
       and deletion_seconds > 0
     returning id`,
    [],
  );
  return r.rows.length;
}
