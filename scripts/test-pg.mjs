#!/usr/bin/env node
// Runs the API suite on PostgreSQL: TEST_DATABASE_URL, by default the machine's PostgreSQL
// on 127.0.0.1:5432 (database `test`). Each test app gets a database of its own; those that a
// killed run left behind (older than an hour) are dropped first.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
try {
  await client.connect();
} catch (err) {
  console.error(
    `PostgreSQL is not reachable at ${url.replace(/\/\/[^@]*@/, '//***@')}: ${err.message}`,
  );
  console.error(
    'Start it, or set TEST_DATABASE_URL to a PostgreSQL database the tests may create schemas in.',
  );
  process.exit(1);
}
const cutoff = Math.floor(Date.now() / 1000) - 3600;
const stale = (name) => Number(name.split('_')[1]) < cutoff;
// Each test app or queue gets a database of its own (apps/api/test/pg-scratch.ts); schemas in
// this database are what runs before ADR 0076 left.
const { rows: databases } = await client.query(
  `select datname from pg_database where datname ~ '^t_[0-9]+_[0-9a-f]+$'`,
);
for (const { datname } of databases) {
  if (stale(datname)) await client.query(`drop database if exists ${datname} with (force)`);
}
const { rows } = await client.query(
  `select nspname from pg_namespace where nspname ~ '^t_[0-9]+_[0-9a-f]+(_pgboss)?$'`,
);
for (const { nspname } of rows) {
  if (stale(nspname)) await client.query(`drop schema ${nspname} cascade`);
}
await client.end();

const r = spawnSync('npx', ['vitest', 'run', '--project', 'api'], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url, TENPO_PG_SUITE: '1' },
});
process.exit(r.status ?? 1);
