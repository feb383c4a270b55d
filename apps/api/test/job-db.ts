import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DbHandle } from '../src/db/kysely';
import { migrateToLatest } from '../src/db/migrate';
import { pgScratch } from './pg-scratch';

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

/** A fresh migrated database: a SQLite file, or a database of its own on TEST_DATABASE_URL. */
export async function createTestDb(kind: DbKind): Promise<TestDb> {
  const handles: DbHandle[] = [];
  let url: string;
  let dropMore = async (): Promise<void> => {};
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-jobs-'));
    url = `sqlite:${path.join(dir, 'jobs.sqlite')}`;
    dropMore = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const scratch = await pgScratch();
    url = scratch.url;
    dropMore = scratch.drop;
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
