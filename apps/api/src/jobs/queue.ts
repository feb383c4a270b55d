import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/kysely';
import { addMs, iso, type Clock } from '../lib/clock';

export type EnqueueOptions = {
  runAt?: Date;
  /** A second enqueue with the same key is a no-op: a retry never does the work twice. */
  idempotencyKey?: string;
  maxAttempts?: number;
};

export type JobHandler = (payload: unknown) => Promise<void>;

/** Thrown by a handler for a failure that retrying cannot fix. */
export class PermanentJobError extends Error {}

export type WorkerStatus = {
  running: boolean;
  last_tick_at: string | null;
  queued: number;
  failed: number;
};

/** Jobs behind one interface; the embedded driver keeps them in the `jobs` table. */
export interface Queue {
  enqueue(queue: string, payload: unknown, opts?: EnqueueOptions): Promise<void>;
  handle(queue: string, handler: JobHandler): void;
  /** Runs every due job now (tests, and one worker tick). Returns how many ran. */
  drain(): Promise<number>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
  status(): Promise<WorkerStatus>;
}

const LOCK_MS = 5 * 60 * 1000;

/** Exponential back-off with full jitter: 2^attempt seconds, at most an hour. */
export const backoffMs = (attempt: number, random: () => number = Math.random): number =>
  Math.round(Math.min(3_600_000, 1000 * 2 ** attempt) * (0.5 + random() / 2));

/**
 * The database-table driver. A job is claimed by a conditional update, so two workers never
 * run the same job; a job whose worker died is claimed again once its lock has expired, so a
 * crash loses no accepted work.
 */
export function createTableQueue(db: Db, clock: Clock, log: FastifyBaseLogger): Queue {
  const handlers = new Map<string, JobHandler>();
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<number> | null = null;
  let lastTick: Date | null = null;

  const claimNext = async (): Promise<{
    id: number;
    queue: string;
    payload: string;
    attempts: number;
    max_attempts: number;
  } | null> => {
    const now = iso(clock.now());
    const names = [...handlers.keys()];
    if (names.length === 0) return null;
    for (;;) {
      const job = await db
        .selectFrom('jobs')
        .select(['id', 'queue', 'payload', 'attempts', 'max_attempts', 'status'])
        .where('queue', 'in', names)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
            eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
          ]),
        )
        .orderBy('run_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!job) return null;
      const res = await db
        .updateTable('jobs')
        .set({
          status: 'running',
          locked_until: iso(addMs(clock.now(), LOCK_MS)),
          attempts: job.attempts + 1,
          updated_at: now,
        })
        .where('id', '=', job.id)
        .where('status', '=', job.status)
        .where('attempts', '=', job.attempts)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) return { ...job, attempts: job.attempts + 1 };
      // Another worker took it first: look again.
    }
  };

  const runOne = async (): Promise<boolean> => {
    const job = await claimNext();
    if (!job) return false;
    const handler = handlers.get(job.queue);
    try {
      if (!handler) throw new PermanentJobError(`no handler for ${job.queue}`);
      await handler(JSON.parse(job.payload) as unknown);
      await db
        .updateTable('jobs')
        .set({ status: 'done', locked_until: null, last_error: null, updated_at: iso(clock.now()) })
        .where('id', '=', job.id)
        .execute();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const final = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
      log.warn(
        { job_id: job.id, queue: job.queue, attempt: job.attempts, final, err: message },
        'job failed',
      );
      await db
        .updateTable('jobs')
        .set({
          status: final ? 'failed' : 'queued',
          locked_until: null,
          last_error: message.slice(0, 2000),
          run_at: iso(addMs(clock.now(), final ? 0 : backoffMs(job.attempts))),
          updated_at: iso(clock.now()),
        })
        .where('id', '=', job.id)
        .execute();
    }
    return true;
  };

  const tick = async (): Promise<number> => {
    let n = 0;
    while (await runOne()) n += 1;
    lastTick = clock.now();
    return n;
  };

  return {
    async enqueue(queue, payload, opts = {}) {
      const now = iso(clock.now());
      const values = {
        queue,
        payload: JSON.stringify(payload),
        status: 'queued',
        attempts: 0,
        max_attempts: opts.maxAttempts ?? 5,
        run_at: iso(opts.runAt ?? clock.now()),
        idempotency_key: opts.idempotencyKey ?? null,
        created_at: now,
        updated_at: now,
      };
      await db
        .insertInto('jobs')
        .values(values)
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
    },
    handle(queue, handler) {
      handlers.set(queue, handler);
    },
    drain() {
      // One tick at a time: a drain during a timer tick waits for it, then runs again.
      const run = (ticking ?? Promise.resolve(0)).then(() => tick());
      ticking = run.finally(() => {
        if (ticking === run) ticking = null;
      });
      return run;
    },
    start(intervalMs = 1000) {
      if (timer) return;
      lastTick = clock.now();
      const loop = (): void => {
        timer = setTimeout(() => {
          this.drain()
            .catch((err: unknown) => log.error({ err }, 'job worker tick failed'))
            .finally(() => {
              if (timer) loop();
            });
        }, intervalMs);
        timer.unref();
      };
      loop();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await ticking;
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
        running: timer !== null,
        last_tick_at: lastTick ? iso(lastTick) : null,
        queued: count('queued'),
        failed: count('failed'),
      };
    },
  };
}
