import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A scratch PostgreSQL place for one test app or queue: its URL (with `schema`) and its drop. */
export type PgScratch = { url: string; schema: string; drop: () => Promise<void> };

/**
 * A database of its own on the server of TEST_DATABASE_URL, with the URL of a schema inside it.
 * A database rather than a schema in the shared `test` database: Kysely's migrator introspects
 * every schema of its database, and a schema that another test file dropped meanwhile failed it
 * with `schema "t_…" does not exist` once files ran four at a time (ADR 0076). The name carries
 * its creation time, so scripts/test-pg.mjs sweeps what a killed run left.
 */
export async function pgScratch(
  serverUrl = process.env.TEST_DATABASE_URL as string,
): Promise<PgScratch> {
  const name = `t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/${name}`;
  const inside = new pg.Client({ connectionString: dbUrl.toString() });
  await inside.connect();
  try {
    await inside.query(`create schema ${name}`);
  } finally {
    await inside.end();
  }
  const url = new URL(dbUrl);
  url.searchParams.set('schema', name);
  return {
    url: url.toString(),
    schema: name,
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
