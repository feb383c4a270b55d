import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DbHandle } from '../src/db/kysely';
import { systemClock } from '../src/lib/clock';
import {
  createPgBossQueue,
  createTableQueue,
  PermanentJobError,
  pgBossSchemaOf,
  type EngineOptions,
  type Queue,
} from '../src/jobs/queue';
import { createTestDb, dbKinds, type DbKind, type TestDb } from './job-db';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds (polling), or fails with `what`. */
const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
};

type Status = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
/** A job as the suite looks at it, whichever driver's tables keep it. */
type Row = {
  queue: string;
  status: Status;
  attempts: number;
  last_error: string | null;
  payload: unknown;
};

type Driver = {
  name: string;
  kinds: DbKind[];
  make: (h: DbHandle, opts?: Partial<EngineOptions>) => Promise<Queue>;
  /** Every job, oldest first. */
  rows: (h: DbHandle) => Promise<Row[]>;
};

const drivers: Driver[] = [
  {
    name: 'table',
    kinds: ['sqlite', 'postgres'],
    make: async (h, opts = {}) =>
      createTableQueue(h.db, h.dialect, systemClock, {
        log,
        pollMs: 20,
        leaseMs: 1000,
        backoff: () => 50,
        ...opts,
      }),
    rows: async (h) =>
      (await h.db.selectFrom('jobs').selectAll().orderBy('id').execute()).map((r) => ({
        queue: r.queue,
        status: r.status as Status,
        attempts: r.attempts,
        last_error: r.last_error,
        payload: JSON.parse(r.payload) as unknown,
      })),
  },
  {
    name: 'pg-boss',
    kinds: ['postgres'],
    make: (h, opts = {}) =>
      createPgBossQueue(h, systemClock, {
        log,
        pollMs: 20,
        leaseMs: 1000,
        backoff: () => 50,
        ...opts,
      }),
    rows: async (h) => {
      const status: Record<string, Status> = {
        created: 'queued',
        retry: 'queued',
        active: 'running',
        completed: 'done',
        failed: 'failed',
        cancelled: 'cancelled',
      };
      // The engine's attempts from pg-boss's counters (see pg-boss-driver.ts).
      const r = await sql<{
        queue: string;
        state: string;
        attempts: number;
        last_error: string | null;
        payload: unknown;
      }>`
        select name as queue, state::text as state,
          case when started_on is null then 0
               else retry_count - retry_limit + (data->>'maxAttempts')::int end as attempts,
          output->>'message' as last_error, data->'payload' as payload
        from ${sql.table(`${pgBossSchemaOf(h.schema)}.job`)}
        where name not like '\\_\\_pgboss%'
        order by created_on, id
      `.execute(h.db);
      return r.rows.map((row) => ({
        queue: row.queue,
        status: status[row.state] ?? 'queued',
        attempts: Number(row.attempts),
        last_error: row.last_error,
        payload: row.payload,
      }));
    },
  },
];

const cases = drivers.flatMap((d) =>
  dbKinds()
    .filter((k) => d.kinds.includes(k))
    .map((k) => [`${d.name} driver on ${k}`, d, k] as const),
);

/** The running test's database: each test gets a fresh one (see `engineFor`). */
let tdb: TestDb;
/** Every queue the running test made, stopped after it. */
const queues: Queue[] = [];

/** Gives each test of a block a fresh database and stops its queues after it; the block's helpers. */
const engineFor = (driver: Driver, kind: DbKind) => {
  const make = async (
    h: DbHandle = tdb.handle,
    opts: Partial<EngineOptions> = {},
  ): Promise<Queue> => {
    const q = await driver.make(h, opts);
    queues.push(q);
    return q;
  };
  const rows = () => driver.rows(tdb.handle);
  const jobsByStatus = async (status: Status) =>
    (await rows()).filter((r) => r.status === status).length;

  beforeEach(async () => {
    tdb = await createTestDb(kind);
  });
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop({ graceMs: 100 });
    await tdb.drop();
  });
  return { make, rows, jobsByStatus };
};

describe.each(cases)(
  'job engine: %s: running, retrying, one worker per job',
  (_name, driver, kind) => {
    const { make, rows, jobsByStatus } = engineFor(driver, kind);

    it('runs a job once with its context; a key makes a second enqueue a no-op', async () => {
      const q = await make();
      const seen: unknown[] = [];
      q.work('mail.send', async (p, ctx) => {
        seen.push({ p, attempt: ctx.attempt, key: ctx.key, queue: ctx.queue });
      });
      await q.enqueue('mail.send', { to: 'a' }, { key: 'k1' });
      await q.enqueue('mail.send', { to: 'a' }, { key: 'k1' });
      expect(await q.drain()).toBe(1);
      expect(await q.drain()).toBe(0);
      expect(seen).toEqual([{ p: { to: 'a' }, attempt: 1, key: 'k1', queue: 'mail.send' }]);
    });

    it('drain runs every due job, each once, and leaves none claimed', async () => {
      const q = await make();
      const seen: number[] = [];
      q.work('mail.send', async (p) => void seen.push((p as { n: number }).n));
      for (let n = 0; n < 5; n++) await q.enqueue('mail.send', { n });
      expect(await q.drain()).toBe(5);
      expect(seen.sort()).toEqual([0, 1, 2, 3, 4]);
      expect(await jobsByStatus('done')).toBe(5);
    });

    it('retries a failure with back-off, then gives up after max attempts; a permanent error at once', async () => {
      const q = await make();
      let calls = 0;
      q.work('flaky', async () => {
        calls += 1;
        throw new Error('provider down');
      });
      q.work('broken', async () => {
        throw new PermanentJobError('bad payload');
      });
      await q.enqueue('flaky', {}, { maxAttempts: 3, key: 'f' });
      await q.enqueue('broken', {}, { key: 'b' });
      await q.start();
      await until('two failed jobs', async () => (await jobsByStatus('failed')) === 2);
      expect(calls).toBe(3);
      expect((await rows()).map((r) => [r.status, r.attempts, r.last_error])).toEqual([
        ['failed', 3, 'provider down'],
        ['failed', 1, 'bad payload'],
      ]);
    });

    it('two workers never run one job', async () => {
      const runs = new Map<number, number>();
      const by = { a: 0, b: 0 };
      const handler = (who: 'a' | 'b') => async (p: unknown) => {
        const n = (p as { n: number }).n;
        runs.set(n, (runs.get(n) ?? 0) + 1);
        by[who] += 1;
        await sleep(Math.random() * 5);
      };
      const a = await make(tdb.open());
      const b = await make(tdb.open());
      a.work('race', handler('a'), { concurrency: 8 });
      b.work('race', handler('b'), { concurrency: 8 });
      for (let n = 0; n < 300; n++) await a.enqueue('race', { n });
      await Promise.all([a.start(), b.start()]);
      await until('300 done jobs', async () => (await jobsByStatus('done')) === 300, 30_000);
      await sleep(200);
      expect(runs.size).toBe(300);
      expect([...runs.values()].every((c) => c === 1)).toBe(true);
      expect(by.a).toBeGreaterThan(0);
      expect(by.b).toBeGreaterThan(0);
    });

    it('only the owner finishes a job: a worker whose job was taken over changes nothing', async () => {
      const q = await make(tdb.handle, { leaseMs: 60_000 });
      let release = () => {};
      let signal: AbortSignal | null = null;
      let id = '';
      q.work('slow', async (_p, ctx) => {
        id = ctx.id;
        signal = ctx.signal;
        await new Promise<void>((r) => (release = r));
      });
      await q.enqueue('slow', {});
      await q.start();
      await until('the job to start', () => id !== '');
      // Another worker took the job over (as after this worker's lease had lapsed).
      if (driver.name === 'table') {
        await tdb.handle.db
          .updateTable('jobs')
          .set({ owner: 'another-worker.1', attempts: 2 })
          .where('id', '=', Number(id))
          .execute();
      } else {
        // pg-boss's claim token is retry_count: a new claim raises it, which fences out every
        // settle of the claim before.
        await sql`update ${sql.table(`${pgBossSchemaOf(tdb.handle.schema)}.job`)}
        set retry_count = retry_count + 1, retry_limit = retry_limit + 1
        where id = ${id}::uuid`.execute(tdb.handle.db);
      }
      release();
      await sleep(200);
      if (driver.name === 'table') {
        const row = await tdb.handle.db
          .selectFrom('jobs')
          .selectAll()
          .where('id', '=', Number(id))
          .executeTakeFirst();
        expect(row).toMatchObject({ status: 'running', owner: 'another-worker.1', attempts: 2 });
      } else {
        const r = await sql<{ state: string; retry_count: number }>`
        select state::text as state, retry_count
        from ${sql.table(`${pgBossSchemaOf(tdb.handle.schema)}.job`)} where id = ${id}::uuid
      `.execute(tdb.handle.db);
        expect(r.rows).toEqual([{ state: 'active', retry_count: 1 }]);
      }
      // And the heartbeat noticed: the run's signal told the handler to stop.
      await q.stop({ graceMs: 100 });
      expect(signal).not.toBeNull();
    });

    it('renews the lease while a handler runs: a second worker does not take a long job', async () => {
      let runs = 0;
      const handler = async () => {
        runs += 1;
        await sleep(1500);
      };
      const a = await make(tdb.open(), { leaseMs: 300 });
      a.work('long', handler);
      await a.enqueue('long', {});
      await a.start();
      await until('the job to start', () => runs === 1);
      const b = await make(tdb.open(), { leaseMs: 300 });
      b.work('long', handler);
      await b.start();
      await until('the job to finish', async () => (await jobsByStatus('done')) === 1, 5000);
      expect(runs).toBe(1);
    });
  },
);

describe.each(cases)('job engine: %s: a dead worker, and stopping', (_name, driver, kind) => {
  const { make, rows, jobsByStatus } = engineFor(driver, kind);

  // The table driver's lease is 1 s here: its jobs come back within seconds. pg-boss notices a dead
  // worker by its heartbeat (10 s at least, pg-boss's minimum) on a supervisor pass (every 10 s in
  // this driver), so its bound is half a minute (ADR 0023).
  const reclaimMs = driver.name === 'table' ? 5000 : 30_000;
  it(
    'a kill -9’d worker’s jobs run again once, within seconds',
    async () => {
      const fixture = path.join(import.meta.dirname, 'fixtures', 'job-worker.ts');
      const child = spawn(process.execPath, ['--import', 'tsx', fixture, tdb.url, driver.name], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      try {
        for (let n = 0; n < 3; n++)
          await (await make()).enqueue('probe', { n }, { key: `probe-${n}` });
        await until(
          'the child to claim 3 jobs',
          () => out.split('claimed').length - 1 === 3,
          20_000,
        );
        child.kill('SIGKILL');
        const killedAt = Date.now();
        const runs: number[] = [];
        const q = await make(tdb.open(), { leaseMs: 1000 });
        q.work('probe', async (p) => void runs.push((p as { n: number }).n), { concurrency: 3 });
        await q.start();
        await until(
          'the 3 jobs to finish elsewhere',
          async () => (await jobsByStatus('done')) === 3,
          reclaimMs + 5000,
        );
        // They ran again soon after the dead worker's lease lapsed, and once each.
        expect(Date.now() - killedAt).toBeLessThan(reclaimMs);
        await sleep(300);
        expect(runs.sort()).toEqual([0, 1, 2]);
        expect((await rows()).map((r) => r.attempts)).toEqual([2, 2, 2]);
      } finally {
        child.kill('SIGKILL');
      }
    },
    reclaimMs + 30_000,
  );

  it('stop() returns promptly: jobs in flight finish, the rest are handed back', async () => {
    const q = await make(tdb.open());
    let quickDone = 0;
    q.work('quick', async () => {
      await sleep(100);
      quickDone += 1;
    });
    // One handler that honours its signal, one that ignores it.
    q.work(
      'stuck',
      async (p, ctx) => {
        if ((p as { polite: boolean }).polite)
          await new Promise((_r, reject) =>
            ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        else await new Promise(() => {});
      },
      { concurrency: 2 },
    );
    await q.enqueue('quick', {});
    await q.enqueue('stuck', { polite: true });
    await q.enqueue('stuck', { polite: false });
    await q.start();
    await until('the jobs to start', async () => (await jobsByStatus('running')) === 3);
    const t0 = Date.now();
    await q.stop({ graceMs: 300 });
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(quickDone).toBe(1);
    const stuck = (await rows())
      .filter((r) => r.queue === 'stuck')
      .map((r) => ({ status: r.status, attempts: r.attempts }));
    // Handed back: queued again, the interrupted attempt not counted.
    expect(stuck).toEqual([
      { status: 'queued', attempts: 0 },
      { status: 'queued', attempts: 0 },
    ]);
    if (driver.name === 'table') {
      const owners = await tdb.handle.db
        .selectFrom('jobs')
        .select('owner')
        .where('queue', '=', 'stuck')
        .execute();
      expect(owners).toEqual([{ owner: null }, { owner: null }]);
    }
    // Another worker runs them at once.
    const next = await make(tdb.open());
    let ran = 0;
    next.work('stuck', async () => void (ran += 1), { concurrency: 2 });
    await next.start();
    await until('both handed-back jobs to run', () => ran === 2, 3000);
  });
});

describe.each(cases)(
  'job engine: %s: retryAt, rate limits, keys, transactions',
  (_name, driver, kind) => {
    const { make, rows, jobsByStatus } = engineFor(driver, kind);

    it('honours a handler’s retryAt, without counting an attempt', async () => {
      const q = await make();
      const starts: { at: number; attempt: number }[] = [];
      q.work('quota', async (_p, ctx) => {
        starts.push({ at: Date.now(), attempt: ctx.attempt });
        if (starts.length === 1) ctx.retryAt(new Date(Date.now() + 700), 'quota until reset');
      });
      await q.enqueue('quota', {}, { maxAttempts: 1 });
      await q.start();
      await until('the second run', () => starts.length === 2, 5000);
      const [first, second] = starts as [{ at: number; attempt: number }, (typeof starts)[0]];
      expect(second.at - first.at).toBeGreaterThanOrEqual(650);
      expect([first.attempt, second.attempt]).toEqual([1, 1]);
      await until('done', async () => (await jobsByStatus('done')) === 1);
    });

    it('never exceeds a rate limit, across workers', async () => {
      const starts: number[] = [];
      const limiter = { key: () => 'facebook:page-1', max: 3, perMs: 1000 };
      const handler = async () => {
        starts.push(Date.now());
        await sleep(5);
      };
      const a = await make(tdb.open());
      const b = await make(tdb.open());
      a.work('publish', handler, { concurrency: 4, limiter });
      b.work('publish', handler, { concurrency: 4, limiter });
      for (let n = 0; n < 12; n++) await a.enqueue('publish', { n });
      const t0 = Date.now();
      await Promise.all([a.start(), b.start()]);
      await until('12 done', async () => (await jobsByStatus('done')) === 12, 15_000);
      starts.sort((x, y) => x - y);
      // A start is recorded a moment before its handler runs, longer on a loaded machine: allow
      // that moment (200 ms).
      for (const t of starts) {
        expect(starts.filter((s) => s > t - 800 && s <= t).length).toBeLessThanOrEqual(3);
      }
      // 12 starts at 3 per second need at least three full windows.
      expect(Date.now() - t0).toBeGreaterThanOrEqual(3000);
      // Waiting for the limit is not an attempt.
      expect((await rows()).every((r) => r.attempts === 1)).toBe(true);
    });

    it('a limit keyed by the payload only holds back its own key', async () => {
      const q = await make();
      const seen: string[] = [];
      q.work('publish', async (p) => void seen.push((p as { account: string }).account), {
        concurrency: 4,
        limiter: { key: (p) => `x:${(p as { account: string }).account}`, max: 1, perMs: 60_000 },
      });
      for (const account of ['a', 'a', 'b', 'c']) await q.enqueue('publish', { account });
      await q.start();
      await until('three accounts', () => seen.length === 3);
      await sleep(200);
      expect(seen.sort()).toEqual(['a', 'b', 'c']);
      expect(await jobsByStatus('queued')).toBe(1);
    });

    it('cancels and reschedules a queued job by its key', async () => {
      const q = await make();
      const seen: string[] = [];
      q.work('post', async (p) => void seen.push((p as { id: string }).id));
      const later = new Date(Date.now() + 60_000);
      await q.enqueue('post', { id: 'p1' }, { key: 'post:1', runAt: later });
      await q.enqueue('post', { id: 'p2' }, { key: 'post:2', runAt: later });
      expect(await q.cancel('post:1')).toBe(true);
      expect(await q.cancel('post:1')).toBe(false);
      expect(await q.reschedule('post:2', new Date(Date.now() - 1000))).toBe(true);
      expect(await q.reschedule('nope', new Date())).toBe(false);
      await q.start();
      await until('p2', () => seen.length === 1);
      expect(seen).toEqual(['p2']);
      expect(await jobsByStatus('cancelled')).toBe(1);
    });

    it('enqueue joins the caller’s transaction', async () => {
      const q = await make();
      await expect(
        tdb.handle.db.transaction().execute(async (trx) => {
          await q.enqueue('mail.send', { to: 'gone' }, { trx });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await tdb.handle.db.transaction().execute(async (trx) => {
        await q.enqueue('mail.send', { to: 'kept' }, { trx });
      });
      expect((await rows()).map((r) => r.payload)).toEqual([{ to: 'kept' }]);
    });

    it('enqueueMany: in the caller’s transaction, each job as enqueue makes it, a taken key a no-op', async () => {
      const q = await make();
      const seen: string[] = [];
      q.work('post', async (p) => void seen.push((p as { id: string }).id));
      q.work('post.remove', async (p) => void seen.push(`rm:${(p as { id: string }).id}`));
      await q.enqueue('post', { id: 'first' }, { key: 'post:0' });
      await expect(
        tdb.handle.db.transaction().execute(async (trx) => {
          await q.enqueueMany(
            [{ queue: 'post', payload: { id: 'gone' }, opts: { key: 'x' } }],
            trx,
          );
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const later = new Date(Date.now() + 3_600_000);
      await tdb.handle.db.transaction().execute(async (trx) => {
        await q.enqueueMany(
          [
            // The key of the job enqueued before: no second job.
            { queue: 'post', payload: { id: 'again' }, opts: { key: 'post:0' } },
            ...Array.from({ length: 120 }, (_, i) => ({
              queue: 'post',
              payload: { id: `p${i}` },
              opts: { key: `post:${i + 1}` },
            })),
            { queue: 'post.remove', payload: { id: 'p1' }, opts: { key: 'rm:1', runAt: later } },
          ],
          trx,
        );
      });
      await q.start();
      await until('121 posts', () => seen.length === 121, 20_000);
      await sleep(100);
      expect(seen.filter((x) => x === 'first')).toHaveLength(1);
      expect(seen).not.toContain('again');
      expect(seen).not.toContain('gone');
      expect(new Set(seen).size).toBe(121);
      // The removal is due in an hour: still queued.
      expect(seen).not.toContain('rm:p1');
      expect(await jobsByStatus('queued')).toBe(1);
    });
  },
);
