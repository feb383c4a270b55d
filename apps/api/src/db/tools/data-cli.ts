import path from 'node:path';
import { createBackup, restoreBackup, type Install } from './backup';
import { migrateToPostgres } from './migrate-to-postgres';
import { isPostgresUrl, sqliteFileOf, ToolError } from './sqlite-file';

/**
 * The data commands (ADR 0056), bundled as apps/api/dist/data.mjs so that they run where only
 * `npm ci --omit=dev` was installed:
 *   npm run backup [-- --out FILE]
 *   npm run restore -- ARCHIVE [--force]      (or: npm run backup -- --restore ARCHIVE)
 *   npm run migrate-to-postgres [-- --from sqlite:FILE] [--to postgres://…]
 * They read the server's own variables (DATA_DIR, DATABASE_URL, TENPO_SECRET_KEY,
 * STORAGE_DRIVER, S3_BUCKET, TENPO_JOB_DRIVER) but not its whole configuration: a restore into
 * an empty DATA_DIR must not have a secret key generated there first, as loading it would.
 */

type Env = Record<string, string | undefined>;

const USAGE = `Usage:
  npm run backup [-- --out FILE]
  npm run restore -- ARCHIVE [--force]
  npm run migrate-to-postgres [-- --from sqlite:FILE] [--to postgres://...]
Options: --data-dir DIR (default: DATA_DIR, or ./data)`;

export function parseArgs(argv: string[]): {
  positional: string[];
  flags: Map<string, string | true>;
} {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [k, v] = a.slice(2).split(/=(.*)/s);
    if (v !== undefined) flags.set(k as string, v);
    else if (k === 'force' || k === 'help') flags.set(k, true);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--'))
        throw new ToolError(`--${k} needs a value.\n${USAGE}`);
      flags.set(k as string, next);
      i += 1;
    }
  }
  return { positional, flags };
}

/** DATA_DIR and the database as the server resolves them (config.ts). */
export function installOf(env: Env, dataDirFlag?: string): Install & { databaseUrl: string } {
  const dataDir = path.resolve(dataDirFlag ?? env.DATA_DIR ?? './data');
  const databaseUrl = dataDirFlag
    ? `sqlite:${path.join(dataDir, 'tenpo.sqlite')}`
    : (env.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'tenpo.sqlite')}`);
  return {
    dataDir,
    databaseUrl,
    sqliteFile: isPostgresUrl(databaseUrl) ? '' : path.resolve(sqliteFileOf(databaseUrl)),
    secretKeyFromEnv: Boolean(env.TENPO_SECRET_KEY),
    storage:
      env.STORAGE_DRIVER === 's3'
        ? { driver: 's3', bucket: env.S3_BUCKET ?? null }
        : { driver: 'local' },
  };
}

/** pg_dump's command line for a DATABASE_URL (its `schema` parameter is ours, not libpq's). */
export function pgDumpCommand(url: string, out: string): string {
  const u = new URL(url);
  const schema = u.searchParams.get('schema');
  u.searchParams.delete('schema');
  return `pg_dump --format=custom ${schema ? `--schema=${schema} ` : ''}--file=${out} '${u.toString()}'`;
}

export async function runDataCommand(
  command: string,
  argv: string[],
  env: Env,
  log: (line: string) => void,
): Promise<number> {
  const { positional, flags } = parseArgs(argv);
  if (flags.has('help')) {
    log(USAGE);
    return 0;
  }
  // Paths typed on the command line are where the user typed them (npm run moves to the root).
  const here = (p: string) => path.resolve(env.INIT_CWD ?? process.cwd(), p);
  const str = (k: string): string | undefined => {
    const v = flags.get(k);
    return typeof v === 'string' ? v : undefined;
  };
  const dataDirFlag = str('data-dir');
  const install = installOf(env, dataDirFlag ? here(dataDirFlag) : undefined);
  const restoreFrom = str('restore') ?? (command === 'restore' ? positional[0] : undefined);

  if (command === 'backup' && restoreFrom === undefined) {
    if (isPostgresUrl(install.databaseUrl)) {
      log(
        `DATABASE_URL is PostgreSQL: back it up with PostgreSQL's own tool, for example\n  ${pgDumpCommand(install.databaseUrl, `tenpo-${new Date().toISOString().slice(0, 10)}.dump`)}\n` +
          'and keep the uploads (DATA_DIR/uploads, or the S3 bucket) and TENPO_SECRET_KEY with it. Nothing was written.',
      );
      return 1;
    }
    const out = str('out');
    await createBackup(install, { ...(out ? { out: here(out) } : {}), log });
    return 0;
  }
  if (command === 'restore' || command === 'backup') {
    if (!restoreFrom) throw new ToolError(`Which archive? ${USAGE}`);
    if (isPostgresUrl(install.databaseUrl))
      throw new ToolError(
        'DATABASE_URL is PostgreSQL: a backup archive holds a SQLite database. Restore it into a DATA_DIR, then run `npm run migrate-to-postgres`.',
      );
    await restoreBackup(install, { archive: here(restoreFrom), force: flags.has('force'), log });
    return 0;
  }
  if (command === 'migrate-to-postgres') {
    const fromFlag = str('from');
    const from = fromFlag
      ? here(sqliteFileOf(fromFlag))
      : isPostgresUrl(install.databaseUrl)
        ? path.join(install.dataDir, 'tenpo.sqlite')
        : install.sqliteFile;
    const to =
      str('to') ??
      (env.DATABASE_URL && isPostgresUrl(env.DATABASE_URL) ? env.DATABASE_URL : undefined);
    if (!to || !isPostgresUrl(to))
      throw new ToolError(
        'Name the PostgreSQL database: --to postgres://… or DATABASE_URL=postgres://…',
      );
    // pg-boss is the job engine on PostgreSQL unless TENPO_JOB_DRIVER=table (ADR 0053).
    const jobDriver = env.TENPO_JOB_DRIVER === 'table' ? 'table' : 'pg-boss';
    log(`Copying ${from} into ${to.replace(/\/\/[^@/]*@/, '//…@')}`);
    await migrateToPostgres({ from, to, jobDriver, log });
    return 0;
  }
  throw new ToolError(`Unknown command ${command}.\n${USAGE}`);
}

/** The bundle's entry: `node data.mjs <command> [args]`. */
export async function main(argv: string[], env: Env): Promise<void> {
  const [command = '', ...rest] = argv;
  try {
    process.exitCode = await runDataCommand(command, rest, env, (l) => console.log(l));
  } catch (err) {
    if (err instanceof ToolError) {
      console.error(err.message);
      process.exitCode = 1;
    } else throw err;
  }
}
