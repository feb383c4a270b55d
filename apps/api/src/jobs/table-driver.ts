import { randomBytes } from 'node:crypto';
import type { Db, Dialect } from '../db/kysely';
import { addMs, iso, type Clock } from '../lib/clock';
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
import { createLimiter, type Limiter } from './limiter';
import {
  cancelQueued,
  claimDue,
  countJobs,
  deleteFinished,
  enqueueDueSchedules,
  insertJobs,
  finishOwned,
  insertJob,
  renewLease,
  rescheduleQueued,
  saveSchedule,
  type Claimed,
  type FinishSet,
} from './table-driver.rows';
import {
  drainEach,
  endLoops,
  finishOrAbort,
  newWorker,
  pollLoop,
  type QueueWorker as Worker,
} from './worker-runtime';

type InFlight = { job: Claimed; controller: AbortController; done: Promise<void> };

/** Why a run ended early; the finishing write then hands the job back instead of failing it. */
class HandBack extends Error {}

/** What a run of a claimed job writes with, and answers to. */
type Runner = {
  clock: Clock;
  log: EngineOptions['log'];
  limiter: Limiter;
  backoff: (attempt: number) => number;
  finish: (job: Claimed, set: FinishSet) => Promise<boolean>;
  handBack: (job: Claimed, runAt: Date, reason: string | null) => Promise<boolean>;
};

/** Runs one claimed job's handler and writes its outcome (as its owner). */
async function runJob(
  r: Runner,
  job: Claimed,
  w: Worker,
  controller: AbortController,
): Promise<void> {
  if (job.attempts > job.max_attempts) {
    // Claimed again after its workers died each time: a job that kills its worker stops here.
    await r.finish(job, {
      status: 'failed',
      last_error: `gave up after ${job.max_attempts} attempts (the worker stopped each time)`,
      finished_at: iso(r.clock.now()),
    });
    return;
  }
  const limits = limitsOf(w.opts);
  const payload = JSON.parse(job.payload) as unknown;
  if (limits.length > 0) {
    const wait = await r.limiter.acquire(limits, payload);
    if (wait) {
      await r.handBack(job, wait, null);
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
    log: r.log,
  };
  try {
    await w.handler(payload, ctx);
    // Were the lease lost meanwhile, this write finds another owner and changes nothing.
    await r.finish(job, { status: 'done', last_error: null, finished_at: iso(r.clock.now()) });
  } catch (err) {
    if (err instanceof RetryLater) {
      await r.handBack(job, err.at, err.message);
      return;
    }
    if (controller.signal.aborted && controller.signal.reason instanceof HandBack) {
      // Stopped while running: the job runs again at once, not counted as an attempt.
      await r.handBack(job, r.clock.now(), null);
      return;
    }
    const message = errorText(err);
    const final = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
    r.log.warn(
      { job_id: job.id, queue: job.queue, attempt: job.attempts, final, err: message },
      'job failed',
    );
    await r.finish(job, {
      status: final ? 'failed' : 'queued',
      last_error: message,
      run_at: iso(addMs(r.clock.now(), final ? 0 : r.backoff(job.attempts))),
      finished_at: final ? iso(r.clock.now()) : null,
    });
  }
}

/**
 * The embedded driver, on the `jobs` table (ADR 0020). A claim is one conditional
 * `UPDATE … RETURNING` over a batch of due jobs (with `FOR UPDATE SKIP LOCKED` on PostgreSQL)
 * that writes a fresh owner token; the lease is renewed while the handler runs, and a job whose
 * worker died is claimed again once its lease lapses. Only the owner can finish a job.
 * Its reads and writes are in table-driver.rows.ts.
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
    return claimDue(db, dialect, { queue, n, now, owner, lease });
  };

  /** A write that only the job's current owner can make. */
  const finish = (job: Claimed, set: FinishSet): Promise<boolean> =>
    finishOwned(db, clock, log, job, set);

  const handBack = (job: Claimed, runAt: Date, reason: string | null): Promise<boolean> =>
    finish(job, {
      status: 'queued',
      run_at: iso(runAt),
      attempts: job.attempts - 1,
      ...(reason === null ? {} : { last_error: reason }),
    });

  const runner: Runner = { clock, log, limiter, backoff, finish, handBack };

  const launch = (job: Claimed, w: Worker): InFlight => {
    const controller = new AbortController();
    w.active += 1;
    const entry: InFlight = {
      job,
      controller,
      done: runJob(runner, job, w, controller)
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
      if (!(await renewLease(db, job, lease))) {
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
    await enqueueDueSchedules(db, clock, now);
    if (now.getTime() - lastCleanup > 3_600_000) {
      lastCleanup = now.getTime();
      await queue.cleanup();
      await limiter.prune();
    }
  };

  const queue: Queue = {
    driver: 'table',
    async enqueue(name, payload, opts = {}) {
      await insertJob(opts.trx ?? db, clock, name, JSON.stringify(payload), {
        key: keyOf(opts),
        ...(opts.runAt ? { runAt: opts.runAt } : {}),
        ...(opts.maxAttempts ? { maxAttempts: opts.maxAttempts } : {}),
      });
      // In this process, an idle worker of that queue looks at once (after a commit, when in one).
      const w = workers.get(name);
      if (w && running) setImmediate(() => w.wake());
    },
    async enqueueMany(jobs, trx) {
      await insertJobs(
        trx ?? db,
        clock,
        jobs.map((j) => ({
          queueName: j.queue,
          payloadText: JSON.stringify(j.payload),
          key: keyOf(j.opts ?? {}),
          ...(j.opts?.runAt ? { runAt: j.opts.runAt } : {}),
          ...(j.opts?.maxAttempts ? { maxAttempts: j.opts.maxAttempts } : {}),
        })),
      );
      for (const name of new Set(jobs.map((j) => j.queue))) {
        const w = workers.get(name);
        if (w && running) setImmediate(() => w.wake());
      }
    },
    work(name, handler, opts = {}) {
      const w = newWorker(name, handler, opts);
      workers.set(name, w);
      if (running) w.loop = loop(w);
    },
    cancel: (key) => cancelQueued(db, clock, key),
    reschedule: (key, runAt) => rescheduleQueued(db, clock, key, runAt),
    schedule: (s) => saveSchedule(db, clock, s),
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
      const { queued, failed } = await countJobs(db);
      return {
        running,
        last_tick_at: lastTick ? iso(lastTick) : null,
        queued,
        failed,
      };
    },
    cleanup: () => deleteFinished(db, clock, retention),
  };
  return queue;
}
