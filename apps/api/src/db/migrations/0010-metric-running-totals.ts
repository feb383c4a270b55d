import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../kysely';
import { METRIC_FIELDS } from '@tenpo/domain';

/** The figures a month row carries a running total of (ADR 0038). */
const FIELDS = [...METRIC_FIELDS, 'search_keywords'] as const;

/**
 * Running totals on `metric_months` (issue 10, ADR 0038): `cum_<field>` is the sum of `<field>`
 * over the store's month rows up to and including this one, so the figures of any run of whole
 * months are two rows a store (the last month's total minus what came before the first), not
 * one row a month. 64-bit: a total grows for as long as a store is kept. Existing rows are
 * filled here; from now on the metrics sync keeps them (metrics.repo `rollupMonths`).
 */
export const metricRunningTotals = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>): Promise<void> {
    for (const f of FIELDS)
      await db.schema
        .alterTable('metric_months')
        .addColumn(`cum_${f}`, 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    // Row values in SET: PostgreSQL, and SQLite since 3.15.
    await sql`update metric_months set (${sql.join(FIELDS.map((f) => sql.ref(`cum_${f}`)))}) = (
        select ${sql.join(FIELDS.map((f) => sql`coalesce(sum(m.${sql.ref(f)}), 0)`))}
        from metric_months m
        where m.store_id = metric_months.store_id and m.month <= metric_months.month)`.execute(db);
    // A report reads two given months of many stores: one index range a month. On PostgreSQL
    // the index carries the figures and their totals (INCLUDE), so the read is index-only and
    // touches about 30 index pages a month instead of a heap page a store; a vacuum keeps the
    // visibility map that this needs, so metric_months (rewritten by the daily sync) is
    // vacuumed after 2 % of its rows changed rather than 20 %.
    if (dialect === 'postgres') {
      const carried = FIELDS.flatMap((f) => [f, `cum_${f}`]);
      await sql`create index metric_months_month on metric_months (month, store_id)
          include (${sql.join(carried.map((c) => sql.ref(c)))})`.execute(db);
      await sql`alter table metric_months set (autovacuum_vacuum_scale_factor = 0.02)`.execute(db);
    } else
      await db.schema
        .createIndex('metric_months_month')
        .on('metric_months')
        .columns(['month', 'store_id'])
        .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('metric_months_month').ifExists().execute();
    if (dialect === 'postgres')
      await sql`alter table metric_months reset (autovacuum_vacuum_scale_factor)`.execute(db);
    for (const f of FIELDS)
      await db.schema.alterTable('metric_months').dropColumn(`cum_${f}`).execute();
  },
});
