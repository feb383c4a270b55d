// A throwaway PostgreSQL schema for a bench run: its URL (the `schema` parameter that
// openDatabase reads) and how to drop it, with pg-boss's schema beside it.
import { randomBytes } from 'node:crypto';
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
