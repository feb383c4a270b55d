import { sql, type Kysely } from 'kysely';
import { METRIC_FIELDS } from '@tenpo/domain';
import type { Dialect } from '../kysely';

/** The figures and running totals a report reads from a month row (ADR 0038). */
const CARRIED = [...METRIC_FIELDS, 'search_keywords'].flatMap((f) => [f, `cum_${f}`]);

/**
 * SQLite: `metric_months_month` carries the figures and their running totals as well (issue 26,
 * ADR 0097), as PostgreSQL's has done with INCLUDE since migration 0010. The multi-store report
 * reads two month rows a store; through the index alone, that is two index searches a store
 * instead of two index searches and two table searches. Same name and same leading columns, so
 * every query that used it still does (and migration 0010's down still drops it). Nothing to
 * fill: an index is built from the rows held. PostgreSQL: nothing to do.
 */
export const reportMonthsCovering = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>): Promise<void> {
    if (dialect === 'postgres') return;
    await sql`drop index if exists metric_months_month`.execute(db);
    await sql`create index metric_months_month on metric_months (month, store_id, ${sql.join(
      CARRIED.map((c) => sql.ref(c)),
    )})`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    if (dialect === 'postgres') return;
    await sql`drop index if exists metric_months_month`.execute(db);
    await sql`create index metric_months_month on metric_months (month, store_id)`.execute(db);
  },
});
