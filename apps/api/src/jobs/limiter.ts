import { sql } from 'kysely';
import type { Db, Dialect } from '../db/kysely';
import { addMs, iso, type Clock } from '../lib/clock';
import type { RateLimit } from './engine';
import { limitLabelOf, rateLimitWaitSeconds, rateLimitWaits } from '../lib/metrics';

/**
 * Sliding-window rate limits kept in the database (`job_rate_events`), so that every process and
 * both drivers count the same starts (ADR 0020). A start is recorded only while the window
 * holds fewer than `max`; the check and the record are one atomic step (one statement on
 * either database: ADR 0100).
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
  /** SQLite: records one start for `key`, or returns when the oldest start in the window expires. */
  const take = async (key: string, max: number, perMs: number): Promise<Date | null> => {
    const now = clock.now();
    const at = iso(now);
    const since = iso(addMs(now, -perMs));
    // One statement: SQLite holds its write lock for the whole of it, across processes too.
    const r = await sql`
      insert into job_rate_events (key, at)
      select ${key}, ${at}
      where (select count(*) from job_rate_events where key = ${key} and at > ${since}) < ${max}
    `.execute(db);
    if (Number(r.numAffectedRows ?? 0) === 1) return null;
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

  const refused = (key: string, wait: Date): Date => {
    const label = { limit: limitLabelOf(key) };
    rateLimitWaits.inc(label);
    rateLimitWaitSeconds.observe(label, Math.max(0, wait.getTime() - clock.now().getTime()) / 1000);
    return wait;
  };

  /**
   * PostgreSQL: every limit's check and record in one statement, all or nothing
   * (`tenpo_rate_take`, migration 0033; ADR 0100): it was a transaction of five statements per
   * limit under an advisory lock held across round trips, which serialised the workers.
   */
  const acquireAll = async (
    keyed: { key: string; max: number; perMs: number }[],
  ): Promise<Date | null> => {
    const { rows } = await sql<{ refused_key: string | null; retry_at: string | null }>`
      select refused_key, retry_at from tenpo_rate_take(
        ${keyed.map((k) => k.key)}::text[], ${keyed.map((k) => k.max)}::integer[],
        ${keyed.map((k) => k.perMs)}::bigint[], ${iso(clock.now())})
    `.execute(db);
    const row = rows[0];
    if (!row?.refused_key || !row.retry_at) return null;
    return refused(row.refused_key, new Date(row.retry_at));
  };

  return {
    async acquire(limits, payload) {
      if (dialect === 'postgres') {
        const keyed = limits.flatMap((l) => {
          const key = l.key(payload);
          return key === null ? [] : [{ key, max: l.max, perMs: l.perMs }];
        });
        return keyed.length === 0 ? null : acquireAll(keyed);
      }
      const taken: string[] = [];
      for (const limit of limits) {
        const key = limit.key(payload);
        if (key === null) continue;
        const wait = await take(key, limit.max, limit.perMs);
        if (wait) {
          refused(key, wait);
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
