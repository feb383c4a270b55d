import type { JobHandler, WorkOptions } from './engine';

/**
 * What both drivers' workers do alike (ADR 0020): ending the poll loops, draining the due jobs
 * one at a time, and a graceful stop's wait-then-abort. The drivers differ only in how they take
 * and settle a job.
 */

export type LoopWorker = { wake: () => void; loop: Promise<void> | null };
export type Run = { controller: AbortController; done: Promise<void> };

/** Wakes every loop (each sees that the engine stopped) and waits for them to end. */
export async function endLoops(workers: Iterable<LoopWorker>): Promise<void> {
  const all = [...workers];
  for (const w of all) w.wake();
  await Promise.all(all.map((w) => w.loop));
  for (const w of all) w.loop = null;
}

/**
 * Runs the due jobs of every worker one at a time until none is left or `limit` ran, yielding to
 * the event loop between rounds: a job that stays due cannot hang the caller.
 */
export async function drainEach<W, J>(
  workers: Iterable<W>,
  take: (w: W) => Promise<J[]>,
  run: (job: J, w: W) => Promise<void>,
  limit: number,
): Promise<number> {
  const all = [...workers];
  let n = 0;
  while (n < limit) {
    await new Promise((resolve) => setImmediate(resolve));
    let ran = 0;
    for (const w of all) {
      for (const job of await take(w)) {
        ran += 1;
        await run(job, w);
      }
    }
    if (ran === 0) break;
    n += ran;
  }
  return n;
}

const within = async (p: Promise<unknown>, ms: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
};

/**
 * A graceful stop's wait: the runs in flight get `graceMs` to finish; those still going are
 * aborted with `reason` (their runs hand their jobs back) and get `afterAbortMs` more. Returns
 * the runs that ignored their signal.
 */
export async function finishOrAbort<R extends Run>(
  inFlight: () => R[],
  graceMs: number,
  reason: Error,
  afterAbortMs = 1000,
): Promise<R[]> {
  const pending = inFlight();
  if (pending.length === 0) return [];
  await within(Promise.all(pending.map((p) => p.done)), graceMs);
  const late = inFlight();
  for (const p of late) p.controller.abort(reason);
  await within(Promise.all(late.map((p) => p.done)), afterAbortMs);
  return inFlight();
}

/** One queue's worker in this process. */
export type QueueWorker = {
  queue: string;
  handler: JobHandler;
  concurrency: number;
  opts: WorkOptions;
  /** Its runs in flight. */
  active: number;
  /** Cuts the current idle wait short (a job finished, or one was enqueued here). */
  wake: () => void;
  loop: Promise<void> | null;
};

export const newWorker = <P>(
  queue: string,
  handler: JobHandler<P>,
  opts: WorkOptions<P>,
): QueueWorker => ({
  queue,
  handler: handler as JobHandler,
  concurrency: Math.max(1, opts.concurrency ?? 1),
  opts: opts as WorkOptions,
  active: 0,
  wake: () => {},
  loop: null,
});

/** Waits `ms`, or until the worker is woken. */
const idle = (w: QueueWorker, ms: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      w.wake = () => {};
      resolve();
    }
    w.wake = done;
  });

/**
 * A worker's poll loop: while the engine runs, take as many due jobs as it has free slots and
 * start them; a full batch means more may be due, so look again once a slot frees; otherwise
 * wait `pollMs` or a wake. `putBack` returns a job taken while the engine was stopping (without
 * it, such a job still starts, and the stop's grace covers it).
 */
export async function pollLoop<J>(
  w: QueueWorker,
  p: {
    running: () => boolean;
    take: (n: number) => Promise<J[]>;
    start: (job: J) => void;
    putBack?: (job: J) => Promise<unknown>;
    pollMs: number;
    onTaken: () => void;
    onError: (err: unknown) => void;
  },
): Promise<void> {
  while (p.running()) {
    // SQLite answers synchronously and a finished job wakes this loop through a promise: give the
    // event loop a turn every time round (timers such as the lease renewal, HTTP).
    await new Promise((resolve) => setImmediate(resolve));
    if (!p.running()) break;
    const free = w.concurrency - w.active;
    let got = 0;
    if (free > 0) {
      try {
        const jobs = await p.take(free);
        got = jobs.length;
        for (const job of jobs) {
          if (p.running() || !p.putBack) p.start(job);
          else await p.putBack(job);
        }
        p.onTaken();
      } catch (err) {
        p.onError(err);
      }
    }
    if (!p.running()) break;
    if (got > 0 && got === free) {
      if (w.active >= w.concurrency) await idle(w, p.pollMs);
      continue;
    }
    await idle(w, p.pollMs);
  }
}
