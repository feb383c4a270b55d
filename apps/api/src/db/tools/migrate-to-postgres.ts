import fs from 'node:fs';
import Sqlite from 'better-sqlite3';
import { sql, type Kysely, type Transaction } from 'kysely';
import { openDatabase } from '../kysely';
import { migrateToLatest } from '../migrate';
import { sqliteInUse, ToolError } from './sqlite-file';

type Log = (line: string) => void;
type Row = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Row>>;

/** A source table: its columns, the self-references put in after its rows, and its key. */
type Table = {
  name: string;
  columns: string[];
  /** Nullable columns referencing this same table (users.agency_id): copied null, then set. */
  selfRefs: string[];
  /** The single-column primary key, when it has one (needed to set self-references). */
  key: string | null;
};

/** The PostgreSQL types of the target's columns, by table then column. */
type TargetTypes = Map<string, Map<string, string>>;

export type CopyReport = { table: string; rows: number }[];

/**
 * The job states the table driver still has to run. They are copied with every other row: the
 * table driver runs them as they are, and pg-boss (the default on PostgreSQL) takes them over
 * when the moved install first starts (ADR 0053, adoptTableJobs).
 */
const PENDING_JOBS = ['queued', 'running'];

/** Tables kept by triggers on PostgreSQL from the rows copied (migration 0024): not copied. */
const DERIVED = ['review_counts'];

/** Source tables in an order where every table comes after the tables it references. */
function tablesOf(src: Sqlite.Database): Table[] {
  // Not copied: SQLite's virtual tables (the reviews' FTS5 search index) with their shadow
  // tables, and what the target's triggers rebuild as the rows arrive (ADR 0092).
  const derived = [
    ...(src
      .prepare(
        "select name from sqlite_master where type = 'table' and sql like 'create virtual table%'",
      )
      .pluck()
      .all() as string[]),
    ...DERIVED,
  ];
  const names = (
    src
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like 'kysely\\_%' escape '\\' order by name",
      )
      .pluck()
      .all() as string[]
  ).filter((n) => !derived.some((d) => n === d || n.startsWith(`${d}_`)));
  const parents = new Map<string, Set<string>>();
  const tables = new Map<string, Table>();
  for (const name of names) {
    const cols = src.pragma(`table_info(${JSON.stringify(name)})`) as {
      name: string;
      pk: number;
      notnull: number;
    }[];
    const fks = src.pragma(`foreign_key_list(${JSON.stringify(name)})`) as {
      table: string;
      from: string;
    }[];
    const pk = cols.filter((c) => c.pk > 0);
    const selfRefs = fks.filter((f) => f.table === name).map((f) => f.from);
    for (const c of selfRefs)
      if (cols.find((x) => x.name === c)?.notnull)
        throw new ToolError(
          `${name}.${c} references its own table and cannot be null: not supported.`,
        );
    tables.set(name, {
      name,
      columns: cols.map((c) => c.name),
      selfRefs,
      key: pk.length === 1 ? (pk[0] as { name: string }).name : null,
    });
    parents.set(name, new Set(fks.map((f) => f.table).filter((t) => t !== name)));
  }
  const ordered: Table[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter(
      (n) => !placed.has(n) && [...(parents.get(n) ?? [])].every((p) => placed.has(p)),
    );
    if (ready.length === 0)
      throw new ToolError(
        `The foreign keys between ${names.filter((n) => !placed.has(n)).join(', ')} form a cycle.`,
      );
    for (const n of ready) {
      placed.add(n);
      ordered.push(tables.get(n) as Table);
    }
  }
  return ordered;
}

/**
 * A SQLite value as the PostgreSQL column wants it. Tenpo writes the same values on both
 * databases (booleans as 0/1 integers, times as ISO text, JSON as text: see db/types.ts), so
 * today every column is text, integer or bigint and values pass as they are; the other cases
 * keep a later migration that uses PostgreSQL's own types from breaking the move silently.
 */
export function toPostgres(value: unknown, pgType: string, where: string): unknown {
  if (value === null || value === undefined) return null;
  switch (pgType) {
    case 'boolean':
      return typeof value === 'string' ? value === 'true' || value === '1' : Boolean(value);
    case 'json':
    case 'jsonb':
      // Kept as the JSON text SQLite holds; PostgreSQL parses it into the column's type.
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'timestamp with time zone':
    case 'timestamp without time zone':
    case 'date':
      return typeof value === 'number' ? new Date(value).toISOString() : value;
    case 'bytea':
      return Buffer.isBuffer(value) ? value : Buffer.from(String(value), 'utf8');
    case 'text':
    case 'character varying': {
      const s = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
      if (s.includes('\0'))
        throw new ToolError(`${where} holds a NUL character, which PostgreSQL text cannot store.`);
      return s;
    }
    case 'integer':
    case 'bigint':
    case 'smallint':
      if (typeof value === 'number' && !Number.isInteger(value))
        throw new ToolError(`${where} holds ${value}, not an integer.`);
      return value;
    default:
      return value;
  }
}

async function targetTypes(db: AnyDb): Promise<TargetTypes> {
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select table_name, column_name, data_type from information_schema.columns
    where table_schema = current_schema()`.execute(db);
  const out: TargetTypes = new Map();
  for (const r of rows) {
    if (!out.has(r.table_name)) out.set(r.table_name, new Map());
    out.get(r.table_name)?.set(r.column_name, r.data_type);
  }
  return out;
}

/**
 * `npm run migrate-to-postgres`: copies an embedded install's SQLite database into an empty
 * PostgreSQL database, in one transaction: Tenpo's migrations first, then every table in foreign-
 * key order in batches, then each serial column's sequence moved past the largest id.
 */
export async function migrateToPostgres(options: {
  from: string;
  to: string;
  /** TENPO_JOB_DRIVER as the moved install will run it. */
  jobDriver: 'table' | 'pg-boss';
  batchRows?: number;
  log: Log;
}): Promise<CopyReport> {
  const { from, log } = options;
  if (!fs.existsSync(from)) throw new ToolError(`There is no SQLite database at ${from}.`);
  if (sqliteInUse(from))
    throw new ToolError(
      `${from} is open in another process (a Tenpo server or worker): stop it first, or the rows it writes during the copy would be left behind.`,
    );
  const src = new Sqlite(from, { readonly: true, fileMustExist: true });
  const target = openDatabase(options.to);
  if (target.dialect !== 'postgres')
    throw new ToolError('The target (--to or DATABASE_URL) must be a postgres:// URL.');
  const db = target.db as unknown as AnyDb;
  try {
    // One read transaction: every table is read from the same moment.
    src.exec('BEGIN');
    const tables = tablesOf(src);
    const sourceMigrations = new Set(
      src.prepare('select name from kysely_migration').pluck().all() as string[],
    );

    const byQueue = tables.some((t) => t.name === 'jobs')
      ? (src
          .prepare(
            `select queue, count(*) as n from jobs where status in (${PENDING_JOBS.map(() => '?').join(', ')}) group by queue order by queue`,
          )
          .all(...PENDING_JOBS) as { queue: string; n: number }[])
      : [];
    const pending = byQueue.reduce((n, q) => n + q.n, 0);
    const waiting = `${pending} jobs waiting in the table driver's jobs table (${byQueue.map((q) => `${q.queue}: ${q.n}`).join(', ')})`;

    // Refuse before changing anything: any Tenpo row already there would be mixed with ours.
    const before = await targetTypes(db);
    const filled: string[] = [];
    for (const t of tables) {
      if (!before.has(t.name)) continue;
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(t.name)}`.execute(db);
      if ((rows[0]?.n ?? 0) > 0) filled.push(t.name);
    }
    if (filled.length > 0)
      throw new ToolError(
        `The target database is not empty: ${filled.join(', ')} hold rows. Give an empty database (or schema).`,
      );

    const applied = await migrateToLatest(target);
    if (applied.length > 0) log(`Migrated the target: ${applied.length} migrations.`);
    const { rows: done } = await sql<{ name: string }>`select name from kysely_migration`.execute(
      db,
    );
    const missing = done.map((r) => r.name).filter((n) => !sourceMigrations.has(n));
    if (missing.length > 0)
      throw new ToolError(
        `${from} has not run the migrations ${missing.join(', ')}: start this version of Tenpo on it once (it migrates at start), stop it, then move it.`,
      );
    const types = await targetTypes(db);
    for (const t of tables) {
      const cols = types.get(t.name);
      const absent = t.columns.filter((c) => !cols?.has(c));
      if (absent.length > 0)
        throw new ToolError(
          `The target has no column ${absent.map((c) => `${t.name}.${c}`).join(', ')}.`,
        );
    }

    const report: CopyReport = [];
    await db.transaction().execute(async (trx) => {
      for (const t of tables) {
        const rows = await copyTable(
          src,
          trx,
          t,
          types.get(t.name) as Map<string, string>,
          options.batchRows,
        );
        await resetSequences(trx, t);
        report.push({ table: t.name, rows });
        log(`  ${t.name.padEnd(28)} ${String(rows).padStart(8)} rows`);
      }
    });
    src.exec('COMMIT');
    const total = report.reduce((n, r) => n + r.rows, 0);
    log(`Copied ${total} rows in ${report.length} tables from ${from}.`);
    if (pending > 0)
      log(
        options.jobDriver === 'pg-boss'
          ? `${waiting} were copied: pg-boss takes them over when the PostgreSQL install first starts.`
          : `${waiting} were copied: with TENPO_JOB_DRIVER=table the table driver runs them as they are.`,
      );
    return report;
  } finally {
    if (src.inTransaction) src.exec('ROLLBACK');
    src.close();
    await target.close();
  }
}

async function copyTable(
  src: Sqlite.Database,
  trx: Transaction<Record<string, Row>>,
  t: Table,
  types: Map<string, string>,
  batchRows = 500,
): Promise<number> {
  // PostgreSQL takes at most 65,535 parameters in one statement.
  const batch = Math.max(1, Math.min(batchRows, Math.floor(60_000 / t.columns.length)));
  const read = src.prepare(
    `select rowid as "__rowid", ${t.columns.map((c) => `"${c}"`).join(', ')} from "${t.name}" where rowid > ? order by rowid limit ?`,
  );
  const later: [unknown, string, unknown][] = [];
  let last = Number.MIN_SAFE_INTEGER;
  let copied = 0;
  for (;;) {
    const rows = read.all(last, batch) as Row[];
    if (rows.length === 0) break;
    const values = rows.map((r) => {
      const v: Row = {};
      for (const c of t.columns) {
        const x = toPostgres(r[c], types.get(c) as string, `${t.name}.${c}`);
        if (t.selfRefs.includes(c) && x !== null) {
          later.push([r[t.key as string], c, x]);
          v[c] = null;
        } else v[c] = x;
      }
      return v;
    });
    await trx.insertInto(t.name).values(values).execute();
    copied += rows.length;
    last = (rows[rows.length - 1] as Row).__rowid as number;
  }
  if (later.length > 0 && !t.key)
    throw new ToolError(`${t.name} references itself but has no single-column key.`);
  for (const [id, column, value] of later)
    await trx
      .updateTable(t.name)
      .set({ [column]: value })
      .where(t.key as string, '=', id)
      .execute();
  return copied;
}

/** Moves each serial column's sequence to max + 1, so the next insert does not reuse an id. */
async function resetSequences(trx: Transaction<Record<string, Row>>, t: Table): Promise<void> {
  for (const c of t.columns) {
    const { rows } = await sql<{ seq: string | null }>`
      select pg_get_serial_sequence(${`"${t.name}"`}, ${c}) as seq`.execute(trx);
    const seq = rows[0]?.seq;
    if (!seq) continue;
    await sql`select setval(${seq}::regclass, coalesce((select max(${sql.ref(c)}) from ${sql.table(t.name)}), 0) + 1, false)`.execute(
      trx,
    );
  }
}
