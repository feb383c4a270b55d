import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import { METRIC_FIELDS } from '@tenpo/domain';

/**
 * Google performance metrics (issue 10, spec 3 §3):
 * - `metric_days`: one row per store and Tokyo day, the ten daily metrics as columns (wide rows:
 *   a day is written and read whole; Google revises the last days, so a row is upserted);
 * - `metric_months`: the same sums per store and month, plus `search_keywords` (the month's
 *   keyword impressions) and `days` (how many daily rows it sums), rewritten from `metric_days`
 *   in the transaction that changed them, so reports over many months read 25 rows a store;
 * - `metric_keywords`: per store, month and keyword, Google's exact `value` or its `threshold`
 *   (fewer than N), kept for good (Google keeps about five months);
 * - `metric_syncs`: per store, what the sync has done (backfill, last pull, its state and error).
 */
export const metrics = () => {
  const count = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  const store = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('users.id').onDelete('cascade');
  type Table = CreateTableBuilder<string, string>;
  const withMetrics = (t: Table): Table =>
    METRIC_FIELDS.reduce<Table>((b, f) => b.addColumn(f, 'integer', count), t);

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withMetrics(
        db.schema
          .createTable('metric_days')
          .addColumn('store_id', 'integer', store)
          .addColumn('day', 'text', (c) => c.notNull()),
      )
        .addColumn('fetched_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('metric_days_pk', ['store_id', 'day'])
        .execute();

      await withMetrics(
        db.schema
          .createTable('metric_months')
          .addColumn('store_id', 'integer', store)
          .addColumn('month', 'text', (c) => c.notNull()),
      )
        .addColumn('search_keywords', 'integer', count)
        .addColumn('days', 'integer', count)
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('metric_months_pk', ['store_id', 'month'])
        .execute();

      await db.schema
        .createTable('metric_keywords')
        .addColumn('store_id', 'integer', store)
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('keyword', 'text', (c) => c.notNull())
        // exactly one of value (an exact count) and threshold (fewer than N) is set
        .addColumn('value', 'integer')
        .addColumn('threshold', 'integer')
        .addColumn('fetched_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('metric_keywords_pk', ['store_id', 'month', 'keyword'])
        .execute();

      await db.schema
        .createTable('metric_syncs')
        .addColumn('store_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('location_id', 'text')
        // idle | running | done | error
        .addColumn('state', 'text', (c) => c.notNull())
        // the first day and month Tenpo holds (the backfill's start), and the last pulled
        .addColumn('first_day', 'text')
        .addColumn('last_day', 'text')
        // keyword months up to this one are final (Google does not revise a closed month)
        .addColumn('keywords_final_month', 'text')
        .addColumn('backfilled_at', 'text')
        .addColumn('synced_at', 'text')
        .addColumn('error', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const t of ['metric_syncs', 'metric_keywords', 'metric_months', 'metric_days'])
        await db.schema.dropTable(t).ifExists().execute();
    },
  };
};
