/**
 * Settles in a later task of the event loop: long start-up work split at these points is several
 * short tasks instead of one long one, so a phone's main thread answers a tap in between
 * (Lighthouse's Total Blocking Time counts what a task runs beyond 50 ms; ADR 0087).
 */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
