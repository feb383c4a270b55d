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
  /**
   * PostgreSQL: the URL without its `schema` parameter, for a library that opens connections of
   * its own (pg-boss, ADR 0053).
   */
  connectionString?: string;
  close: () => Promise<void>;
};

// COUNT(*) and BIGINT come back from pg as strings; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/**
 * Runs a read on the connection itself, synchronously; null when it must go through Kysely
 * (a transaction is open, or the statement does not return rows).
 */
export type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | null;
const directReads = new WeakMap<Db, DirectRead>();

/** The direct read path of an embedded SQLite handle's `db`; none for PostgreSQL or a transaction. */
export const directReadOf = (db: Db): DirectRead | undefined => directReads.get(db);

/**
 * A number that changes whenever anything in the database may have changed since it was last
 * taken: a statement that may write was run on this connection, or another connection (another
 * process) committed. null while a transaction is open on the connection: nothing read then may
 * be kept. What was read under one stamp may be reused while the stamp stays the same (ADR 0031).
 */
export type ChangeStamp = () => number | null;
const changeStamps = new WeakMap<Db, ChangeStamp>();

/** The change stamp of an embedded SQLite handle's `db`; none for PostgreSQL or a transaction. */
export const changeStampOf = (db: Db): ChangeStamp | undefined => changeStamps.get(db);

/**
 * Opens the database named by DATABASE_URL: `sqlite:<file>` (or `file:`) for the embedded
 * default, `postgres://…` for PostgreSQL. A `schema` query parameter on a PostgreSQL URL
 * sets the search path (the test suite gives each file its own schema). `poolSize`: PostgreSQL's
 * connections at most (10).
 */
export function openDatabase(url: string, opts: { poolSize?: number } = {}): DbHandle {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const u = new URL(url);
    const schema = u.searchParams.get('schema');
    u.searchParams.delete('schema');
    const pool = new pg.Pool({
      connectionString: u.toString(),
      max: opts.poolSize ?? 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      schema,
      connectionString: u.toString(),
      close: () => db.destroy(),
    };
  }
  const file = url.replace(/^(sqlite|file):(\/\/)?/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('cache_size = -32768');
  // Kysely prepares every query anew; the same few hundred SQL texts recur, so keep their
  // prepared statements. better-sqlite3 runs a statement synchronously, so a cached one is only
  // ever in use by an unfinished iterate() (a streamed query): then it is `busy`, and that call
  // gets a fresh statement of its own.
  //
  // Every query Kysely runs passes here, so this is also where a write on this connection is
  // seen: a statement that is not read-only (BEGIN and COMMIT included) moves the change stamp
  // on before it runs (ADR 0031).
  const statements = new Map<string, Sqlite.Statement>();
  let epoch = 0;
  const prepare = (text: string): Sqlite.Statement => {
    let st = statements.get(text);
    if (st?.busy) st = database.prepare(text);
    else if (!st) {
      if (statements.size >= 1000) statements.clear();
      st = database.prepare(text);
      statements.set(text, st);
    }
    if (!st.readonly) epoch += 1;
    return st;
  };
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: { close: () => database.close(), prepare } }),
  });
  // A read compiled once (db/compiled.ts) runs on its cached statement directly while no
  // transaction is open on the connection: one statement in autocommit is what Kysely would
  // run, without its connection hand-over (ADR 0024). Inside a transaction it waits its turn
  // through Kysely, as every other query does.
  //
  // Direct reads keep statements of their own, apart from Kysely's: one of them only ever runs
  // through a synchronous all(), so it is never `busy` and needs no check per call (a native
  // call each time: ADR 0029). null marks a text that returns no rows.
  const directStatements = new Map<string, Sqlite.Statement | null>();
  directReads.set(db, (text, parameters) => {
    if (database.inTransaction) return null;
    let st = directStatements.get(text);
    if (st === undefined) {
      if (directStatements.size >= 1000) directStatements.clear();
      const fresh = database.prepare(text);
      // Only plain reads: an INSERT … RETURNING returns rows too, but must go through prepare().
      st = fresh.reader && fresh.readonly ? fresh : null;
      directStatements.set(text, st);
    }
    return st ? (st.all(parameters) as unknown[]) : null;
  });
  // SQLite's own count of commits by other connections, other processes included: it changes
  // only when another connection committed a change (https://sqlite.org/pragma.html#pragma_data_version).
  //
  // Asked once per turn of the event loop, and again if a millisecond has passed within one
  // (ADR 0039): a request sent after another process's commit comes in a later turn, or at
  // worst within a millisecond, and sees it. The pragma is a read transaction with its file
  // locks, and asking it for every request of a busy turn was the largest cost of an
  // authenticated read left.
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  let seenDataVersion: unknown = dataVersion.get();
  let askedAt = -Infinity;
  const nextTurn = () => {
    askedAt = -Infinity;
  };
  changeStamps.set(db, () => {
    if (database.inTransaction) return null;
    const now = performance.now();
    if (now - askedAt >= 1) {
      if (askedAt === -Infinity) setImmediate(nextTurn);
      askedAt = now;
      const v = dataVersion.get();
      if (v !== seenDataVersion) {
        seenDataVersion = v;
        epoch += 1;
      }
    }
    return epoch;
  });
  return { db, dialect: 'sqlite', schema: null, close: () => db.destroy() };
}

/** A cheap round trip, for the health check. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
