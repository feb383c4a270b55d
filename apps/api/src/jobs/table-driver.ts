import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Dialect } from '../db/kysely';
import { addMs, iso, type Clock } from '../lib/clock';
import { nextRun, readRecurrence } from './recurrence';
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
import {
  drainEach,
  endLoops,
  finishOrAbort,
  newWorker,
  pollLoop,
  type QueueWorker as Worker,
} from './worker-runtime';

type Claimed = {
  id: number;
  queue: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  idempotency_key: string | null;
  owner: string;
  /** When it was due (a text timestamp on SQLite). */
  run_at: string | Date;
};

type InFlight = { job: Claimed; controller: AbortController; done: Promise<void> };

/** Why a run ended early; the finishing write then hands the job back instead of failing it. */
class HandBack extends Error {}

/**
 * The embedded driver, on the `jobs` table (ADR 0020). A claim is one conditional
 * `UPDATE … RETURNING` over a batch of due jobs (with `FOR UPDATE SKIP LOCKED` on PostgreSQL)
 * that writes a fresh owner token; the lease is renewed while the handler runs, and a job whose
 * worker died is claimed again once its lease lapses. Only the owner can finish a job.
 */
export function createTableQueue(
  db: Db,
  dialect: Dialect,
  clock: Clock,
  options: EngineOptions,
): Queue {
  const log = options.log;
  const pollMs = options.pollMs ?? 250;
  const leaseMs = options.leaseMs ?? 15_000;
  const graceMs = options.graceMs ?? 10_000;
  const scheduleMs = options.scheduleMs ?? 5_000;
  const retention = { ...DEFAULT_RETENTION, ...options.retention };
  const backoff = options.backoff ?? backoffMs;
  const workerId = randomBytes(6).toString('hex');
  const limiter = createLimiter(db, dialect, clock);
  const workers = new Map<string, Worker>();
  const inFlight = new Map<number, InFlight>();
  let claims = 0;
  let running = false;
  let lastTick: Date | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let scheduler: NodeJS.Timeout | null = null;
  let schedulerRun: Promise<void> | null = null;
  let lastCleanup = 0;

  /** Claims up to `n` due jobs of `queue` for a fresh owner token. */
  const claim = async (queue: string, n: number): Promise<Claimed[]> => {
    const now = iso(clock.now());
    const owner = `${workerId}.${(claims += 1)}`;
    const lease = iso(addMs(clock.now(), leaseMs));
    // The claim guard: only a queued job that is due, or a running one whose lease has lapsed,
    // can be taken; the same condition is checked again on the row being updated.
    const claimable = sql`queue = ${queue} and ((status = 'queued' and run_at <= ${now}) or (status = 'running' and locked_until < ${now}))`;
    const set = sql`status = 'running', owner = ${owner}, locked_until = ${lease},
        attempts = attempts + 1, started_at = ${now}, updated_at = ${now}`;
    const returning = sql`returning jobs.id, jobs.queue, jobs.payload, jobs.attempts, jobs.max_attempts, jobs.idempotency_key, jobs.owner, jobs.run_at`;
    // On PostgreSQL the batch is picked once, in a materialised CTE: as a plain `IN (subquery)`
    // the planner may run a SKIP LOCKED subquery more than once and claim more than `n` rows.
    const r =
      dialect === 'postgres'
        ? await sql<Claimed>`
            with picked as materialized (
              select id from jobs where ${claimable} order by run_at, id limit ${n}
              for update skip locked
            )
            update jobs set ${set} from picked where jobs.id = picked.id and ${claimable}
            ${returning}
          `.execute(db)
        : // On SQLite the batch is picked from two searches of the (queue, status, run_at)
          // index, due queued jobs and running ones, merged: with the OR of both in one WHERE it
          // read every job of the queue and sorted them, 5 ms a claim with a few thousand jobs
          // (bench/delivery.ts). NOT INDEXED makes the update itself find its rows by id (left
          // to choose, SQLite scanned the queue's index for the guard's `queue = ?`).
          await sql<Claimed>`
            update jobs not indexed set ${set}
            where id in (
              select id from (
                select id, run_at from (
                  select id, run_at from jobs
                  where queue = ${queue} and status = 'queued' and run_at <= ${now}
                  order by run_at, id limit ${n}
                )
                union all
                select id, run_at from (
                  select id, run_at from jobs
                  where queue = ${queue} and status = 'running' and locked_until < ${now}
                  order by run_at, id limit ${n}
                )
              )
              order by run_at, id limit ${n}
            )
              and ${claimable}
            ${returning}
          `.execute(db);
    return r.rows.map((row) => ({ ...row, id: Number(row.id) }));
  };

  /** A write that only the job's current owner can make. */
  const finish = async (
    job: Claimed,
    set: {
      status: string;
      run_at?: string;
      last_error?: string | null;
      attempts?: number;
      finished_at?: string | null;
    },
  ): Promise<boolean> => {
    const r = await db
      .updateTable('jobs')
      .set({ ...set, owner: null, locked_until: null, updated_at: iso(clock.now()) })
      .where('id', '=', job.id)
      .where('owner', '=', job.owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    const ok = Number(r.numUpdatedRows) === 1;
    if (!ok) log.warn({ job_id: job.id, queue: job.queue }, 'job lost to another worker');
    return ok;
  };

  const handBack = (job: Claimed, runAt: Date, reason: string | null): Promise<boolean> =>
    finish(job, {
      status: 'queued',
      run_at: iso(runAt),
      attempts: job.attempts - 1,
      ...(reason === null ? {} : { last_error: reason }),
    });

  const runJob = async (job: Claimed, w: Worker, controller: AbortController): Promise<void> => {
    if (job.attempts > job.max_attempts) {
      // Claimed again after its workers died each time: a job that kills its worker stops here.
      await finish(job, {
        status: 'failed',
        last_error: `gave up after ${job.max_attempts} attempts (the worker stopped each time)`,
        finished_at: iso(clock.now()),
      });
      return;
    }
    const limits = limitsOf(w.opts);
    const payload = JSON.parse(job.payload) as unknown;
    if (limits.length > 0) {
      const wait = await limiter.acquire(limits, payload);
      if (wait) {
        await handBack(job, wait, null);
        return;
      }
    }
    const ctx: JobContext = {
      id: String(job.id),
      queue: job.queue,
      key: job.idempotency_key,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      dueAt: new Date(job.run_at),
      signal: controller.signal,
      retryAt: (at, reason) => {
        throw new RetryLater(at, reason);
      },
      log,
    };
    try {
      await w.handler(payload, ctx);
      // Were the lease lost meanwhile, this write finds another owner and changes nothing.
      await finish(job, { status: 'done', last_error: null, finished_at: iso(clock.now()) });
    } catch (err) {
      if (err instanceof RetryLater) {
        await handBack(job, err.at, err.message);
        return;
      }
      if (controller.signal.aborted && controller.signal.reason instanceof HandBack) {
        // Stopped while running: the job runs again at once, not counted as an attempt.
        await handBack(job, clock.now(), null);
        return;
      }
      const message = errorText(err);
      const final = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
      log.warn(
        { job_id: job.id, queue: job.queue, attempt: job.attempts, final, err: message },
        'job failed',
      );
      await finish(job, {
        status: final ? 'failed' : 'queued',
        last_error: message,
        run_at: iso(addMs(clock.now(), final ? 0 : backoff(job.attempts))),
        finished_at: final ? iso(clock.now()) : null,
      });
    }
  };

  const launch = (job: Claimed, w: Worker): InFlight => {
    const controller = new AbortController();
    w.active += 1;
    const entry: InFlight = {
      job,
      controller,
      done: runJob(job, w, controller)
        .catch((err: unknown) => log.error({ err, job_id: job.id }, 'job bookkeeping failed'))
        .finally(() => {
          inFlight.delete(job.id);
          w.active -= 1;
          w.wake();
        }),
    };
    inFlight.set(job.id, entry);
    return entry;
  };

  const renewLeases = async (): Promise<void> => {
    const lease = iso(addMs(clock.now(), leaseMs));
    for (const { job, controller } of [...inFlight.values()]) {
      if (controller.signal.aborted) continue;
      const r = await db
        .updateTable('jobs')
        .set({ locked_until: lease })
        .where('id', '=', job.id)
        .where('owner', '=', job.owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) {
        log.warn({ job_id: job.id, queue: job.queue }, 'job lease lost: aborting its run');
        controller.abort(new HandBack('lease lost'));
      }
    }
  };

  const loop = (w: Worker): Promise<void> =>
    pollLoop(w, {
      running: () => running,
      take: (n) => claim(w.queue, n),
      start: (job) => void launch(job, w),
      pollMs,
      onTaken: () => {
        lastTick = clock.now();
      },
      onError: (err) => log.error({ err, queue: w.queue }, 'job claim failed'),
    });

  const runSchedules = async (): Promise<void> => {
    const now = clock.now();
    const due = await db
      .selectFrom('job_schedules')
      .selectAll()
      .where('next_run_at', '<=', iso(now))
      .execute();
    for (const s of due) {
      const next = iso(nextRun(s.cron, now));
      await db.transaction().execute(async (trx) => {
        // Whoever moves next_run_at on enqueues this slot; the job's key makes a repeat a no-op.
        const r = await trx
          .updateTable('job_schedules')
          .set({ next_run_at: next, updated_at: iso(now) })
          .where('name', '=', s.name)
          .where('next_run_at', '=', s.next_run_at)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return;
        await insertJob(trx, s.queue, s.payload, {
          key: `schedule:${s.name}:${s.next_run_at}`,
        });
      });
    }
    if (now.getTime() - lastCleanup > 3_600_000) {
      lastCleanup = now.getTime();
      await queue.cleanup();
      await limiter.prune();
    }
  };

  const insertJob = async (
    target: Db,
    queueName: string,
    payloadText: string,
    opts: { key: string | null; runAt?: Date; maxAttempts?: number },
  ): Promise<void> => {
    const now = iso(clock.now());
    await target
      .insertInto('jobs')
      .values({
        queue: queueName,
        payload: payloadText,
        status: 'queued',
        attempts: 0,
        max_attempts: opts.maxAttempts ?? 5,
        run_at: iso(opts.runAt ?? clock.now()),
        idempotency_key: opts.key,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
  };

  const queue: Queue = {
    driver: 'table',
    async enqueue(name, payload, opts = {}) {
      await insertJob(opts.trx ?? db, name, JSON.stringify(payload), {
        key: keyOf(opts),
        ...(opts.runAt ? { runAt: opts.runAt } : {}),
        ...(opts.maxAttempts ? { maxAttempts: opts.maxAttempts } : {}),
      });
      // In this process, an idle worker of that queue looks at once (after a commit, when in one).
      const w = workers.get(name);
      if (w && running) setImmediate(() => w.wake());
    },
    work(name, handler, opts = {}) {
      const w = newWorker(name, handler, opts);
      workers.set(name, w);
      if (running) w.loop = loop(w);
    },
    async cancel(key) {
      const r = await db
        .updateTable('jobs')
        .set({ status: 'cancelled', finished_at: iso(clock.now()), updated_at: iso(clock.now()) })
        .where('idempotency_key', '=', key)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async reschedule(key, runAt) {
      const r = await db
        .updateTable('jobs')
        .set({ run_at: iso(runAt), updated_at: iso(clock.now()) })
        .where('idempotency_key', '=', key)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async schedule(s) {
      const recurrence = readRecurrence(s.cron);
      const now = clock.now();
      const values = {
        name: s.name,
        queue: s.queue,
        cron: s.cron,
        payload: JSON.stringify(s.payload ?? {}),
        next_run_at: iso(nextRun(recurrence, now)),
        created_at: iso(now),
        updated_at: iso(now),
      };
      const existing = await db
        .selectFrom('job_schedules')
        .selectAll()
        .where('name', '=', s.name)
        .executeTakeFirst();
      if (!existing) {
        await db
          .insertInto('job_schedules')
          .values(values)
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
        return;
      }
      // The same schedule again (every process declares it at start) keeps its next run.
      if (
        existing.cron === s.cron &&
        existing.queue === s.queue &&
        existing.payload === values.payload
      )
        return;
      await db
        .updateTable('job_schedules')
        .set({
          queue: values.queue,
          cron: values.cron,
          payload: values.payload,
          next_run_at: values.next_run_at,
          updated_at: values.updated_at,
        })
        .where('name', '=', s.name)
        .execute();
    },
    async unschedule(name) {
      await db.deleteFrom('job_schedules').where('name', '=', name).execute();
    },
    async drain(limit = 1000) {
      await runSchedules();
      const n = await drainEach(
        workers.values(),
        (w) => claim(w.queue, 1),
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
          renewLeases().catch((err: unknown) => log.error({ err }, 'job lease renewal failed'));
        },
        Math.max(50, Math.floor(leaseMs / 3)),
      );
      const tick = (): void => {
        schedulerRun = runSchedules()
          .catch((err: unknown) => log.error({ err }, 'job schedules failed'))
          .finally(() => {
            schedulerRun = null;
          });
      };
      scheduler = setInterval(tick, scheduleMs);
      tick();
    },
    async stop(opts = {}) {
      const wasRunning = running;
      running = false;
      if (scheduler) clearInterval(scheduler);
      scheduler = null;
      await endLoops(workers.values());
      await schedulerRun;
      const stragglers = await finishOrAbort(
        () => [...inFlight.values()],
        opts.graceMs ?? graceMs,
        new HandBack('worker stopping'),
      );
      // A handler that ignores its signal: hand its job back anyway (its late finish then finds
      // no owner and changes nothing).
      for (const p of stragglers) await handBack(p.job, clock.now(), null);
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      if (wasRunning) log.info({ worker: workerId }, 'job worker stopped');
    },
    async status() {
      const rows = await db
        .selectFrom('jobs')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('status', 'in', ['queued', 'failed'])
        .groupBy('status')
        .execute();
      const count = (s: string): number => Number(rows.find((r) => r.status === s)?.n ?? 0);
      return {
        running,
        last_tick_at: lastTick ? iso(lastTick) : null,
        queued: count('queued'),
        failed: count('failed'),
      };
    },
    async cleanup() {
      const now = clock.now();
      const done = await db
        .deleteFrom('jobs')
        .where('status', 'in', ['done', 'cancelled'])
        .where('finished_at', '<', iso(addMs(now, -retention.doneMs)))
        .executeTakeFirst();
      const failed = await db
        .deleteFrom('jobs')
        .where('status', '=', 'failed')
        .where('finished_at', '<', iso(addMs(now, -retention.failedMs)))
        .executeTakeFirst();
      return Number(done.numDeletedRows) + Number(failed.numDeletedRows);
    },
  };
  return queue;
}
