import { PostgresAdapter, sql } from 'kysely';
import { firstDayOf, lastDayOf, METRIC_FIELDS, PUBLISHER_STATUS } from '@tenpo/domain';
import type { Db } from '../../db/kysely';
import type {
  MetricColumns,
  MetricDaysTable,
  MetricKeywordsTable,
  MetricSyncsTable,
} from '../../db/types';

export type MetricsRepo = ReturnType<typeof createMetricsRepo>;
export type MetricsQueries = ReturnType<typeof queries>;

export type SyncPatch = Partial<Omit<MetricSyncsTable, 'store_id' | 'updated_at'>>;

const GOOGLE = 'google_my_business';

/** The Google row states under which a store is synced: connected, synced, submitted. */
export const SYNCED_STATUSES: readonly number[] = [
  PUBLISHER_STATUS.connected,
  PUBLISHER_STATUS.sync,
  PUBLISHER_STATUS.submitted,
];

/** Rows per insert: 13 columns × 100 stays far below SQLite's and PostgreSQL's bind limits. */
const BATCH = 100;

/** The figures `metric_months` keeps a running total of (`cum_<field>`, ADR 0038). */
export const RUNNING_FIELDS = [...METRIC_FIELDS, 'search_keywords'] as const;

/**
 * Recomputes the store's running totals (`cum_<field>`, ADR 0038) of every month row from
 * `from` on: each the sum of the store's rows up to and including its month. One statement;
 * a rewritten month moves the totals of every later month, so all of them are rewritten (a
 * store holds about 25 months). Called wherever `metric_months` rows are written.
 */
export async function keepRunningTotals(db: Db, storeId: number, from: string): Promise<void> {
  await sql`update metric_months set (${sql.join(RUNNING_FIELDS.map((f) => sql.ref(`cum_${f}`)))}) = (
      select ${sql.join(RUNNING_FIELDS.map((f) => sql`coalesce(sum(m.${sql.ref(f)}), 0)`))}
      from metric_months m
      where m.store_id = metric_months.store_id and m.month <= metric_months.month)
    where store_id = ${storeId} and month >= ${from}`.execute(db);
}

const queries = (db: Db) => ({
  /** Every store whose Google row has a chosen location and is in a synced state. */
  connectedStores: (): Promise<{ store_id: number; entity_id: string }[]> =>
    db
      .selectFrom('publisher_connections')
      .select(['user_id as store_id', 'entity_id'])
      .where('publisher_key', '=', GOOGLE)
      .where('entity_id', 'is not', null)
      .where('status', 'in', [...SYNCED_STATUSES])
      .orderBy('user_id')
      .execute() as Promise<{ store_id: number; entity_id: string }[]>,

  /** The connected stores that have never finished a backfill (the start-time catch-up). */
  async storesWithoutBackfill(): Promise<number[]> {
    const rows = await db
      .selectFrom('publisher_connections as p')
      .leftJoin('metric_syncs as s', 's.store_id', 'p.user_id')
      .select('p.user_id as store_id')
      .where('p.publisher_key', '=', GOOGLE)
      .where('p.entity_id', 'is not', null)
      .where('p.status', 'in', [...SYNCED_STATUSES])
      .where((eb) => eb.or([eb('s.store_id', 'is', null), eb('s.backfilled_at', 'is', null)]))
      .orderBy('p.user_id')
      .execute();
    return rows.map((r) => r.store_id);
  },

  googleConnection: (storeId: number) =>
    db
      .selectFrom('publisher_connections')
      .select(['entity_id', 'status'])
      .where('user_id', '=', storeId)
      .where('publisher_key', '=', GOOGLE)
      .executeTakeFirst(),

  syncOf: (storeId: number): Promise<MetricSyncsTable | undefined> =>
    db.selectFrom('metric_syncs').selectAll().where('store_id', '=', storeId).executeTakeFirst(),

  async saveSync(storeId: number, patch: SyncPatch, now: string): Promise<void> {
    await db
      .insertInto('metric_syncs')
      .values({
        store_id: storeId,
        location_id: null,
        state: 'idle',
        first_day: null,
        last_day: null,
        keywords_final_month: null,
        backfilled_at: null,
        synced_at: null,
        error: null,
        ...patch,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('store_id').doUpdateSet({ ...patch, updated_at: now }))
      .execute();
  },

  /** The days of [from, to] the store already holds. */
  async daysHeld(storeId: number, from: string, to: string): Promise<Set<string>> {
    const rows = await db
      .selectFrom('metric_days')
      .select('day')
      .where('store_id', '=', storeId)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .execute();
    return new Set(rows.map((r) => r.day));
  },

  /** Writes whole days: a day already held is replaced (Google revises recent days). */
  async upsertDays(rows: MetricDaysTable[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      await db
        .insertInto('metric_days')
        .values(batch)
        .onConflict((oc) =>
          oc
            .columns(['store_id', 'day'])
            .doUpdateSet(
              (eb) =>
                Object.fromEntries(
                  [...METRIC_FIELDS, 'fetched_at' as const].map((f) => [
                    f,
                    eb.ref(`excluded.${f}`),
                  ]),
                ) as never,
            ),
        )
        .execute();
    }
  },

  /** Writes a month's keywords; a keyword already held for the month is replaced. */
  async upsertKeywords(rows: MetricKeywordsTable[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH) {
      await db
        .insertInto('metric_keywords')
        .values(rows.slice(i, i + BATCH))
        .onConflict((oc) =>
          oc.columns(['store_id', 'month', 'keyword']).doUpdateSet((eb) => ({
            value: eb.ref('excluded.value'),
            threshold: eb.ref('excluded.threshold'),
            fetched_at: eb.ref('excluded.fetched_at'),
          })),
        )
        .execute();
    }
  },

  /**
   * Rewrites the store's `metric_months` rows of `months` from what `metric_days` and
   * `metric_keywords` hold now: sums, never increments, so a day written twice counts once.
   */
  async rollupMonths(storeId: number, months: readonly string[], now: string): Promise<void> {
    if (months.length === 0) return;
    // PostgreSQL: one store's rollups one transaction at a time. Two syncs of a store writing
    // different days (a backfill request and the daily revisit) would otherwise each sum the
    // days and total the months without the other's uncommitted rows, and the later commit
    // would keep a month or a running total that misses the other's days. After the wait, each
    // statement reads what the first committed. (SQLite runs one write transaction at a time.)
    if (db.getExecutor().adapter instanceof PostgresAdapter)
      await sql`select pg_advisory_xact_lock(hashtext(${`tenpo-metric-months:${storeId}`}))`.execute(
        db,
      );
    for (const month of months) {
      const sums = await db
        .selectFrom('metric_days')
        .select((eb) => [
          ...METRIC_FIELDS.map((f) => eb.fn.coalesce(eb.fn.sum<number>(f), eb.lit(0)).as(f)),
          eb.fn.countAll<number>().as('days'),
        ])
        .where('store_id', '=', storeId)
        .where('day', '>=', firstDayOf(month))
        .where('day', '<=', lastDayOf(month))
        .executeTakeFirstOrThrow();
      const kw = await db
        .selectFrom('metric_keywords')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('value'), eb.lit(0)).as('n'))
        .where('store_id', '=', storeId)
        .where('month', '=', month)
        .executeTakeFirstOrThrow();
      // PostgreSQL answers sums as numeric strings.
      const row = {
        store_id: storeId,
        month,
        ...(Object.fromEntries(
          METRIC_FIELDS.map((f) => [f, Number((sums as Record<string, unknown>)[f] ?? 0)]),
        ) as MetricColumns),
        search_keywords: Number(kw.n ?? 0),
        days: Number(sums.days),
        updated_at: now,
      };
      const { store_id: _s, month: _m, ...update } = row;
      await db
        .insertInto('metric_months')
        .values(row)
        .onConflict((oc) => oc.columns(['store_id', 'month']).doUpdateSet(update))
        .execute();
    }
    // The rewritten months, and every later one, carry new running totals.
    await keepRunningTotals(db, storeId, [...months].sort()[0] as string);
  },

  /** Forgets every figure of a store (its location changed: they were another listing's). */
  async clearStore(storeId: number): Promise<void> {
    await db.deleteFrom('metric_days').where('store_id', '=', storeId).execute();
    await db.deleteFrom('metric_months').where('store_id', '=', storeId).execute();
    await db.deleteFrom('metric_keywords').where('store_id', '=', storeId).execute();
  },
});

export function createMetricsRepo(db: Db) {
  return {
    ...queries(db),
    /** One unit of work: every write in `fn` commits together or not at all. */
    transaction: <T>(fn: (repo: MetricsQueries) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx))),
  };
}
