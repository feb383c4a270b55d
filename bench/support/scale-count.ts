// Preloaded (`--import`) into Tenpo's processes by bench/scale.ts with BENCH_DEBUG: counts the
// statements the process sends to its database (PostgreSQL through pg's Client#query, SQLite
// through better-sqlite3's statements), by the statement's first words, and the time each took
// (PostgreSQL: from the send to the answer, waits for locks included; plus the waits for a pool
// connection, as `(pool connect)`). On each SIGUSR2 it
// writes what it counted since the last one to `$BENCH_COUNT_FILE.<n>.json` and starts again, so
// the bench reads what the burst's window cost (signalled at T and at the window's end).
import fs from 'node:fs';
import Sqlite from 'better-sqlite3';
import pg from 'pg';

const out = process.env.BENCH_COUNT_FILE;
/** Per kind: how many, and their milliseconds. */
let tally = new Map<string, [number, number]>();
/** A statement's kind: its first words, identifiers and literals dropped. */
const kindOf = (text: string): string =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/"/g, '')
    .replace(/\$\d+|'[^']*'|\b\d+\b/g, '?')
    .slice(0, 90);
const count = (k: string, ms: number): void => {
  const t = tally.get(k) ?? [0, 0];
  t[0] += 1;
  t[1] += ms;
  tally.set(k, t);
};
/** Counts `r` (a promise or a value) under `text`'s kind once it settles. */
const timed = <R>(text: unknown, t0: number, r: R): R => {
  const k = typeof text === 'string' ? kindOf(text) : '(other)';
  if (r instanceof Promise) {
    const done = () => count(k, performance.now() - t0);
    r.then(done, done);
  } else count(k, performance.now() - t0);
  return r;
};

if (out) {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0];
    const text = typeof q === 'string' ? q : (q as { text?: string } | null)?.text;
    return timed(text, performance.now(), query.apply(this, args));
  } as typeof pg.Client.prototype.query;
  const connect = pg.Pool.prototype.connect as (...args: unknown[]) => unknown;
  pg.Pool.prototype.connect = function (this: pg.Pool, ...args: unknown[]) {
    return timed('(pool connect)', performance.now(), connect.apply(this, args));
  } as typeof pg.Pool.prototype.connect;
  // better-sqlite3: every statement is one of a class, whatever database made it.
  const probe = new Sqlite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const m of ['run', 'get', 'all', 'iterate'] as const) {
    const f = proto[m] as (...args: unknown[]) => unknown;
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      return timed(this.source, performance.now(), f.apply(this, args));
    };
  }
  let n = 0;
  process.on('SIGUSR2', () => {
    n += 1;
    fs.writeFileSync(`${out}.${n}.json`, JSON.stringify(Object.fromEntries(tally)));
    tally = new Map();
  });
}
