import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openDatabase, type DbHandle } from '../src/db/kysely';
import { createPgBossQueue } from '../src/jobs/queue';
import { systemClock } from '../src/lib/clock';
import {
  migrateToPostgres,
  toPostgres,
  type CopyReport,
} from '../src/db/tools/migrate-to-postgres';
import { keyOf, seedInstall, sqliteRows, tablesOf } from './data-install';
import { pgScratch, type PgScratch } from './pg-scratch';

// `npm run migrate-to-postgres` (ADR 0056): an embedded install, demo seed and scheduled posts
// included, copied into a fresh PostgreSQL schema holds the same rows in every table after.
const pgUrl = process.env.TEST_DATABASE_URL;

describe('toPostgres', () => {
  it.each([
    [1, 'boolean', true],
    [0, 'boolean', false],
    ['{"a":1}', 'jsonb', '{"a":1}'],
    [1_700_000_000_000, 'timestamp with time zone', '2023-11-14T22:13:20.000Z'],
    [42, 'text', '42'],
    [7, 'bigint', 7],
    [null, 'text', null],
  ])('%j into %s', (value, type, expected) => {
    expect(toPostgres(value, type, 't.c')).toEqual(expected);
  });
  it('refuses what PostgreSQL would store differently', () => {
    expect(() => toPostgres('a\0b', 'text', 'posts.content')).toThrow(/posts\.content .*NUL/);
    expect(() => toPostgres(1.5, 'integer', 'posts.position')).toThrow(/not an integer/);
  });
});

describe.skipIf(!pgUrl)('migrate-to-postgres', () => {
  let dir: string;
  let file: string;
  const scratches: PgScratch[] = [];
  let report: CopyReport;
  let target: DbHandle;
  const lines: string[] = [];

  const newSchema = async (): Promise<string> => {
    const scratch = await pgScratch();
    scratches.push(scratch);
    return scratch.url;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-to-pg-'));
    const handle = await seedInstall(dir);
    await handle.close();
    file = path.join(dir, 'tenpo.sqlite');
    const to = await newSchema();
    // Small batches, so that every table of more than a few rows takes several.
    report = await migrateToPostgres({
      from: file,
      to,
      jobDriver: 'table',
      batchRows: 3,
      log: (l) => lines.push(l),
    });
    target = openDatabase(to);
  }, 120_000);

  afterAll(async () => {
    await target?.close();
    for (const s of scratches) await s.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table, row for row', async () => {
    const tables = tablesOf(file);
    expect(tables.length).toBeGreaterThan(25);
    // review_counts is not copied: the target's triggers count the reviews as they arrive
    // (ADR 0092), and its rows are compared below all the same.
    expect(report.map((r) => r.table).sort()).toEqual(tables.filter((t) => t !== 'review_counts'));
    const source = sqliteRows(file);
    for (const t of tables) {
      const order = keyOf(file, t)
        .map((c) => `"${c}"`)
        .join(', ');
      const { rows } = await target.db.executeQuery<Record<string, unknown>>({
        sql: `select * from "${t}" order by ${order}`,
        parameters: [],
        query: { kind: 'RawNode' } as never,
        queryId: { queryId: t },
      });
      // Every column is text, integer or bigint on both (ADR 0003); bigint comes back a number.
      expect(rows, t).toEqual(source[t]);
      if (t !== 'review_counts')
        expect(report.find((r) => r.table === t)?.rows, t).toBe(source[t]?.length);
    }
    expect(source.posts).toHaveLength(2);
    expect(source.users?.length).toBeGreaterThan(15);
    expect(source.metric_months).toContainEqual(
      expect.objectContaining({ cum_business_bookings: 3_000_000_004 }),
    );
    expect(lines.at(-1)).toMatch(/4 jobs waiting .*post\.publish: 4.* TENPO_JOB_DRIVER=table/);
  });

  it('moves each sequence past the largest id', async () => {
    const max = await target.db
      .selectFrom('users')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const row = await target.db
      .insertInto('users')
      .values({
        email: 'after-the-move@tenpo.example',
        role: 1,
        account_kind: 0,
        is_leader: 0,
        agreed_terms: 1,
        payment_fail: 0,
        status: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(row.id).toBe(Number(max.m) + 1);
  });

  it('refuses a target that holds Tenpo rows', async () => {
    await expect(
      migrateToPostgres({
        from: file,
        to: scratches[0]?.url as string,
        jobDriver: 'table',
        log: () => {},
      }),
    ).rejects.toThrow(/not empty: .*users/);
  });

  it('hands the queued jobs to pg-boss, which takes them over at the first start', async () => {
    const to = await newSchema();
    const lines: string[] = [];
    await migrateToPostgres({ from: file, to, jobDriver: 'pg-boss', log: (l) => lines.push(l) });
    expect(lines.join('\n')).toMatch(/4 jobs waiting .* pg-boss takes them over/);
    const handle = openDatabase(to);
    try {
      const queue = await createPgBossQueue(handle, systemClock, {
        log: pino({ level: 'silent' }),
      });
      const status = await queue.status();
      await queue.stop({ graceMs: 0 });
      const rows = await handle.db
        .selectFrom('jobs')
        .select(['status', 'last_error'])
        .where('last_error', '=', 'moved to pg-boss')
        .execute();
      expect(rows).toHaveLength(4);
      expect(status).toMatchObject({ queued: 4 });
    } finally {
      await handle.close();
    }
  });

  it('refuses a source that has not run every migration', async () => {
    const behind = path.join(dir, 'behind.sqlite');
    fs.copyFileSync(file, behind);
    const db = new Sqlite(behind);
    db.prepare("delete from kysely_migration where name = '0017-payments'").run();
    db.close();
    const to = await newSchema();
    await expect(
      migrateToPostgres({ from: behind, to, jobDriver: 'table', log: () => {} }),
    ).rejects.toThrow(/has not run the migrations 0017-payments: start this version/);
  });

  it('refuses a source a server has open', async () => {
    const running = openDatabase(`sqlite:${file}`);
    try {
      const to = await newSchema();
      await expect(
        migrateToPostgres({ from: file, to, jobDriver: 'table', log: () => {} }),
      ).rejects.toThrow(/open in another process/);
    } finally {
      await running.close();
    }
  });
});
