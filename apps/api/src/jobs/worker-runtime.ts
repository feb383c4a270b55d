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
