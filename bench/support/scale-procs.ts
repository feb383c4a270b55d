// The OS processes bench/scale.ts starts (the sandbox, Tenpo's API processes and workers): each
// a Node.js process of its own with tsx and the leash (scale-leash.ts), its output kept for the
// error message, stopped with SIGTERM then SIGKILL; and what each has spent on the CPU, read
// from /proc (Linux), so that the bench can say where a run's CPU went on a 2-core machine.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const leash = path.join(here, 'scale-leash.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type Proc = {
  name: string;
  child: ChildProcess;
  /** The last lines it wrote (stdout and stderr). */
  tail: () => string;
  exited: () => boolean;
};

const live = new Set<Proc>();

/** The environment a started process gets: the machine's basics, then `env` (nothing else). */
const baseEnv = (): Record<string, string> => {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'USER'];
  const out: Record<string, string> = {};
  for (const k of keep) if (process.env[k] !== undefined) out[k] = process.env[k] as string;
  return out;
};

/** Starts `node --import tsx [nodeArgs] file` with `env` (and the leash). */
export function startNode(
  name: string,
  file: string,
  env: Record<string, string>,
  opts: { cwd?: string; nodeArgs?: string[]; preload?: string[] } = {},
): Proc {
  const preload = [leash, ...(opts.preload ?? [])].flatMap((f) => ['--import', f]);
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), '--import', 'tsx', ...preload, file],
    { cwd: opts.cwd, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const onData = (d: Buffer) => {
    out += d.toString();
    if (out.length > 20_000) out = out.slice(-10_000);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const p: Proc = {
    name,
    child,
    tail: () => out.slice(-3000),
    exited: () => child.exitCode !== null || child.signalCode !== null,
  };
  live.add(p);
  child.once('exit', () => live.delete(p));
  return p;
}

/** Waits until `ready()` answers true (polled every 100 ms); fails if `p` exits or time runs out. */
export async function waitReady(p: Proc, ready: () => Promise<boolean>, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (p.exited()) throw new Error(`${p.name} exited (${p.child.exitCode}): ${p.tail()}`);
    if (await ready().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${p.name} not ready after ${timeoutMs / 1000} s: ${p.tail()}`);
}

/** True when `url` answers 200. */
export const answers200 = async (url: string): Promise<boolean> => {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status === 200;
};

/** Stops each process: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcs(procs: Iterable<Proc>, graceMs: number): Promise<void> {
  await Promise.all(
    [...procs].map(async (p) => {
      if (p.exited()) return;
      const gone = new Promise((r) => p.child.once('exit', r));
      p.child.kill('SIGTERM');
      await Promise.race([gone, sleep(graceMs)]);
      if (!p.exited()) {
        p.child.kill('SIGKILL');
        await Promise.race([gone, sleep(2000)]);
      }
    }),
  );
}

/** The processes started and still running. */
export const liveProcs = (): Proc[] => [...live].filter((p) => !p.exited());

/** Every process still running, killed at once (on exit and on error). */
export function killAll(): void {
  for (const p of live) if (!p.exited()) p.child.kill('SIGKILL');
}

/** CPU seconds (user + system) a process has used, or NaN off Linux or once it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    return ticks / 100; // USER_HZ is 100 on Linux.
  } catch {
    return NaN;
  }
}

/** The machine's 1-minute load and its cores, for the report. */
export const machine = (): string =>
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, ${os.cpus().length} cores`;
