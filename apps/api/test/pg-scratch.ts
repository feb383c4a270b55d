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
 * Drops the database once the connections to it are gone. A pool that was just ended may still
 * be closing its connections (node-pg's Pool.end() resolves before they are closed); forcing the
 * drop then terminates them, and a closing client reports that as an unhandled 'error' event
 * (57P01, seen in metrics-sync and jobs on 2026-11-27). Waits up to 5 s for them, then forces.
 */
async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    for (let waited = 0; waited < 5000; waited += 50) {
      const r = await c.query<{ n: string }>(
        'select count(*) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      if (Number(r.rows[0]?.n ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await c.query(`drop database if exists ${name} with (force)`);
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
    drop: () => dropDatabase(serverUrl, name),
  };
}
