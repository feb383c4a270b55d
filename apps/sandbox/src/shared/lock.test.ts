import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir, SandboxLockedError } from './lock';
import { tempDir } from './testing';

const dirs: string[] = [];
const folder = (): string => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const lockFile = (d: string) => path.join(d, 'sandbox.lock');

/** The pid of a process that has ended (and was waited for, so it is not a zombie). */
const deadPid = (): number => {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
};

describe('one writer per sandbox data folder', () => {
  it('writes its pid, and removes the lock on release', () => {
    const d = folder();
    const release = lockDataDir(d);
    expect(fs.readFileSync(lockFile(d), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lockFile(d))).toBe(false);
    lockDataDir(d)();
  });

  it('refuses a second sandbox on the same folder in this process', () => {
    const d = folder();
    const release = lockDataDir(d);
    expect(() => lockDataDir(d)).toThrow(SandboxLockedError);
    release();
  });

  it('refuses a folder whose lock names a running process, naming it', async () => {
    const d = folder();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      fs.writeFileSync(lockFile(d), `${other.pid}\n`);
      expect(() => lockDataDir(d)).toThrow(`in use by process ${other.pid}`);
      expect(fs.readFileSync(lockFile(d), 'utf8').trim()).toBe(String(other.pid));
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a process that is gone (kill -9, crash)', () => {
    const d = folder();
    fs.writeFileSync(lockFile(d), `${deadPid()}\n`);
    const release = lockDataDir(d);
    expect(fs.readFileSync(lockFile(d), 'utf8').trim()).toBe(String(process.pid));
    release();
  });

  it('takes over a lock naming its own pid that it does not hold (pid 1 after a restart)', () => {
    const d = folder();
    fs.writeFileSync(lockFile(d), `${process.pid}\n`);
    lockDataDir(d)();
    expect(fs.existsSync(lockFile(d))).toBe(false);
  });

  it('leaves alone, on release, a lock another process has taken over since', () => {
    const d = folder();
    const release = lockDataDir(d);
    fs.writeFileSync(lockFile(d), '999999\n');
    release();
    expect(fs.readFileSync(lockFile(d), 'utf8')).toBe('999999\n');
  });
});
