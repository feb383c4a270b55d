import { sql } from 'kysely';
import { statementBatches } from '../db/batches';
import type { Db, Dialect } from '../db/kysely';
import { addMs, iso, type Clock } from '../lib/clock';
import type { EngineOptions, Schedule } from './engine';
import { nextRun, readRecurrence } from './recurrence';

/**
 * The table driver's reads and writes of `jobs` and `job_schedules` (table-driver.ts runs the
 * workers on them). Every write to a claimed job is fenced to its owner token.
 */

export type Claimed = {
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

/** The finishing write of a claimed job: its status and what goes with it. */
export type FinishSet = {
  status: string;
  run_at?: string;
  last_error?: string | null;
  attempts?: number;
  finished_at?: string | null;
};

/** Claims up to `n` due jobs of `queue` for the owner token `owner`, leased until `lease`. */
export async function claimDue(
  db: Db,
  dialect: Dialect,
  {
    queue,
    n,
    now,
    owner,
    lease,
  }: { queue: string; n: number; now: string; owner: string; lease: string },
): Promise<Claimed[]> {
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
}

/** A write that only the job's current owner can make. */
export async function finishOwned(
  db: Db,
  clock: Clock,
  log: EngineOptions['log'],
  job: Claimed,
  set: FinishSet,
): Promise<boolean> {
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
}

/** Renews a running job's lease, for its owner only; false when the claim is gone. */
export async function renewLease(db: Db, job: Claimed, lease: string): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ locked_until: lease })
    .where('id', '=', job.id)
    .where('owner', '=', job.owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) !== 0;
}

export async function insertJob(
  target: Db,
  clock: Clock,
  queueName: string,
  payloadText: string,
  opts: { key: string | null; runAt?: Date; maxAttempts?: number },
): Promise<void> {
  await insertJobs(target, clock, [{ queueName, payloadText, ...opts }]);
}

/** `insertJob` for many jobs, in as few statements as the limit on parameters allows. */
export async function insertJobs(
  target: Db,
  clock: Clock,
  jobs: readonly {
    queueName: string;
    payloadText: string;
    key: string | null;
    runAt?: Date;
    maxAttempts?: number;
  }[],
): Promise<void> {
  const now = iso(clock.now());
  const rows = jobs.map((j) => ({
    queue: j.queueName,
    payload: j.payloadText,
    status: 'queued' as const,
    attempts: 0,
    max_attempts: j.maxAttempts ?? 5,
    run_at: iso(j.runAt ?? clock.now()),
    idempotency_key: j.key,
    created_at: now,
    updated_at: now,
  }));
  for (const batch of statementBatches(rows))
    await target
      .insertInto('jobs')
      .values(batch)
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
}

/** Enqueues the slot of every schedule due at `now`, once among all processes. */
export async function enqueueDueSchedules(db: Db, clock: Clock, now: Date): Promise<void> {
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
      await insertJob(trx, clock, s.queue, s.payload, {
        key: `schedule:${s.name}:${s.next_run_at}`,
      });
    });
  }
}

/** Cancels a queued job by its key; true when one was. */
export async function cancelQueued(db: Db, clock: Clock, key: string): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ status: 'cancelled', finished_at: iso(clock.now()), updated_at: iso(clock.now()) })
    .where('idempotency_key', '=', key)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Moves a queued job, by its key, to `runAt`; true when one was. */
export async function rescheduleQueued(
  db: Db,
  clock: Clock,
  key: string,
  runAt: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ run_at: iso(runAt), updated_at: iso(clock.now()) })
    .where('idempotency_key', '=', key)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Writes a schedule; the same schedule again keeps its next run. */
export async function saveSchedule(db: Db, clock: Clock, s: Schedule): Promise<void> {
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
  if (existing.cron === s.cron && existing.queue === s.queue && existing.payload === values.payload)
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
}

/** How many jobs are queued and failed. */
export async function countJobs(db: Db): Promise<{ queued: number; failed: number }> {
  const rows = await db
    .selectFrom('jobs')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', 'in', ['queued', 'failed'])
    .groupBy('status')
    .execute();
  const count = (s: string): number => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { queued: count('queued'), failed: count('failed') };
}

/** Deletes finished jobs past their retention; how many. */
export async function deleteFinished(
  db: Db,
  clock: Clock,
  retention: { doneMs: number; failedMs: number },
): Promise<number> {
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
}
