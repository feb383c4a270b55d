import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A scratch PostgreSQL place for one test app or queue: `url` names its schema (what the app
 * opens), `databaseUrl` the database around it (for a plain client), and `drop` removes both.
 */
export type PgScratch = {
  url: string;
  databaseUrl: string;
  schema: string;
  drop: () => Promise<void>;
};

/** One statement on its own short connection. */
async function runOnce(connectionString: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

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
  await runOnce(serverUrl, `create database ${name}`);
  const database = new URL(serverUrl);
  database.pathname = `/${name}`;
  await runOnce(database.toString(), `create schema ${name}`);
  const url = new URL(database);
  url.searchParams.set('schema', name);
  return {
    url: url.toString(),
    databaseUrl: database.toString(),
    schema: name,
    drop: () => runOnce(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
