import type { Clock } from '../lib/clock';
import { errorText, limitsOf, PermanentJobError, RetryLater, type JobContext } from './engine';
import type { Limiter } from './limiter';
import {
  attemptOf,
  completeJob,
  failJob,
  maxOf,
  requeueJob,
  type BossDb,
  type BossJob,
  type Settled,
} from './pg-boss-driver.boss';
import type { QueueWorker as Worker } from './worker-runtime';

export type InFlight = {
  job: BossJob;
  controller: AbortController;
  /** Set once this run's outcome has been written (or handed to pg-boss). */
  settled: boolean;
  done: Promise<void>;
};

/** Why a run ended early; the job is then handed back instead of failed. */
export class HandBack extends Error {}

/** What a run of a fetched job writes with, and answers to. */
export type Runner = {
  b: BossDb;
  clock: Clock;
  limiter: Limiter;
  backoff: (attempt: number) => number;
};

/** Runs one fetched job's handler and settles its outcome, fenced to its attempt. */
export async function runJob(r: Runner, job: BossJob, w: Worker, entry: InFlight): Promise<void> {
  const { controller } = entry;
  const attempt = attemptOf(job);
  const payload = job.data.payload;
  if (attempt > maxOf(job)) {
    // Claimed again after its workers died each time: a job that kills its worker stops here.
    await failJob(r.b, job, `gave up after ${maxOf(job)} attempts (the worker stopped each time)`);
    return;
  }
  const limits = limitsOf(w.opts);
  if (limits.length > 0) {
    const wait = await r.limiter.acquire(limits, payload);
    if (wait) {
      await requeueJob(r.b, job, wait, true, null);
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
    log: r.b.log,
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
    await completeJob(r.b, job);
  } catch (err) {
    if (err instanceof RetryLater) {
      await requeueJob(r.b, job, err.at, true, err.message);
      return;
    }
    if (controller.signal.aborted && controller.signal.reason instanceof HandBack) {
      // Stopped while running: the job runs again at once, not counted as an attempt.
      await requeueJob(r.b, job, r.clock.now(), true, null);
      return;
    }
    const message = errorText(err);
    const final = err instanceof PermanentJobError || attempt >= maxOf(job);
    r.b.log.warn({ job_id: job.id, queue: job.name, attempt, final, err: message }, 'job failed');
    if (final) await failJob(r.b, job, message);
    else
      await requeueJob(
        r.b,
        job,
        new Date(r.clock.now().getTime() + r.backoff(attempt)),
        false,
        message,
      );
  } finally {
    entry.settled = true;
  }
}

/** pg-boss's heartbeat for the jobs in flight; a job whose claim is gone has its run aborted. */
export async function touchInFlight(b: BossDb, inFlight: Iterable<InFlight>): Promise<void> {
  const byQueue = new Map<string, InFlight[]>();
  for (const e of inFlight) {
    if (e.settled || e.controller.signal.aborted) continue;
    byQueue.set(e.job.name, [...(byQueue.get(e.job.name) ?? []), e]);
  }
  for (const [name, entries] of byQueue) {
    const r: Settled = await b.boss.touch(
      name,
      entries.map((e) => ({ id: e.job.id, retryCount: e.job.retryCount })),
    );
    if (!r.settled) continue;
    const held = new Set(r.settled);
    for (const e of entries) {
      if (held.has(e.job.id) || e.settled) continue;
      b.log.warn({ job_id: e.job.id, queue: name }, 'job lease lost: aborting its run');
      e.controller.abort(new Error('lease lost'));
    }
  }
}
