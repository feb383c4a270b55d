import { sql } from 'kysely';
import type { Db, Dialect } from '../db/kysely';
import { addMs, iso, type Clock } from '../lib/clock';
import type { RateLimit } from './engine';
import { limitLabelOf, rateLimitWaitSeconds, rateLimitWaits } from '../lib/metrics';

/**
 * Sliding-window rate limits kept in the database (`job_rate_events`), so that every process and
 * both drivers count the same starts (ADR 0020). A start is recorded only while the window
 * holds fewer than `max`; the check and the record are one atomic step.
 */
export type Limiter = {
  /**
   * Records a start against every limit that applies, or none of them: null when the job may
   * start, otherwise the time at which it may try again.
   */
  acquire<P>(limits: RateLimit<P>[], payload: P): Promise<Date | null>;
  /** Forgets starts older than a day. */
  prune(): Promise<void>;
};

export function createLimiter(db: Db, dialect: Dialect, clock: Clock): Limiter {
  /** Records one start for `key`, or returns when the oldest start in the window expires. */
  const take = async (key: string, max: number, perMs: number): Promise<Date | null> => {
    const now = clock.now();
    const at = iso(now);
    const since = iso(addMs(now, -perMs));
    if (dialect === 'sqlite') {
      // One statement: SQLite holds its write lock for the whole of it, across processes too.
      const r = await sql`
        insert into job_rate_events (key, at)
        select ${key}, ${at}
        where (select count(*) from job_rate_events where key = ${key} and at > ${since}) < ${max}
      `.execute(db);
      if (Number(r.numAffectedRows ?? 0) === 1) return null;
    } else {
      // PostgreSQL reads a snapshot per statement: a transaction-scoped advisory lock on the key
      // makes the count and the insert one step among all processes.
      const ok = await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${`tenpo-rate:${key}`}))`.execute(trx);
        // The time once the lock is held: a start waiting for the lock is not recorded early.
        const now = clock.now();
        const at = iso(now);
        const since = iso(addMs(now, -perMs));
        const row = await trx
          .selectFrom('job_rate_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('key', '=', key)
          .where('at', '>', since)
          .executeTakeFirstOrThrow();
        if (Number(row.n) >= max) return false;
        await trx.insertInto('job_rate_events').values({ key, at }).execute();
        return true;
      });
      if (ok) return null;
    }
    const oldest = await db
      .selectFrom('job_rate_events')
      .select((eb) => eb.fn.min<string>('at').as('at'))
      .where('key', '=', key)
      .where('at', '>', since)
      .executeTakeFirst();
    const from = oldest?.at ? new Date(oldest.at) : now;
    // Just after the oldest start leaves the window.
    return addMs(from, perMs + 1);
  };

  return {
    async acquire(limits, payload) {
      const taken: string[] = [];
      for (const limit of limits) {
        const key = limit.key(payload);
        if (key === null) continue;
        const wait = await take(key, limit.max, limit.perMs);
        if (wait) {
          const label = { limit: limitLabelOf(key) };
          rateLimitWaits.inc(label);
          rateLimitWaitSeconds.observe(
            label,
            Math.max(0, wait.getTime() - clock.now().getTime()) / 1000,
          );
          // All or nothing: give back what this job took from the earlier limits.
          for (const k of taken) {
            const last = await db
              .selectFrom('job_rate_events')
              .select('id')
              .where('key', '=', k)
              .orderBy('id', 'desc')
              .limit(1)
              .executeTakeFirst();
            if (last) await db.deleteFrom('job_rate_events').where('id', '=', last.id).execute();
          }
          return wait;
        }
        taken.push(key);
      }
      return null;
    },
    async prune() {
      await db
        .deleteFrom('job_rate_events')
        .where('at', '<', iso(addMs(clock.now(), -24 * 3_600_000)))
        .execute();
    },
  };
}
