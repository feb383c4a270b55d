import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { fromKysely } from 'pg-boss';
import type { DbHandle } from '../db/kysely';
import type { Clock } from '../lib/clock';
import {
  backoffMs,
  DEFAULT_RETENTION,
  keyOf,
  type EnqueueOptions,
  type EngineOptions,
  type NewJob,
  type Queue,
} from './engine';
import { createLimiter } from './limiter';
import {
  bossDbOf,
  cancelByKey,
  countStates,
  deleteFinishedJobs,
  fetchJobs,
  requeueJob,
  rescheduleByKey,
  scheduleJob,
  startBoss,
  unscheduleAll,
  type BossJob,
  type Data,
  type PgBossTuning,
} from './pg-boss-driver.boss';
import { HandBack, runJob, touchInFlight, type InFlight, type Runner } from './pg-boss-driver.run';
import {
  drainEach,
  endLoops,
  finishOrAbort,
  newWorker,
  pollLoop,
  type QueueWorker as Worker,
} from './worker-runtime';

export type { PgBossTuning } from './pg-boss-driver.boss';

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

/** A job's data and pg-boss options from the engine's, as `send` and `insert` both take them. */
const jobOf = (payload: unknown, opts: Omit<EnqueueOptions, 'trx'>) => {
  const key = keyOf(opts);
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 5);
  const data: Data = { payload: payload ?? null, maxAttempts };
  return {
    data,
    ...(key === null ? {} : { id: idOfKey(key), singletonKey: key }),
    retryLimit: maxAttempts - 1,
    ...(opts.runAt ? { startAfter: opts.runAt } : {}),
  };
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
  const boss = await startBoss(handle.connectionString, schema, log, tuning);
  const b = bossDbOf(boss, schema, log, retention, heartbeatSeconds);
  const runner: Runner = { b, clock, limiter, backoff };

  const workers = new Map<string, Worker>();
  const inFlight = new Map<string, InFlight>();
  let running = false;
  let lastTick: Date | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let janitor: NodeJS.Timeout | null = null;

  const launch = (job: BossJob, w: Worker): InFlight => {
    const entry: InFlight = {
      job,
      controller: new AbortController(),
      settled: false,
      done: Promise.resolve(),
    };
    w.active += 1;
    inFlight.set(job.id, entry);
    entry.done = runJob(runner, job, w, entry)
      .catch((err: unknown) => log.error({ err, job_id: job.id }, 'job bookkeeping failed'))
      .finally(() => {
        inFlight.delete(job.id);
        w.active -= 1;
        w.wake();
      });
    return entry;
  };

  const loop = (w: Worker): Promise<void> =>
    pollLoop(w, {
      running: () => running,
      take: (n) => fetchJobs(b, w.queue, n),
      start: (job) => void launch(job, w),
      // Stopped while the fetch was out: the claims go back at once, not counted.
      putBack: (job) => requeueJob(b, job, clock.now(), true, null),
      pollMs,
      onTaken: () => {
        lastTick = clock.now();
      },
      onError: (err) => log.error({ err, queue: w.queue }, 'job fetch failed'),
    });

  const queue: Queue = {
    driver: 'pg-boss',
    async enqueue(name, payload, opts = {}) {
      await b.ensureQueue(name);
      const { data, ...options } = jobOf(payload, opts);
      await boss.send(name, data, {
        ...options,
        // The caller's transaction: the job exists exactly when its writes commit.
        ...(opts.trx ? { db: fromKysely(opts.trx) } : {}),
      });
      const w = workers.get(name);
      if (w && running) setImmediate(() => w.wake());
    },
    async enqueueMany(jobs, trx) {
      const byQueue = new Map<string, NewJob[]>();
      for (const j of jobs) byQueue.set(j.queue, [...(byQueue.get(j.queue) ?? []), j]);
      for (const [name, list] of byQueue) {
        await b.ensureQueue(name);
        // One statement (pg-boss's `insert`: a JSON recordset, `ON CONFLICT DO NOTHING`), with the
        // same id, key, retries and start as `send` gives each.
        await boss.insert(
          name,
          list.map((j) => jobOf(j.payload, j.opts ?? {})),
          trx ? { db: fromKysely(trx) } : {},
        );
        const w = workers.get(name);
        if (w && running) setImmediate(() => w.wake());
      }
    },
    work(name, handler, opts = {}) {
      const w = newWorker(name, handler, opts);
      workers.set(name, w);
      if (running) w.loop = loop(w);
    },
    cancel: (key) => cancelByKey(b, key),
    reschedule: (key, runAt) => rescheduleByKey(b, key, runAt),
    schedule: (s) => scheduleJob(b, s),
    unschedule: (name) => unscheduleAll(b, name),
    async drain(limit = 1000) {
      const n = await drainEach(
        workers.values(),
        (w) => fetchJobs(b, w.queue, 1),
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
          touchInFlight(b, inFlight.values()).catch((err: unknown) =>
            log.error({ err }, 'job heartbeat failed'),
          );
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
      const { queued, failed } = await countStates(b);
      return {
        running,
        last_tick_at: lastTick ? lastTick.toISOString() : null,
        queued,
        failed,
      };
    },
    async cleanup() {
      // pg-boss's own maintenance deletes the same rows on its schedule; this is the run on demand
      // (and the limiter's prune, which pg-boss knows nothing of).
      const n = await deleteFinishedJobs(b);
      await limiter.prune();
      return n;
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
