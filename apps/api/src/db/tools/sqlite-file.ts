import fs from 'node:fs';
import Sqlite from 'better-sqlite3';

/** An operator's mistake the command explains and exits 1 on, without a stack trace. */
export class ToolError extends Error {}

/**
 * Whether another connection (a running server or worker) has this SQLite file open. In WAL mode
 * every open connection holds a shared lock on the file for as long as it is open, idle or not,
 * so an exclusive lock taken without waiting succeeds only when nobody else has it open.
 */
export function sqliteInUse(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const probe = new Sqlite(file, { fileMustExist: true });
  try {
    probe.pragma('busy_timeout = 0');
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('COMMIT');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw err;
  } finally {
    probe.close();
  }
}

/** The file of a `sqlite:` / `file:` URL, as openDatabase reads it. */
export const sqliteFileOf = (url: string): string => url.replace(/^(sqlite|file):(\/\/)?/, '');

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//.test(url);

/** The files SQLite keeps beside a database (removed with it, never copied on their own). */
export const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'];
