// Measures the job engine (issue 8, "Measure"): 4,000 due no-op jobs on each driver (table on
// SQLite, table on PostgreSQL, pg-boss on PostgreSQL): throughput and p99 due → start lag, each
// against the raw single-row insert + conditional-update rate of the same database measured in
// this run; and a lone job's due → start p99 over 50 samples, against its target (≤ 1 s
// embedded, ≤ 2 s pg-boss). PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test); its rows are skipped when it cannot be reached.
// Run: node_modules/.bin/node --import tsx bench/jobs.ts (bench/run-all.mjs runs it too).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { openDatabase, type DbHandle } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { systemClock } from '../apps/api/src/lib/clock';
import { createQueue, type JobDriver } from '../apps/api/src/jobs/queue';
import { scratchSchema } from './support/pg-schema';

const JOBS = Number(process.env.BENCH_JOBS ?? 4000);
const LONE_SAMPLES = Number(process.env.BENCH_LONE ?? 50);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p99 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] ?? NaN;
};

type Target = {
  label: string;
  driver: JobDriver;
  open: () => DbHandle;
  drop: () => Promise<void>;
  targetLoneMs: number;
};

/** The raw rate of the database: single-row inserts, then single-row conditional claims. */
async function rawRate(h: DbHandle): Promise<number> {
  const db = h.db;
  const pk = h.dialect === 'postgres' ? sql`serial primary key` : sql`integer primary key`;
  await sql`create table bench_raw (id ${pk}, run_at text not null, status text not null)`.execute(
    db,
  );
  const t0 = performance.now();
  for (let i = 0; i < JOBS; i++)
    await sql`insert into bench_raw (run_at, status) values (${new Date().toISOString()}, 'queued')`.execute(
      db,
    );
  for (let id = 1; id <= JOBS; id++)
    await sql`update bench_raw set status = 'running' where id = ${id} and status = 'queued'`.execute(
      db,
    );
  const s = (performance.now() - t0) / 1000;
  await sql`drop table bench_raw`.execute(db);
  return JOBS / s;
}

async function backlog(t: Target): Promise<{ rate: number; p99: number; secs: number }> {
  const h = t.open();
  await migrateToLatest(h);
  const producer = await createQueue(h, systemClock, t.driver, { log });
  for (let n = 0; n < JOBS; n++) await producer.enqueue('bench.noop', { n });
  const worker = await createQueue(t.open(), systemClock, t.driver, { log });
  const starts: number[] = [];
  let done = 0;
  worker.work(
    'bench.noop',
    async () => {
      starts.push(performance.now());
      done += 1;
    },
    { concurrency: CONCURRENCY },
  );
  // Every job is due when the worker starts: its lag is how long it then waits to start.
  const due = performance.now();
  await worker.start();
  while (done < JOBS) await sleep(5);
  const end = performance.now();
  await worker.stop({ graceMs: 1000 });
  await producer.stop({ graceMs: 100 });
  return {
    rate: JOBS / ((end - due) / 1000),
    p99: p99(starts.map((s) => s - due)),
    secs: (end - due) / 1000,
  };
}

/** One job at a time, enqueued by another process's queue (as an API process would). */
async function lone(t: Target): Promise<number> {
  const producer = await createQueue(t.open(), systemClock, t.driver, { log });
  const worker = await createQueue(t.open(), systemClock, t.driver, { log });
  let started: ((at: number) => void) | null = null;
  worker.work(
    'bench.lone',
    async (p) => {
      const at = Date.now();
      const dueAt = (p as { due: number }).due;
      started?.(at - dueAt);
    },
    { concurrency: CONCURRENCY },
  );
  await worker.start();
  const lags: number[] = [];
  for (let i = 0; i < LONE_SAMPLES; i++) {
    // A random phase against the worker's poll.
    await sleep(Math.random() * 300);
    const lag = new Promise<number>((r) => (started = r));
    const due = Date.now();
    await producer.enqueue('bench.lone', { due }, { runAt: new Date(due) });
    lags.push(await lag);
  }
  await worker.stop({ graceMs: 1000 });
  await producer.stop({ graceMs: 100 });
  return p99(lags);
}

async function pgReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

function sqliteTarget(): Target {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-jobs-'));
  const handles: DbHandle[] = [];
  return {
    label: 'table / SQLite',
    driver: 'table',
    targetLoneMs: 1000,
    open: () => {
      const h = openDatabase(`sqlite:${path.join(dir, 'jobs.sqlite')}`);
      handles.push(h);
      return h;
    },
    drop: async () => {
      for (const h of handles) await h.close().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function pgTarget(label: string, driver: JobDriver, targetLoneMs: number): Promise<Target> {
  const scratch = await scratchSchema(PG_URL);
  const handles: DbHandle[] = [];
  return {
    label,
    driver,
    targetLoneMs,
    open: () => {
      const h = openDatabase(scratch.url);
      handles.push(h);
      return h;
    },
    drop: async () => {
      for (const h of handles) await h.close().catch(() => {});
      await scratch.drop();
    },
  };
}

const fmt = (n: number, d = 0): string => n.toFixed(d);

async function main(): Promise<void> {
  const targets: (() => Promise<Target>)[] = [async () => sqliteTarget()];
  if (await pgReachable()) {
    targets.push(() => pgTarget('table / PostgreSQL', 'table', 1000));
    targets.push(() => pgTarget('pg-boss / PostgreSQL', 'pg-boss', 2000));
  } else {
    console.log(`PostgreSQL at ${PG_URL} not reachable: its rows are skipped.`);
  }
  console.log(
    `${JOBS} due no-op jobs, concurrency ${CONCURRENCY}; lone job: p99 of ${LONE_SAMPLES} samples`,
  );
  for (const make of targets) {
    const t = await make();
    try {
      const ref = await rawRate(t.open());
      const b = await backlog(t);
      const l = await lone(t);
      // The reference lag: the raw loop's time to reach the 99th percentile job.
      const refP99 = ((JOBS * 0.99) / ref) * 1000;
      console.log(`\n${t.label}`);
      console.log(`  raw insert+claim rate (reference)  ${fmt(ref)} jobs/s`);
      console.log(
        `  throughput                         ${fmt(b.rate)} jobs/s  (${fmt(b.rate / ref, 2)}× the raw rate; ${fmt(b.secs, 2)} s for ${JOBS})`,
      );
      console.log(
        `  p99 due → start, backlog           ${fmt(b.p99)} ms  (${fmt(b.p99 / refP99, 2)}× the raw loop's ${fmt(refP99)} ms to its 99th percentile row)`,
      );
      console.log(
        `  lone job p99 due → start           ${fmt(l)} ms  (${fmt(l / t.targetLoneMs, 2)}× the ${t.targetLoneMs} ms target)`,
      );
    } finally {
      await t.drop();
    }
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
