import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './types';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

/** `schema`: the PostgreSQL schema named on the URL, if any (null: the default search path). */
export type DbHandle = {
  db: Db;
  dialect: Dialect;
  schema: string | null;
  close: () => Promise<void>;
};

// COUNT(*) and BIGINT come back from pg as strings; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/**
 * Opens the database named by DATABASE_URL: `sqlite:<file>` (or `file:`) for the embedded
 * default, `postgres://…` for PostgreSQL. A `schema` query parameter on a PostgreSQL URL
 * sets the search path (the test suite gives each file its own schema).
 */
export function openDatabase(url: string): DbHandle {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const u = new URL(url);
    const schema = u.searchParams.get('schema');
    u.searchParams.delete('schema');
    const pool = new pg.Pool({
      connectionString: u.toString(),
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', schema, close: () => db.destroy() };
  }
  const file = url.replace(/^(sqlite|file):(\/\/)?/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // Kysely prepares every query anew; the same few hundred SQL texts recur, so keep their
  // prepared statements (better-sqlite3 runs them synchronously, so one statement is never
  // in use twice at once).
  const statements = new Map<string, Sqlite.Statement>();
  const cached = {
    close: () => database.close(),
    prepare: (text: string): Sqlite.Statement => {
      let st = statements.get(text);
      if (!st) {
        if (statements.size >= 1000) statements.clear();
        st = database.prepare(text);
        statements.set(text, st);
      }
      return st;
    },
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  return { db, dialect: 'sqlite', schema: null, close: () => db.destroy() };
}

/** A cheap round trip, for the health check. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
