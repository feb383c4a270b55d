// Counts the statements a piece of code sends to the database (issue 26 P9: a post to many
// stores costs the statements of a post to one). Used by posts-batch.test.ts and bench/.
import Sqlite from 'better-sqlite3';
import pg from 'pg';

/**
 * Every statement this process sends to the database while `fn` runs (better-sqlite3's
 * statements run, pg's client queries), whichever code sends it.
 */
export async function statementsDuring(fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const restore: (() => void)[] = [];
  const wrap = (proto: Record<string, unknown>, names: string[]) => {
    for (const name of names) {
      const original = proto[name] as (...a: unknown[]) => unknown;
      proto[name] = function (this: unknown, ...a: unknown[]) {
        n++;
        return original.apply(this, a);
      };
      restore.push(() => {
        proto[name] = original;
      });
    }
  };
  const probe = new Sqlite(':memory:');
  wrap(Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>, [
    'run',
    'all',
    'get',
    'iterate',
  ]);
  wrap(pg.Client.prototype as unknown as Record<string, unknown>, ['query']);
  try {
    await fn();
  } finally {
    for (const r of restore) r();
    probe.close();
  }
  return n;
}
