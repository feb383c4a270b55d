// A throwaway PostgreSQL schema for a bench run: its URL (the `schema` parameter that
// openDatabase reads) and how to drop it, with pg-boss's schema beside it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export async function scratchSchema(baseUrl: string): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  // Named like the test schemas, so scripts/test-pg.mjs sweeps what a killed run leaves.
  const schema = `t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.searchParams.set('schema', schema);
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.query(`drop schema if exists ${schema}_pgboss cascade`);
      await c.end();
    },
  };
}

/**
 * Runs `measure` on SQLite (a file in a scratch folder), then on PostgreSQL in a scratch schema
 * of `pgUrl` (skipped, and said, when it cannot be reached); the folder and schema are removed.
 */
export async function onBothDatabases(
  name: string,
  pgUrl: string,
  measure: (label: string, databaseUrl: string, dataDir: string) => Promise<void>,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tenpo-bench-${name}-`));
  try {
    await measure('SQLite', `sqlite:${path.join(dir, 'bench.sqlite')}`, dir);
    try {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.end();
    } catch {
      console.log(`PostgreSQL: skipped (${pgUrl} unreachable)`);
      return;
    }
    const s = await scratchSchema(pgUrl);
    try {
      await measure('PostgreSQL', s.url, dir);
    } finally {
      await s.drop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
