import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DbHandle } from '../src/db/kysely';
import { migrateToLatest } from '../src/db/migrate';

export type DbKind = 'sqlite' | 'postgres';

/** The databases the queue suites run on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const dbKinds = (): DbKind[] =>
  process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export type TestDb = {
  url: string;
  kind: DbKind;
  /** Another connection (pool) to the same database, as a second process would have. */
  open: () => DbHandle;
  handle: DbHandle;
  drop: () => Promise<void>;
};

/** A fresh migrated database: a SQLite file, or a schema of its own on TEST_DATABASE_URL. */
export async function createTestDb(kind: DbKind): Promise<TestDb> {
  const handles: DbHandle[] = [];
  let url: string;
  let dropMore = async (): Promise<void> => {};
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-jobs-'));
    url = `sqlite:${path.join(dir, 'jobs.sqlite')}`;
    dropMore = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const pgUrl = process.env.TEST_DATABASE_URL as string;
    // Named with its creation time, so scripts/test-pg.mjs can sweep what a killed run left.
    const schema = `t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const u = new URL(pgUrl);
    u.searchParams.set('schema', schema);
    url = u.toString();
    dropMore = async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      // The pg-boss driver's schema beside it (pgBossSchemaOf), when a test made one.
      await c.query(`drop schema if exists ${schema}_pgboss cascade`);
      await c.end();
    };
  }
  const open = (): DbHandle => {
    const h = openDatabase(url);
    handles.push(h);
    return h;
  };
  const handle = open();
  await migrateToLatest(handle);
  return {
    url,
    kind,
    open,
    handle,
    drop: async () => {
      for (const h of handles) await h.close().catch(() => {});
      await dropMore();
    },
  };
}
