import { sql, type RawBuilder, type SqlBool } from 'kysely';
import {
  addMonths,
  firstDayOf,
  lastDayOf,
  METRIC_FIELDS,
  monthOfDay,
  type MetricField,
} from '@tenpo/domain';
import type { DbHandle } from '../../db/kysely';
import { createReviewMetricsRepo, createReviewPeriodsRead } from '../reviews/review-metrics.repo';
import { GOOGLE_KEY } from '../users/users.repo';

export type Figures = Record<MetricField, number> & { search_keywords: number };
export type DayRow = Record<MetricField, number> & { day: string };
export type KeywordRow = {
  month: string;
  keyword: string;
  value: number | null;
  threshold: number | null;
};

const FIGURE_FIELDS = [...METRIC_FIELDS, 'search_keywords'] as const;

const ZERO = Object.fromEntries(FIGURE_FIELDS.map((f) => [f, 0])) as Figures;

export const zeroFigures = (): Figures => ({ ...ZERO });

export const addFigures = (a: Figures, b: Figures): Figures => {
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof Figures)[]) out[k] += b[k];
  return out;
};

/** PostgreSQL answers sums as strings (bigint), SQLite as numbers. */
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

const sums = (): RawBuilder<unknown>[] =>
  METRIC_FIELDS.map((f) => sql`sum(${sql.ref(f)})`.as(f) as unknown as RawBuilder<unknown>);

/**
 * How a day range splits (issue 10: "full months from metric_months, only partial edge months
 * from metric_days"): the whole months it covers, read as one row a store and month, and at
 * most two partial edge ranges of days.
 */
export type Split = {
  /** First and last whole month, or null when the range covers none. */
  full: { from: string; to: string } | null;
  /** Day ranges of the partial months at the edges (zero, one or two). */
  edges: { start: string; end: string }[];
  /** Every month the range touches (for the keyword figure, which is monthly only). */
  months: { from: string; to: string };
};

export function splitRange(start: string, end: string, today?: string): Split {
  const sm = monthOfDay(start);
  const em = monthOfDay(end);
  const fullFrom = start === firstDayOf(sm) ? sm : addMonths(sm, 1);
  // A range that reaches today holds every day its last month can have (no day after today has
  // figures), so that month's row is exact too: the slider's ranges read months only.
  const fullTo =
    end === lastDayOf(em) || (today !== undefined && end >= today) ? em : addMonths(em, -1);
  const edges: Split['edges'] = [];
  if (sm === em) {
    if (fullFrom > fullTo) edges.push({ start, end });
  } else {
    if (fullFrom !== sm) edges.push({ start, end: lastDayOf(sm) });
    if (fullTo !== em) edges.push({ start: firstDayOf(em), end });
  }
  return {
    full: fullFrom <= fullTo ? { from: fullFrom, to: fullTo } : null,
    edges,
    months: { from: sm, to: em },
  };
}

export type ReportsRepo = ReturnType<typeof createReportsRepo>;

/**
 * `store_id` among these ids as one bound value (an array on PostgreSQL, a JSON list on
 * SQLite) rather than a thousand parameters: a 1,000-store report parses and plans once.
 */
const storeInOf =
  (dialect: DbHandle['dialect']) =>
  (ids: readonly number[], column = 'store_id') =>
    dialect === 'postgres'
      ? sql<SqlBool>`${sql.ref(column)} = any(${[...ids]}::int[])`
      : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`;

const rowFigures = (r: Record<string, unknown>): Figures => {
  const f = zeroFigures();
  for (const k of FIGURE_FIELDS) f[k] = num(r[k]);
  return f;
};

/** What each store's running totals say of a field: `e.cum − (b.cum − b.field)`. */
const difference = sql.join(
  FIGURE_FIELDS.map(
    (f) =>
      sql`${sql.ref(`e.cum_${f}`)} - ${sql.ref(`b.cum_${f}`)} + ${sql.ref(`b.${f}`)} as ${sql.ref(f)}`,
  ),
);

/**
 * Whole months from the running totals of metric_months (ADR 0038): one query of two rows a
 * store, and a probe for the stores without a row at one end.
 */
function createRunningTotals(handle: Pick<DbHandle, 'db' | 'dialect'>) {
  const { db, dialect } = handle;

  /**
   * The general case of `wholeMonths`, for any store: `e` is the store's last month row up to
   * `to`, `b` its first from `from` on (two index probes a store). No row on one side → null →
   * 0, as is `b` after `e` (no row in the range: both totals count the same rows).
   */
  const probedMonths = async (
    storeIds: readonly number[],
    from: string,
    to: string,
  ): Promise<Map<number, Figures>> => {
    const query =
      dialect === 'postgres'
        ? sql<Record<string, unknown>>`select s.id as store_id, ${difference}
            from unnest(${[...storeIds]}::int[]) as s(id)
            left join lateral (select * from metric_months where store_id = s.id and month <= ${to}
              order by month desc limit 1) e on true
            left join lateral (select * from metric_months where store_id = s.id and month >= ${from}
              order by month limit 1) b on true`
        : sql<Record<string, unknown>>`select s.value as store_id, ${difference}
            from json_each(${JSON.stringify(storeIds)}) s
            left join metric_months e on e.store_id = s.value and e.month = (select max(month)
              from metric_months where store_id = s.value and month <= ${to})
            left join metric_months b on b.store_id = s.value and b.month = (select min(month)
              from metric_months where store_id = s.value and month >= ${from})`;
    const { rows } = await query.execute(db);
    return new Map(rows.map((r) => [Number(r.store_id), rowFigures(r)]));
  };

  /**
   * Each store's figures over the whole months from..to, from its running totals (ADR 0038):
   * the totals of its last month row up to `to` (e) minus those before its first row from
   * `from` on (b: `b.cum − b.field`). There is no row between the two, so the difference is
   * exactly the rows of from..to, whatever the months a store holds. A store synced over the
   * range has rows at `from` and at `to` themselves (the sync writes every day of its window):
   * they are read in one query, two rows a store, whatever the number of months; the stores
   * without one of them (rows that start later, stop earlier, the 1st of a month before its
   * first day is pulled) are looked up in a second query that finds their nearest rows.
   *
   * With `linkedOnly`, the same query keeps only the stores linked to Google (a multi-store
   * report drops the others): the answer's keys are then exactly the linked stores.
   */
  const wholeMonths = async (
    storeIds: readonly number[],
    from: string,
    to: string,
    linkedOnly = false,
  ): Promise<Map<number, Figures>> => {
    // Both ends at once, the difference made by the database: one row of 11 figures a store,
    // null where the store has no row at one end. The list joined as a table (not `= any(…)`):
    // PostgreSQL then plans in about 0.5 ms instead of 2–4 (it estimates an `= any` of 1,000
    // values one value at a time).
    const list =
      dialect === 'postgres'
        ? sql`unnest(string_to_array(${storeIds.join(',')}, ',')::int[]) as s(id)`
        : sql`(select value as id from json_each(${JSON.stringify(storeIds)})) as s`;
    const linkedJoin = linkedOnly
      ? sql`join publisher_connections p on p.user_id = s.id
          and p.publisher_key = ${GOOGLE_KEY} and p.entity_id is not null`
      : sql``;
    // SQLite: the month rows from the index that carries their figures (migration 0029), named
    // because without ANALYZE's statistics SQLite takes the primary key (one more table search
    // a row). PostgreSQL plans the index-only scan itself.
    const monthRows = (alias: 'e' | 'b') =>
      dialect === 'postgres'
        ? sql`metric_months ${sql.raw(alias)}`
        : sql`metric_months ${sql.raw(alias)} indexed by metric_months_month`;
    const ends = sql`left join ${monthRows('e')} on e.store_id = s.id and e.month = ${to}
        left join ${monthRows('b')} on b.store_id = s.id and b.month = ${from}`;
    const out = new Map<number, Figures>();
    const missing: number[] = [];
    /** A store's id and its 11 figures in FIGURE_FIELDS' order; the id alone, or a null: no row. */
    const take = (values: unknown[]) => {
      const id = Number(values[0]);
      if (values.length <= FIGURE_FIELDS.length) return missing.push(id);
      const f = {} as Figures;
      for (let i = 0; i < FIGURE_FIELDS.length; i++) {
        const v = values[i + 1];
        if (v === null || v === undefined) return missing.push(id);
        f[FIGURE_FIELDS[i] as keyof Figures] = Number(v);
      }
      out.set(id, f);
    };
    if (dialect === 'postgres') {
      // One text value for the whole answer, not a row a store: node-pg turns each of 11,000
      // bigint fields into a string one by one (ADR 0038), and PostgreSQL writes plain text
      // about twice as fast as json_agg of arrays (issue 26): `id,f1,…,f11` a store, `;`
      // between stores, the id alone where the store has no row at one end.
      const { rows } = await sql<{ j: string | null }>`select string_agg(case
          when e.store_id is null or b.store_id is null then s.id::text
          else concat_ws(',', s.id, ${sql.join(FIGURE_FIELDS.map((f) => sql`${sql.ref(`e.cum_${f}`)} - ${sql.ref(`b.cum_${f}`)} + ${sql.ref(`b.${f}`)}`))}) end, ';') as j
          from ${list} ${linkedJoin} ${ends}`.execute(db);
      const text = rows[0]?.j;
      if (text) for (const store of text.split(';')) take(store.split(','));
    } else {
      const { rows } = await sql<Record<string, unknown>>`select s.id as store_id, ${difference}
          from ${list} ${linkedJoin} ${ends}`.execute(db);
      for (const r of rows) take([r.store_id, ...FIGURE_FIELDS.map((f) => r[f])]);
    }
    if (missing.length) for (const [id, f] of await probedMonths(missing, from, to)) out.set(id, f);
    return out;
  };

  return wholeMonths;
}

/** The partial edge months of a range, from metric_days and the monthly keyword figure. */
function createEdgeReader(handle: Pick<DbHandle, 'db' | 'dialect'>) {
  const { db, dialect } = handle;
  const storeIn = storeInOf(dialect);

  /**
   * Day-range sums of the ten metrics, per store (and per month), from metric_days: one query
   * per edge range, each an index range on (store_id, day) (an OR of ranges made PostgreSQL
   * scan the table).
   */
  const edgeSums = async (
    storeIds: readonly number[],
    edges: Split['edges'],
    byMonth: boolean,
  ): Promise<{ store_id: number; month: string | null; figures: Figures }[]> => {
    if (storeIds.length === 0) return [];
    const out: { store_id: number; month: string | null; figures: Figures }[] = [];
    for (const e of edges) {
      const rows = (await db
        .selectFrom('metric_days')
        .select(['store_id', ...sums()] as never[])
        .where(storeIn(storeIds))
        .where('day', '>=', e.start)
        .where('day', '<=', e.end)
        .groupBy('store_id')
        .execute()) as Record<string, unknown>[];
      // An edge range lies within one month.
      for (const r of rows)
        out.push({
          store_id: Number(r.store_id),
          month: byMonth ? monthOfDay(e.start) : null,
          figures: rowFigures(r),
        });
    }
    return out;
  };

  /**
   * Adds the partial edge months of a split to each store's figures in `out`: their days, from
   * metric_days (one indexed query an edge), and their (monthly only) keyword figure.
   */
  const addEdges = async (
    storeIds: readonly number[],
    split: Split,
    out: Map<number, Figures>,
  ): Promise<Map<number, Figures>> => {
    if (storeIds.length === 0 || split.edges.length === 0) return out;
    const edgeMonths = [...new Set(split.edges.map((e) => monthOfDay(e.start)))];
    const keywordRows = await db
      .selectFrom('metric_months')
      .select(['store_id', sql<number | string>`sum(search_keywords)`.as('n')])
      .where(storeIn(storeIds))
      .where('month', 'in', edgeMonths)
      .groupBy('store_id')
      .execute();
    for (const r of keywordRows) {
      const cur = out.get(Number(r.store_id)) ?? zeroFigures();
      cur.search_keywords += num(r.n);
      out.set(Number(r.store_id), cur);
    }
    for (const e of await edgeSums(storeIds, split.edges, false)) {
      const cur = out.get(e.store_id) ?? zeroFigures();
      out.set(e.store_id, addFigures(cur, { ...e.figures, search_keywords: 0 }));
    }
    return out;
  };

  return { edgeSums, addEdges };
}

/** The only reader of the metric tables for the dashboard and report calls (ADR 0036). */
export function createReportsRepo(handle: Pick<DbHandle, 'db' | 'dialect'>) {
  const { db, dialect } = handle;
  const storeIn = storeInOf(dialect);
  const wholeMonths = createRunningTotals(handle);
  const { edgeSums, addEdges } = createEdgeReader(handle);

  const zeros = (ids: readonly number[]) =>
    new Map<number, Figures>(ids.map((id) => [id, zeroFigures()]));

  return {
    /** The reviews copy's reads for the review metrics that ride on these calls (issue 25 item 7). */
    reviews: createReviewMetricsRepo(db),

    /** Many stores' review figures over a range, in one statement (the multi-store report). */
    reviewPeriods: createReviewPeriodsRead(handle),

    /**
     * Each store's totals over the days start..end (both included): the whole months from
     * metric_months, the partial edge months from metric_days, and `search_keywords` of every
     * month the range touches (Google gives keyword counts by month only). The whole months
     * are one query of two index probes a store (running totals, ADR 0038) whatever the number
     * of months; each partial edge adds one indexed query. `today`: see splitRange.
     */
    async totals(storeIds: readonly number[], start: string, end: string, today?: string) {
      const out = zeros(storeIds);
      if (storeIds.length === 0 || end < start) return out;
      const split = splitRange(start, end, today);
      if (split.full)
        for (const [id, f] of await wholeMonths(storeIds, split.full.from, split.full.to))
          out.set(id, f);
      return addEdges(storeIds, split, out);
    },

    /**
     * The same totals for the stores among these that are linked to Google (a multi-store
     * report), keyed by exactly those stores. When the range has whole months, the query that
     * reads them keeps the linked stores too: one query where there were two.
     */
    async linkedTotals(
      storeIds: readonly number[],
      start: string,
      end: string,
      today?: string,
    ): Promise<Map<number, Figures>> {
      if (storeIds.length === 0) return new Map();
      if (end < start) return zeros([...(await this.linked(storeIds))]);
      const split = splitRange(start, end, today);
      const out = split.full
        ? await wholeMonths(storeIds, split.full.from, split.full.to, true)
        : zeros([...(await this.linked(storeIds))]);
      return addEdges([...out.keys()], split, out);
    },

    /** One store's figures per month (`YYYY-MM`) over start..end, partial edge months cut. */
    async monthly(
      storeId: number,
      start: string,
      end: string,
      today?: string,
    ): Promise<Map<string, Figures>> {
      const out = new Map<string, Figures>();
      if (end < start) return out;
      const split = splitRange(start, end, today);
      const rows = (await db
        .selectFrom('metric_months')
        .select(['month', 'search_keywords', ...METRIC_FIELDS])
        .where('store_id', '=', storeId)
        .where('month', '>=', split.months.from)
        .where('month', '<=', split.months.to)
        .execute()) as unknown as Record<string, unknown>[];
      const full = split.full;
      for (const r of rows) {
        const m = String(r.month);
        const whole = full !== null && m >= full.from && m <= full.to;
        out.set(
          m,
          whole ? rowFigures(r) : { ...zeroFigures(), search_keywords: num(r.search_keywords) },
        );
      }
      for (const e of await edgeSums([storeId], split.edges, true)) {
        const m = e.month as string;
        const cur = out.get(m) ?? zeroFigures();
        out.set(m, addFigures(cur, { ...e.figures, search_keywords: 0 }));
      }
      return out;
    },

    /** One store's daily rows over start..end (a dashboard period: at most about 92 days). */
    async daily(storeId: number, start: string, end: string): Promise<DayRow[]> {
      const rows = await db
        .selectFrom('metric_days')
        .select(['day', ...METRIC_FIELDS])
        .where('store_id', '=', storeId)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .orderBy('day')
        .execute();
      return rows.map((r) => {
        const d = { day: r.day } as DayRow;
        for (const f of METRIC_FIELDS) d[f] = num(r[f]);
        return d;
      });
    },

    /** Sum of `metric_months.search_keywords` over whole months from..to. */
    async keywordTotal(storeId: number, from: string, to: string): Promise<number> {
      const r = await db
        .selectFrom('metric_months')
        .select(sql<string | number>`sum(search_keywords)`.as('n'))
        .where('store_id', '=', storeId)
        .where('month', '>=', from)
        .where('month', '<=', to)
        .executeTakeFirst();
      return num(r?.n);
    },

    async keywords(storeId: number, from: string, to: string): Promise<KeywordRow[]> {
      return db
        .selectFrom('metric_keywords')
        .select(['month', 'keyword', 'value', 'threshold'])
        .where('store_id', '=', storeId)
        .where('month', '>=', from)
        .where('month', '<=', to)
        .execute();
    },

    /** The stores among these with a Google location chosen (linked to Google). */
    async linked(storeIds: readonly number[]): Promise<Set<number>> {
      if (storeIds.length === 0) return new Set();
      if (dialect === 'postgres') {
        // The list joined as a table, as in wholeMonths (an `= any` of 1,000 values plans slowly).
        const { rows } = await sql<{ user_id: number }>`select p.user_id
            from unnest(${[...storeIds]}::int[]) as s(id)
            join publisher_connections p on p.user_id = s.id
            where p.publisher_key = ${GOOGLE_KEY} and p.entity_id is not null`.execute(db);
        return new Set(rows.map((r) => Number(r.user_id)));
      }
      const rows = await db
        .selectFrom('publisher_connections')
        .select('user_id')
        .where('publisher_key', '=', GOOGLE_KEY)
        .where('entity_id', 'is not', null)
        .where(storeIn(storeIds, 'user_id'))
        .execute();
      return new Set(rows.map((r) => r.user_id));
    },
  };
}
