import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/kysely';

/**
 * The job engine's one interface (ADR 0020). Two drivers implement it: the embedded one on the
 * `jobs` table (SQLite, or PostgreSQL for small installs) and pg-boss (PostgreSQL at scale).
 */

export type JobContext = {
  id: string;
  queue: string;
  /** The job's key (its idempotency key), if it was given one. */
  key: string | null;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** When the job was due (metrics: its lag); absent where a driver does not say. */
  dueAt?: Date;
  /** Aborted when the worker stops or loses the job's lease: stop calling providers. */
  signal: AbortSignal;
  /**
   * Ends this run and runs the job again at `at` (a quota's reset time, a provider's
   * Retry-After). Not counted as an attempt.
   */
  retryAt(at: Date, reason?: string): never;
  log: FastifyBaseLogger;
};

export type JobHandler<P = unknown> = (payload: P, ctx: JobContext) => Promise<void>;

/** At most `max` job starts per `perMs` for each key (a channel, an account, a grant). */
export type RateLimit<P = unknown> = {
  /** The bucket this job counts against; null: this limit does not apply to it. */
  key: (payload: P) => string | null;
  max: number;
  perMs: number;
};

export type WorkOptions<P = unknown> = {
  /** Jobs of this queue run at once in this process (default 1). */
  concurrency?: number;
  /** Every limit applies; a job over any of them waits, without counting an attempt. */
  limiter?: RateLimit<P> | RateLimit<P>[];
};

/** A caller's open transaction, which an enqueue joins (a repo's `transaction` hands it out). */
export type JobTx = Db;

export type EnqueueOptions = {
  runAt?: Date;
  /**
   * The job's key: a second enqueue with the same key is a no-op (a retry never does the work
   * twice), and `cancel` / `reschedule` find the job by it.
   */
  key?: string;
  /** @deprecated the same as `key`. */
  idempotencyKey?: string;
  maxAttempts?: number;
  /** The caller's transaction: the job exists exactly when the caller's writes commit. */
  trx?: JobTx;
};

/** One job of `enqueueMany`. */
export type NewJob = {
  queue: string;
  payload: unknown;
  opts?: Omit<EnqueueOptions, 'trx'>;
};

export type Schedule = {
  /** One schedule per name: scheduling a name again replaces it. */
  name: string;
  /** When, in Tokyo time: `dailyAt(hour, minute)` or `everyMinutes(n)` (recurrence.ts, ADR 0078). */
  cron: string;
  queue: string;
  payload?: unknown;
};

export type WorkerStatus = {
  running: boolean;
  last_tick_at: string | null;
  queued: number;
  failed: number;
};

export interface Queue {
  readonly driver: 'table' | 'pg-boss';
  enqueue(queue: string, payload: unknown, opts?: EnqueueOptions): Promise<void>;
  /**
   * Many jobs at once, in the caller's transaction `trx` when given: one statement per queue
   * (pg-boss) or as few as the databases' limit on parameters allows (table driver), whatever
   * their number. Each is as `enqueue` would make it (a key already taken is a no-op).
   */
  enqueueMany(jobs: readonly NewJob[], trx?: JobTx): Promise<void>;
  /** Registers the handler of a queue; its jobs run once `start` has been called. */
  work<P = unknown>(queue: string, handler: JobHandler<P>, opts?: WorkOptions<P>): void;
  /** Cancels the queued job with this key. False when there is none (or it already started). */
  cancel(key: string): Promise<boolean>;
  /** Moves the queued job with this key to `runAt`. False when there is none. */
  reschedule(key: string, runAt: Date): Promise<boolean>;
  /** Creates or replaces a recurring job. */
  schedule(s: Schedule): Promise<void>;
  unschedule(name: string): Promise<void>;
  /**
   * Runs every due job now, one at a time, and returns how many ran (tests, one-off runs); at
   * most `limit` (default 1000).
   */
  drain(limit?: number): Promise<number>;
  start(): Promise<void>;
  /**
   * Stops taking jobs, lets those in flight finish for up to `graceMs`, aborts and hands back
   * the rest (they run again at once elsewhere), and returns.
   */
  stop(opts?: { graceMs?: number }): Promise<void>;
  status(): Promise<WorkerStatus>;
  /** Deletes finished jobs past their retention. Returns how many went. */
  cleanup(): Promise<number>;
}

export type EngineOptions = {
  /** How often an idle worker looks for due jobs (embedded driver). */
  pollMs?: number;
  /** A claimed job is the claimant's for this long, renewed while its handler runs. */
  leaseMs?: number;
  /** How long `stop` waits for jobs in flight. */
  graceMs?: number;
  /** How often recurring schedules and retention are looked at. */
  scheduleMs?: number;
  retention?: { doneMs?: number; failedMs?: number };
  /** The wait before a failed job's next attempt (default `backoffMs`). */
  backoff?: (attempt: number) => number;
  log: FastifyBaseLogger;
};

/** Thrown by a handler for a failure that retrying cannot fix. */
export class PermanentJobError extends Error {}

/** Thrown by `ctx.retryAt`: the job runs again at `at`. */
export class RetryLater extends Error {
  constructor(
    readonly at: Date,
    reason?: string,
  ) {
    super(reason ?? `retry at ${at.toISOString()}`);
  }
}

/** Exponential back-off with full jitter: 2^attempt seconds, at most an hour. */
export const backoffMs = (attempt: number, random: () => number = Math.random): number =>
  Math.round(Math.min(3_600_000, 1000 * 2 ** attempt) * (0.5 + random() / 2));

export const limitsOf = <P>(opts: WorkOptions<P>): RateLimit<P>[] =>
  opts.limiter === undefined ? [] : Array.isArray(opts.limiter) ? opts.limiter : [opts.limiter];

export const keyOf = (opts: EnqueueOptions): string | null =>
  opts.key ?? opts.idempotencyKey ?? null;

export const errorText = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).slice(0, 2000);

export const DEFAULT_RETENTION = { doneMs: 7 * 24 * 3_600_000, failedMs: 30 * 24 * 3_600_000 };
