import fs from 'node:fs';
import path from 'node:path';

export class SandboxLockedError extends Error {}

/** Data folders this process holds, so a second sandbox in the same process is refused too. */
const held = new Set<string>();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Makes this process the only writer of a sandbox data folder: each process keeps the state in
 * memory and rewrites whole files, so two of them would overwrite each other's changes (a post
 * answered by one vanishing when the other writes). `sandbox.lock` holds the writer's pid; a
 * lock whose process is gone (killed, crashed) is taken over. Returns the release.
 */
export function lockDataDir(dir: string): () => void {
  const key = path.resolve(dir);
  const file = path.join(key, 'sandbox.lock');
  if (held.has(key)) throw new SandboxLockedError(lockedMessage(key, process.pid));
  fs.mkdirSync(key, { recursive: true });
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const seen = readOr(file, '');
      const pid = Number.parseInt(seen, 10);
      // Our own pid in a lock we do not hold: left by an earlier life of a process that got the
      // same pid (pid 1 in a container restarted after kill -9).
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))
        throw new SandboxLockedError(lockedMessage(key, pid));
      // Stale: its writer is gone. Removed only if it still names that writer, then taken with
      // `wx` again, so of two processes taking over at once the second finds the first's lock.
      if (readOr(file, '') === seen) fs.rmSync(file, { force: true });
    }
  }
  held.add(key);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.delete(key);
    if (readOr(file, '').trim() === String(process.pid)) fs.rmSync(file, { force: true });
  };
}

const readOr = (file: string, fallback: string): string => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
};

const lockedMessage = (dir: string, pid: number): string =>
  `The sandbox data folder ${dir} is in use by process ${pid}: one sandbox writes a DATA_DIR. ` +
  'Stop that process, give this one another DATA_DIR, or point Tenpo at the running sandbox ' +
  'with SANDBOX_URL instead of mounting its own.';
