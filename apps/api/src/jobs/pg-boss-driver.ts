import { createHash } from 'node:crypto';
import { TOKYO_TIME_ZONE } from '@tenpo/domain';
import { sql } from 'kysely';
import { fromKysely, PgBoss, type JobWithMetadata } from 'pg-boss';
import type { DbHandle } from '../db/kysely';
import type { Clock } from '../lib/clock';
import {
  backoffMs,
  DEFAULT_RETENTION,
  errorText,
  keyOf,
  limitsOf,
  PermanentJobError,
  RetryLater,
  type EngineOptions,
  type JobContext,
  type Queue,
} from './engine';
import { createLimiter } from './limiter';
import { readRecurrence } from './recurrence';
import {
  drainEach,
  endLoops,
  finishOrAbort,
  newWorker,
  pollLoop,
  type QueueWorker as Worker,
} from './worker-runtime';

/** What a pg-boss job's `data` holds: the engine's payload (any JSON) and its attempt budget. */
type Data = { payload: unknown; maxAttempts: number };
type BossJob = JobWithMetadata<Data>;
/** What pg-boss 12's settle and touch calls answer (typed there as an empty object). */
type Settled = { affected?: number; settled?: string[] };

type InFlight = {
  job: BossJob;
  controller: AbortController;
  /** Set once this run's outcome has been written (or handed to pg-boss). */
  settled: boolean;
  done: Promise<void>;
};

/** pg-boss's own settings that the tests shorten. */
export type PgBossTuning = {
  superviseIntervalSeconds?: number;
  maintenanceIntervalSeconds?: number;
  cronMonitorIntervalSeconds?: number;
  /** How often the rate limiter's old starts are pruned while the queue runs (default an hour). */
  pruneMs?: number;
  poolMax?: number;
};

/** Why a run ended early; the job is then handed back instead of failed. */
class HandBack extends Error {}

/**
 * pg-boss's schema for this database: `pgboss`, or `<schema>_pgboss` when the URL names a schema
 * (each test schema then has a pg-boss of its own, dropped with it).
 */
export const pgBossSchemaOf = (schema: string | null): string =>
  schema ? `${schema}_pgboss` : 'pgboss';

/**
 * A job's id from its key: pg-boss inserts with `ON CONFLICT DO NOTHING` on (queue, id), so a
 * second enqueue with the same key is a no-op for as long as the first job is kept.
 */
const idOfKey = (key: string): string => {
  const h = createHash('sha256').update(`tenpo-job:${key}`).digest('hex');
  // A version-5-shaped UUID (name-based), so the id column's uuid type takes it.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * The pg-boss driver (ADR 0023): pg-boss 12 keeps the jobs, claims them (`FOR UPDATE SKIP
 * LOCKED`), fences every settle to the attempt that was claimed, fails jobs whose heartbeat
 * stops, runs the cron schedules and deletes old jobs. This file keeps the engine's semantics on
 * top: its own fetch loop per queue (so a slot is refilled as soon as it frees, without pg-boss's
 * per-worker poll delay), the shared DB rate limiter, `retryAt` and hand-backs that do not count
 * as attempts, and the engine's back-off.
 *
 * Attempts: pg-boss's `retry_count` goes up on every claim after the first, and is the fence; a
 * run that is not counted (retryAt, a rate limit, a stop) raises `retry_limit` by one instead. So
 * with `m` = maxAttempts, a job's attempt is `retry_count - retry_limit + m`.
 */
export async function createPgBossQueue(
  handle: DbHandle,
  clock: Clock,
  options: EngineOptions,
  /** pg-boss's own timers; the tests shorten them. */
  tuning: PgBossTuning = {},
): Promise<Queue> {
  if (handle.dialect !== 'postgres' || !handle.connectionString)
    throw new Error('the pg-boss job driver needs PostgreSQL');
  const log = options.log;
  const db = handle.db;
  const schema = pgBossSchemaOf(handle.schema);
  const pollMs = options.pollMs ?? 250;
  const leaseMs = options.leaseMs ?? 15_000;
  const graceMs = options.graceMs ?? 10_000;
  const retention = { ...DEFAULT_RETENTION, ...options.retention };
  const backoff = options.backoff ?? backoffMs;
  // pg-boss's heartbeat is the lease: at least 10 s (its minimum), refreshed three times a period.
  const heartbeatSeconds = Math.max(10, Math.ceil(leaseMs / 1000));
  const limiter = createLimiter(db, 'postgres', clock);
  const boss = new PgBoss({
    // A pool of pg-boss's own (ADR 0053): its maintenance and its installs send several statements
    // in one query and read the rows of each, which a pg Pool gives and the Kysely adapter does
    // not (it answers the last statement's rows only). Small: the fetch loops and the settles
    // are short statements; the handlers' own work goes through the app's pool.
    connectionString: handle.connectionString,
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

  const workers = new Map<string, Worker>();
  const inFlight = new Map<string, InFlight>();
  let running = false;
  let lastTick: Date | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let janitor: NodeJS.Timeout | null = null;

  const maxOf = (job: BossJob): number => job.data.maxAttempts;
  const attemptOf = (job: BossJob): number => job.retryCount - job.retryLimit + maxOf(job);
  const fence = `and state = 'active' and retry_count = $3`;

  /**
   * Puts a claimed job back in the queue for `at`. Not counted (`skip`): its retry limit grows by
   * one, so the claim after it (which raises retry_count, the fence) is the same attempt again.
   */
  const requeue = async (
    job: BossJob,
    at: Date,
    skip: boolean,
    reason: string | null,
  ): Promise<boolean> => {
    const r = await q<{ id: string }>(
      `update ${t('job')} set state = 'retry', start_after = $4, heartbeat_on = null,
         retry_limit = retry_limit + $5,
         output = coalesce($6::jsonb, output)
       where name = $1 and id = $2 ${fence}
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
    if (!ok) log.warn({ job_id: job.id, queue: job.name }, 'job lost to another worker');
    return ok;
  };

  const failFinally = async (job: BossJob, message: string): Promise<void> => {
    await q(
      `update ${t('job')} set state = 'failed', completed_on = now(), heartbeat_on = null,
         output = $4::jsonb, deletion_seconds = $5
       where name = $1 and id = $2 ${fence}`,
      [
        job.name,
        job.id,
        job.retryCount,
        JSON.stringify({ message }),
        Math.max(1, Math.round(retention.failedMs / 1000)),
      ],
    );
  };

  const complete = async (job: BossJob): Promise<void> => {
    // Fenced to this attempt by pg-boss: a job taken over meanwhile is left alone.
    const r: Settled = await boss.complete(job.name, { id: job.id, retryCount: job.retryCount });
    if (r.affected === 0)
      log.warn({ job_id: job.id, queue: job.name }, 'job lost to another worker');
  };

  const runJob = async (job: BossJob, w: Worker, entry: InFlight): Promise<void> => {
    const { controller } = entry;
    const attempt = attemptOf(job);
    const payload = job.data.payload;
    if (attempt > maxOf(job)) {
      // Claimed again after its workers died each time: a job that kills its worker stops here.
      await failFinally(job, `gave up after ${maxOf(job)} attempts (the worker stopped each time)`);
      return;
    }
    const limits = limitsOf(w.opts);
    if (limits.length > 0) {
      const wait = await limiter.acquire(limits, payload);
      if (wait) {
        await requeue(job, wait, true, null);
        return;
      }
    }
    const ctx: JobContext = {
      id: job.id,
      queue: job.name,
      key: job.singletonKey,
      attempt,
      maxAttempts: maxOf(job),
      dueAt: job.startAfter,
      signal: controller.signal,
      retryAt: (at, reason) => {
        throw new RetryLater(at, reason);
      },
      log,
    };
    // A handler that ignores its signal is left behind once the run is aborted: its job has then
    // been handed back, and its late finish is fenced out.
    const aborted = new Promise<void>((resolve) => {
      if (controller.signal.aborted) resolve();
      controller.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    try {
      const run = w.handler(payload, ctx);
      await Promise.race([run, aborted]);
      if (controller.signal.aborted && controller.signal.reason instanceof HandBack) {
        run.catch(() => {});
        throw controller.signal.reason;
      }
      await complete(job);
    } catch (err) {
      if (err instanceof RetryLater) {
        await requeue(job, err.at, true, err.message);
        return;
      }
      if (controller.signal.aborted && controller.signal.reason instanceof HandBack) {
        // Stopped while running: the job runs again at once, not counted as an attempt.
        await requeue(job, clock.now(), true, null);
        return;
      }
      const message = errorText(err);
      const final = err instanceof PermanentJobError || attempt >= maxOf(job);
      log.warn({ job_id: job.id, queue: job.name, attempt, final, err: message }, 'job failed');
      if (final) await failFinally(job, message);
      else await requeue(job, new Date(clock.now().getTime() + backoff(attempt)), false, message);
    } finally {
      entry.settled = true;
    }
  };

  const launch = (job: BossJob, w: Worker): InFlight => {
    const entry: InFlight = {
      job,
      controller: new AbortController(),
      settled: false,
      done: Promise.resolve(),
    };
    w.active += 1;
    inFlight.set(job.id, entry);
    entry.done = runJob(job, w, entry)
      .catch((err: unknown) => log.error({ err, job_id: job.id }, 'job bookkeeping failed'))
      .finally(() => {
        inFlight.delete(job.id);
        w.active -= 1;
        w.wake();
      });
    return entry;
  };

  const fetch = async (name: string, n: number): Promise<BossJob[]> => {
    await ensureQueue(name);
    const jobs = await boss.fetch<Data>(name, { batchSize: n, includeMetadata: true });
    return jobs;
  };

  /** pg-boss's heartbeat for the jobs in flight; a job whose claim is gone has its run aborted. */
  const touchAll = async (): Promise<void> => {
    const byQueue = new Map<string, InFlight[]>();
    for (const e of inFlight.values()) {
      if (e.settled || e.controller.signal.aborted) continue;
      byQueue.set(e.job.name, [...(byQueue.get(e.job.name) ?? []), e]);
    }
    for (const [name, entries] of byQueue) {
      const r: Settled = await boss.touch(
        name,
        entries.map((e) => ({ id: e.job.id, retryCount: e.job.retryCount })),
      );
      if (!r.settled) continue;
      const held = new Set(r.settled);
      for (const e of entries) {
        if (held.has(e.job.id) || e.settled) continue;
        log.warn({ job_id: e.job.id, queue: name }, 'job lease lost: aborting its run');
        e.controller.abort(new Error('lease lost'));
      }
    }
  };

  const loop = (w: Worker): Promise<void> =>
    pollLoop(w, {
      running: () => running,
      take: (n) => fetch(w.queue, n),
      start: (job) => void launch(job, w),
      // Stopped while the fetch was out: the claims go back at once, not counted.
      putBack: (job) => requeue(job, clock.now(), true, null),
      pollMs,
      onTaken: () => {
        lastTick = clock.now();
      },
      onError: (err) => log.error({ err, queue: w.queue }, 'job fetch failed'),
    });

  const queue: Queue = {
    driver: 'pg-boss',
    async enqueue(name, payload, opts = {}) {
      await ensureQueue(name);
      const key = keyOf(opts);
      const maxAttempts = Math.max(1, opts.maxAttempts ?? 5);
      const data: Data = { payload: payload ?? null, maxAttempts };
      await boss.send(name, data, {
        ...(key === null ? {} : { id: idOfKey(key), singletonKey: key }),
        retryLimit: maxAttempts - 1,
        ...(opts.runAt ? { startAfter: opts.runAt } : {}),
        // The caller's transaction: the job exists exactly when its writes commit.
        ...(opts.trx ? { db: fromKysely(opts.trx) } : {}),
      });
      const w = workers.get(name);
      if (w && running) setImmediate(() => w.wake());
    },
    work(name, handler, opts = {}) {
      const w = newWorker(name, handler, opts);
      workers.set(name, w);
      if (running) w.loop = loop(w);
    },
    async cancel(key) {
      const r = await q(
        `update ${t('job')} set state = 'cancelled', completed_on = now()
         where singleton_key = $1 and state < 'active' returning id`,
        [key],
      );
      return r.rows.length === 1;
    },
    async reschedule(key, runAt) {
      const r = await q(
        `update ${t('job')} set start_after = $2
         where singleton_key = $1 and state < 'active' returning id`,
        [key, runAt.toISOString()],
      );
      return r.rows.length === 1;
    },
    async schedule(s) {
      // The same two shapes as the table driver: pg-boss could read more, the engine says no more.
      readRecurrence(s.cron);
      await ensureQueue(s.queue);
      // pg-boss keys a schedule by (queue, key): the engine's name is the key, and a name that moved
      // to another queue leaves its old one.
      for (const old of await boss.getSchedules(undefined, s.name))
        if (old.name !== s.queue) await boss.unschedule(old.name, s.name);
      const data: Data = { payload: s.payload ?? {}, maxAttempts: 5 };
      await boss.schedule(s.queue, s.cron, data, {
        tz: TOKYO_TIME_ZONE,
        key: s.name,
        retryLimit: 4,
        singletonKey: `schedule:${s.name}`,
      });
    },
    async unschedule(name) {
      for (const old of await boss.getSchedules(undefined, name))
        await boss.unschedule(old.name, name);
    },
    async drain(limit = 1000) {
      const n = await drainEach(
        workers.values(),
        (w) => fetch(w.queue, 1),
        (job, w) => launch(job, w).done,
        limit,
      );
      lastTick = clock.now();
      return n;
    },
    async start() {
      if (running) return;
      running = true;
      lastTick = clock.now();
      for (const w of workers.values()) w.loop = loop(w);
      heartbeat = setInterval(
        () => {
          touchAll().catch((err: unknown) => log.error({ err }, 'job heartbeat failed'));
        },
        Math.floor((heartbeatSeconds * 1000) / 3),
      );
      // pg-boss's maintenance deletes old jobs, in batches that hold few locks (a whole-table
      // `cleanup()` here would not); the rate limiter's starts are ours to forget. As the table
      // driver does: once at start, then hourly, in every started worker.
      const sweep = (): void => {
        limiter.prune().catch((err: unknown) => log.error({ err }, 'job cleanup failed'));
      };
      janitor = setInterval(sweep, tuning.pruneMs ?? 3_600_000);
      janitor.unref();
      sweep();
    },
    async stop(opts = {}) {
      const wasRunning = running;
      running = false;
      await endLoops(workers.values());
      // Still running after the grace: aborted, each run hands its job back. A handler that
      // ignores its signal is left behind after a second: its lease lapses and its late finish
      // is fenced out.
      await finishOrAbort(
        () => [...inFlight.values()],
        opts.graceMs ?? graceMs,
        new HandBack('worker stopping'),
      );
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      if (janitor) clearInterval(janitor);
      janitor = null;
      // pg-boss ran no handlers of ours (the fetch loop is this driver's): its stop ends its
      // maintenance and cron timers and closes its pool.
      await boss.stop({ graceful: true, timeout: 1000, close: true });
      if (wasRunning) log.info('job worker stopped (pg-boss)');
    },
    async status() {
      const r = await q<{ state: string; n: number }>(
        `select state::text as state, count(*)::int as n from ${t('job')}
         where state in ('created', 'retry', 'failed') and name not like '\\_\\_pgboss%'
         group by state`,
        [],
      );
      const count = (...s: string[]): number =>
        r.rows.filter((row) => s.includes(row.state)).reduce((a, row) => a + Number(row.n), 0);
      return {
        running,
        last_tick_at: lastTick ? lastTick.toISOString() : null,
        queued: count('created', 'retry'),
        failed: count('failed'),
      };
    },
    async cleanup() {
      // pg-boss's own maintenance deletes the same rows on its schedule; this is the run on demand
      // (and the limiter's prune, which pg-boss knows nothing of).
      const r = await q(
        `delete from ${t('job')}
         where state in ('completed', 'cancelled', 'failed')
           and completed_on < now() - deletion_seconds * interval '1 second'
           and deletion_seconds > 0
         returning id`,
        [],
      );
      await limiter.prune();
      return r.rows.length;
    },
  };
  const adopted = await adoptTableJobs(handle, queue, clock);
  if (adopted > 0)
    log.info({ jobs: adopted }, 'moved the jobs the table driver left waiting into pg-boss');
  return queue;
}

/**
 * The jobs the table driver left waiting in `jobs` (an install moved from SQLite by
 * `npm run migrate-to-postgres`, or one that ran with TENPO_JOB_DRIVER=table): a scheduled post
 * among them must still go out. Each is sent to pg-boss with its key, due time and remaining
 * attempts, and marked cancelled in `jobs`, in one transaction under an advisory lock, so that
 * processes starting together move each job once (ADR 0053). A job a live table worker holds
 * (its lease not yet lapsed) is left to it.
 */
export async function adoptTableJobs(
  handle: DbHandle,
  queue: Queue,
  clock: Clock,
): Promise<number> {
  const now = clock.now().toISOString();
  return handle.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('tenpo:adopt-table-jobs'))`.execute(trx);
    const rows = await trx
      .selectFrom('jobs')
      .select(['id', 'queue', 'payload', 'attempts', 'max_attempts', 'run_at', 'idempotency_key'])
      .where((eb) =>
        eb.or([
          eb('status', '=', 'queued'),
          eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
        ]),
      )
      .orderBy('id')
      .execute();
    for (const r of rows)
      await queue.enqueue(r.queue, JSON.parse(r.payload) as unknown, {
        ...(r.idempotency_key === null ? {} : { key: r.idempotency_key }),
        runAt: new Date(r.run_at),
        maxAttempts: Math.max(1, r.max_attempts - r.attempts),
        trx,
      });
    if (rows.length > 0)
      await trx
        .updateTable('jobs')
        .set({
          status: 'cancelled',
          last_error: 'moved to pg-boss',
          finished_at: now,
          updated_at: now,
        })
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    return rows.length;
  });
}
