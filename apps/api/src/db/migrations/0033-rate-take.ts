import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * The rate limits' check-and-record on PostgreSQL as one statement (issue 26 P9, ADR 0100):
 * `tenpo_rate_take(keys, maxes, per_ms, at)` takes every key's advisory lock (in key order, the
 * same lock the five-statement transaction it replaces took: `hashtext('tenpo-rate:' || key)`,
 * so processes of both versions exclude each other), counts each key's starts in its window,
 * and records one start for every key, or none: it answers the first key refused and the time
 * at which to try again. Times are the `at` column's ISO text (UTC, milliseconds).
 *
 * Each statement in a VOLATILE plpgsql function reads a snapshot of its own, taken after the
 * locks are held: the count sees every start committed before (a single SQL statement would
 * count from a snapshot taken before its lock). `at` is the caller's clock moved on by the time
 * the call waited for the locks, so a start that waited is not recorded early. SQLite keeps its
 * single INSERT … SELECT (its write lock spans the statement).
 */
export const rateTake = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>): Promise<void> {
    if (dialect !== 'postgres') return;
    await sql`
      create or replace function tenpo_rate_take(
        p_keys text[], p_max integer[], p_per_ms bigint[], p_at text,
        out refused_key text, out retry_at text
      ) language plpgsql volatile as $fn$
      declare
        v_key text;
        v_at timestamptz;
        v_at_text text;
        v_since text;
        v_n bigint;
        v_oldest text;
        iso constant text := 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';
      begin
        for v_key in select distinct k from unnest(p_keys) as k order by 1 loop
          perform pg_advisory_xact_lock(hashtext('tenpo-rate:' || v_key));
        end loop;
        v_at := p_at::timestamptz + (clock_timestamp() - statement_timestamp());
        v_at_text := to_char(v_at at time zone 'UTC', iso);
        for i in 1 .. coalesce(array_length(p_keys, 1), 0) loop
          v_since := to_char((v_at - p_per_ms[i] * interval '1 millisecond') at time zone 'UTC', iso);
          select count(*), min(at) into v_n, v_oldest
            from job_rate_events where key = p_keys[i] and at > v_since;
          -- A key named twice counts its earlier place in this call as a start.
          v_n := v_n + (select count(*) from unnest(p_keys[1:i - 1]) as k where k = p_keys[i]);
          if v_n >= p_max[i] then
            refused_key := p_keys[i];
            retry_at := to_char(
              (coalesce(v_oldest::timestamptz, v_at) + (p_per_ms[i] + 1) * interval '1 millisecond')
                at time zone 'UTC',
              iso);
            return;
          end if;
        end loop;
        insert into job_rate_events (key, at) select k, v_at_text from unnest(p_keys) as k;
      end
      $fn$
    `.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    if (dialect !== 'postgres') return;
    await sql`drop function if exists tenpo_rate_take(text[], integer[], bigint[], text)`.execute(
      db,
    );
  },
});
