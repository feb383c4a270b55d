import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { openDatabase, type DbHandle } from '../src/db/kysely';
import {
  migrateToLatest,
  MigrationsPendingError,
  pendingMigrations,
  waitForMigrations,
} from '../src/db/migrate';
import { seedDemo } from '../src/db/seed';
import { systemClock } from '../src/lib/clock';
import { createPgBossQueue, createTableQueue, pgBossSchemaOf, type Queue } from '../src/jobs/queue';
import { dailyAt, everyMinutes } from '../src/jobs/recurrence';
import { createTestDb, dbKinds, type TestDb } from './job-db';
import { pgScratch } from './pg-scratch';

// ADR 0053: pg-boss on its own pool runs its maintenance without error and removes old jobs;
// migrations, the demo seed and pg-boss's install are safe when several processes start at once.
const pgUrl = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (what: string, check: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
};

/** A logger whose warnings and errors the test reads (pg-boss's error and warning events). */
const capturingLog = () => {
  const lines: { level: number; msg: string; err?: { message?: string } }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(l) as (typeof lines)[number]);
      done();
    },
  });
  return { log: pino({ level: 'warn' }, stream), lines };
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A new, empty database on TEST_DATABASE_URL (no migrations), and its URL. */
const emptySchema = async (): Promise<string> => {
  const scratch = await pgScratch(pgUrl);
  cleanups.push(scratch.drop);
  return scratch.url;
};

const opened = (url: string, n: number): DbHandle[] => {
  const handles = Array.from({ length: n }, () => openDatabase(url));
  cleanups.push(async () => {
    for (const h of handles) await h.close();
  });
  return handles;
};

describe.skipIf(!pgUrl)('pg-boss on PostgreSQL', () => {
  it('runs its maintenance with no error and removes old jobs and old rate-limit starts', async () => {
    const t: TestDb = await createTestDb('postgres');
    cleanups.push(() => t.drop());
    const { log, lines } = capturingLog();
    const queue: Queue = await createPgBossQueue(
      t.handle,
      systemClock,
      // Finished jobs are kept a second, so the first maintenance pass after that deletes them.
      { log, pollMs: 20, retention: { doneMs: 1000 } },
      { superviseIntervalSeconds: 1, maintenanceIntervalSeconds: 1 },
    );
    cleanups.push(() => queue.stop({ graceMs: 100 }));
    let ran = 0;
    queue.work('health.noop', async () => {
      ran += 1;
    });
    for (let i = 0; i < 5; i += 1) await queue.enqueue('health.noop', { i });
    expect(await queue.drain()).toBe(5);
    expect(ran).toBe(5);
    const jobs = pgBossSchemaOf(t.handle.schema);
    const count = async (): Promise<number> => {
      const r = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(`${jobs}.job`)} where name = 'health.noop'
      `.execute(t.handle.db);
      return Number(r.rows[0]?.n);
    };
    expect(await count()).toBe(5);
    // A start of the rate limiter two days old, and one of now.
    const old = new Date(Date.now() - 2 * 86_400_000).toISOString();
    await t.handle.db
      .insertInto('job_rate_events')
      .values([
        { key: 'health:old', at: old },
        { key: 'health:new', at: new Date().toISOString() },
      ])
      .execute();

    await queue.start();
    await until('the finished jobs to be deleted', async () => (await count()) === 0, 30_000);
    const keys = (await t.handle.db.selectFrom('job_rate_events').select('key').execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(['health:new']);
    // Another supervisor pass or two, so an error on a later pass shows too.
    await sleep(2500);
    const bad = lines.filter((l) => l.level >= 50 || /pg-boss/.test(l.msg));
    expect(bad, JSON.stringify(bad)).toEqual([]);
  }, 60_000);

  it('runs a recurring job on its cron schedule (Tokyo time)', async () => {
    const t = await createTestDb('postgres');
    cleanups.push(() => t.drop());
    const { log, lines } = capturingLog();
    const queue = await createPgBossQueue(
      t.handle,
      systemClock,
      { log, pollMs: 50 },
      { cronMonitorIntervalSeconds: 1 },
    );
    cleanups.push(() => queue.stop({ graceMs: 100 }));
    const runs: unknown[] = [];
    queue.work('health.every-minute', async (payload) => {
      runs.push(payload);
    });
    await queue.schedule({
      name: 'health.every-minute',
      cron: everyMinutes(1),
      queue: 'health.every-minute',
      payload: { from: 'cron' },
    });
    await queue.start();
    // The next minute's slot, sent by pg-boss's cron and run by this driver's fetch loop.
    await until('the scheduled job to run', async () => runs.length > 0, 80_000);
    expect(runs[0]).toEqual({ from: 'cron' });
    const bad = lines.filter((l) => l.level >= 50);
    expect(bad, JSON.stringify(bad)).toEqual([]);
  }, 100_000);

  it('takes over the jobs the table driver left waiting, once, whichever of two processes starts', async () => {
    // An install moved from SQLite (npm run migrate-to-postgres) or switched from
    // TENPO_JOB_DRIVER=table: its scheduled posts are rows of `jobs`, which pg-boss never reads.
    const t = await createTestDb('postgres');
    cleanups.push(() => t.drop());
    const table = createTableQueue(t.handle.db, 'postgres', systemClock, {
      log: pino({ level: 'silent' }),
    });
    const soon = new Date(Date.now() + 300);
    await table.enqueue(
      'moved.post',
      { post: 1 },
      { key: 'publish:1', runAt: soon, maxAttempts: 5 },
    );
    await table.enqueue('moved.post', { post: 2 }, { runAt: new Date(Date.now() - 1000) });
    await table.enqueue('moved.done', { post: 3 });
    await t.handle.db
      .updateTable('jobs')
      .set({ status: 'done' })
      .where('queue', '=', 'moved.done')
      .execute();
    const { log, lines } = capturingLog();
    const [a, b] = await Promise.all(
      [t.open(), t.open()].map((h) => createPgBossQueue(h, systemClock, { log, pollMs: 20 })),
    );
    cleanups.push(async () => {
      await a?.stop({ graceMs: 100 });
      await b?.stop({ graceMs: 100 });
    });
    const ran: unknown[] = [];
    for (const q of [a, b]) q?.work('moved.post', async (payload) => void ran.push(payload));
    await sleep(400);
    await a?.drain();
    await b?.drain();
    expect(ran).toHaveLength(2);
    expect(ran).toEqual(expect.arrayContaining([{ post: 1 }, { post: 2 }]));
    const left = await t.handle.db
      .selectFrom('jobs')
      .select(['queue', 'status'])
      .orderBy('id')
      .execute();
    expect(left).toEqual([
      { queue: 'moved.post', status: 'cancelled' },
      { queue: 'moved.post', status: 'cancelled' },
      { queue: 'moved.done', status: 'done' },
    ]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('installs pg-boss and creates the same queue and schedule from four pools at once', async () => {
    const url = await emptySchema();
    const handles = opened(url, 4);
    await migrateToLatest(handles[0] as DbHandle);
    const { log, lines } = capturingLog();
    const queues = await Promise.all(
      handles.map((h) => createPgBossQueue(h, systemClock, { log, pollMs: 20 })),
    );
    cleanups.push(async () => {
      for (const q of queues) await q.stop({ graceMs: 100 });
    });
    await Promise.all(
      queues.flatMap((q, i) => [
        q.enqueue('race.same', { i }, { key: 'race:one' }),
        q.enqueue(`race.own${i}`, { i }),
        q.schedule({ name: 'race.daily', cron: dailyAt(3), queue: 'race.same' }),
      ]),
    );
    const schema = pgBossSchemaOf((handles[0] as DbHandle).schema);
    const db = (handles[0] as DbHandle).db;
    const rows = async (text: string) =>
      (await sql<{ n: number }>`${sql.raw(text.replaceAll('$s', schema))}`.execute(db)).rows;
    expect(await rows(`select name from $s.queue where name like 'race.%' order by name`)).toEqual(
      ['race.own0', 'race.own1', 'race.own2', 'race.own3', 'race.same'].map((name) => ({ name })),
    );
    expect(await rows(`select count(*)::int as n from $s.job where name = 'race.same'`)).toEqual([
      { n: 1 },
    ]);
    expect(await rows(`select count(*)::int as n from $s.schedule`)).toEqual([{ n: 1 }]);
    const bad = lines.filter((l) => l.level >= 50);
    expect(bad, JSON.stringify(bad)).toEqual([]);
  }, 60_000);

  it('migrates from four pools at once: one runs the migrations, the others wait and find none', async () => {
    const url = await emptySchema();
    const handles = opened(url, 4);
    const ran = await Promise.all(handles.map((h) => migrateToLatest(h)));
    const all = ran.flat();
    expect(all.length).toBeGreaterThan(10);
    // Every migration ran exactly once among the four.
    expect(new Set(all).size).toBe(all.length);
    expect(await pendingMigrations(handles[0] as DbHandle)).toEqual([]);
  }, 60_000);

  it('seeds the demo data once when four processes seed together', async () => {
    const t = await createTestDb('postgres');
    cleanups.push(() => t.drop());
    const handles = [t.handle, t.open(), t.open(), t.open()];
    const results = await Promise.all(handles.map((h) => seedDemo(h.db, systemClock)));
    const users = await t.handle.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(results.reduce((a, r) => a + r.created, 0)).toBe(Number(users.n));
    expect(results.filter((r) => r.created > 0)).toHaveLength(1);
    const groups = await t.handle.db
      .selectFrom('store_groups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(groups.n)).toBe(2);
  }, 60_000);
});

describe.each(dbKinds())('waiting for migrations (%s)', (kind) => {
  it('waits while migrations are pending, logs once, and starts once they are applied', async () => {
    let url: string;
    if (kind === 'postgres') url = await emptySchema();
    else {
      const t = await createTestDb('sqlite');
      cleanups.push(() => t.drop());
      // A second SQLite file beside it, never migrated.
      url = t.url.replace(/jobs\.sqlite$/, 'fresh.sqlite');
    }
    const [waiter, migrator] = opened(url, 2) as [DbHandle, DbHandle];
    const logged: string[] = [];
    const waiting = waitForMigrations(waiter, {
      maxWaitMs: 60_000,
      log: (m) => logged.push(m),
    });
    let done = false;
    void waiting.then(() => (done = true));
    await sleep(1500);
    expect(done).toBe(false);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /Waiting up to 60 s \(MIGRATION_WAIT_SECONDS\) for migrations 0001-initial/,
    );
    await migrateToLatest(migrator);
    await waiting;
    expect(logged).toHaveLength(2);
    expect(logged[1]).toMatch(/Migrations applied/);
  }, 30_000);

  it('gives up after MIGRATION_WAIT_SECONDS, saying what to run', async () => {
    let url: string;
    if (kind === 'postgres') url = await emptySchema();
    else {
      const t = await createTestDb('sqlite');
      cleanups.push(() => t.drop());
      url = t.url.replace(/jobs\.sqlite$/, 'fresh.sqlite');
    }
    const [h] = opened(url, 1) as [DbHandle];
    const started = Date.now();
    const err = await waitForMigrations(h, { maxWaitMs: 1200, log: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MigrationsPendingError);
    expect(String(err)).toMatch(/MIGRATION_WAIT_SECONDS.*npm run migrate/);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 30_000);
});

describe('the job driver by default', () => {
  const driverFor = (env: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-driver-'));
    try {
      return loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ...env }).jobs.driver;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  it('is pg-boss on PostgreSQL and the table driver on SQLite; an explicit choice stands', () => {
    expect(driverFor({ DATABASE_URL: 'postgres://u@db.example/tenpo' })).toBe('pg-boss');
    expect(driverFor({ DATABASE_URL: 'postgresql://u@db.example/tenpo' })).toBe('pg-boss');
    expect(driverFor({})).toBe('table');
    expect(driverFor({ DATABASE_URL: 'sqlite:/tmp/x.sqlite' })).toBe('table');
    expect(
      driverFor({ DATABASE_URL: 'postgres://u@db.example/tenpo', TENPO_JOB_DRIVER: 'table' }),
    ).toBe('table');
    expect(() => driverFor({ TENPO_JOB_DRIVER: 'pg-boss' })).toThrow(
      /TENPO_JOB_DRIVER: pg-boss needs/,
    );
  });
});
