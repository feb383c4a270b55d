import {
  ACTION_FIELDS,
  addDays,
  addMonths,
  dashboardPeriod,
  daysIn,
  firstDayOf,
  IMPRESSION_FIELDS,
  isDay,
  ja,
  keywordMonths,
  lastDayOf,
  monthOfDay,
  monthsIn,
  noReviewMetrics,
  percentChange,
  REACTION_FIELDS,
  REPORT_COLUMNS,
  reportWindowStart,
  reviewMetricsOf,
  tokyoDay,
  tokyoInstant,
  type AdjustmentReport,
  type BoxData,
  type CustomerCall,
  type CustomerSearch,
  type CustomerView,
  type DailySeries,
  type DashboardRange,
  type FixedReport,
  type ImpressionsGraph,
  type KeywordValue,
  type MetricField,
  type MonthFigures,
  type MultiStoreReport,
  type MultiStoreReviews,
  type ReactionsGraph,
  type ReviewFigures,
  type ReviewMetrics,
  type SearchKeywords,
  type StorePeriodReviews,
  type YearSeries,
} from '@tenpo/domain';
import type { Clock } from '../../lib/clock';
import { csvLine } from '../../lib/csv';
import { validationError } from '../../lib/errors';
import {
  addFigures,
  zeroFigures,
  type DayRow,
  type Figures,
  type ReportsRepo,
} from './reports.repo';

/** `YYYY-MM-DD` → `YYYY/MM/DD` (spec 3 §9's date format), `YYYY-MM` → `YYYY/MM`. */
const slashed = (s: string): string => s.replace(/-/g, '/');

const sumOf = (f: Record<MetricField, number>, fields: readonly MetricField[]): number =>
  fields.reduce((n, k) => n + f[k], 0);

/** Every day of the period, 0 where there is no row. */
const seriesOf = (
  rows: DayRow[],
  start: string,
  end: string,
  value: (r: DayRow) => number,
): DailySeries => {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: DailySeries = {};
  for (const d of daysIn(start, end)) {
    const r = byDay.get(d);
    out[slashed(d)] = r ? value(r) : 0;
  }
  return out;
};

export type ReportRange = { start_date: string; end_date: string };

/**
 * Combines a keyword's months (ADR 0036): all exact → `value_<sum>`; any month only a threshold
 * → `threshold_<sum of the values and thresholds>`, an upper bound ("fewer than N").
 */
export const combineKeyword = (
  months: { value: number | null; threshold: number | null }[],
): { kind: 'value' | 'threshold'; n: number } => {
  let n = 0;
  let exact = true;
  for (const m of months) {
    if (m.value !== null) n += m.value;
    else {
      exact = false;
      n += m.threshold ?? 0;
    }
  }
  return { kind: exact ? 'value' : 'threshold', n };
};

export type ReportsService = ReturnType<typeof createReportsService>;

const monthFigures = (f: Figures): MonthFigures => {
  const out = {} as MonthFigures;
  for (const k of REPORT_COLUMNS) out[k] = f[k];
  return out;
};

type Today = () => string;

/** The instant a Tokyo day starts, as the ISO text the reviews copy holds. */
const dayStartIso = (day: string): string => new Date(tokyoInstant(day)).toISOString();

/**
 * A store's review metrics over the Tokyo days start..end, a day or a month a point (issue 25
 * item 7): from the reviews copy, once the store is connected to Google and read once.
 */
async function reviewMetrics(
  repo: ReportsRepo,
  storeId: number,
  period: { start: string; end: string; unit: 'day' | 'month' },
): Promise<ReviewMetrics> {
  const state = await repo.reviews.state(storeId);
  if (state.status !== 'ready') return noReviewMetrics(state.status, state.synced_at);
  const from = dayStartIso(period.start);
  const [before, rows] = await Promise.all([
    repo.reviews.before(storeId, from),
    repo.reviews.written(storeId, from, dayStartIso(addDays(period.end, 1))),
  ]);
  return {
    status: 'ready',
    synced_at: state.synced_at,
    ...reviewMetricsOf({ before, rows, ...period }),
  };
}

/** The dashboard's figures over a period ending yesterday (Tokyo), for one store. */
function createDashboardReads(repo: ReportsRepo, today: Today) {
  return {
    async boxData(storeId: number, range: DashboardRange): Promise<BoxData> {
      const p = dashboardPeriod(range, today());
      const [cur, prev, reviews] = await Promise.all([
        repo.totals([storeId], p.start, p.end),
        repo.totals([storeId], p.previous.start, p.previous.end),
        reviewMetrics(repo, storeId, { start: p.start, end: p.end, unit: 'day' }),
      ]);
      const c = cur.get(storeId) ?? zeroFigures();
      const q = prev.get(storeId) ?? zeroFigures();
      // Keywords are monthly only: the last one or three complete months ('7' as '1').
      const kMonths = keywordMonths(range === '3' ? '3' : '1', today());
      const kFrom = kMonths[0] as string;
      const kTo = kMonths[kMonths.length - 1] as string;
      const back = kMonths.length;
      const [kCur, kPrev] = await Promise.all([
        repo.keywordTotal(storeId, kFrom, kTo),
        repo.keywordTotal(storeId, addMonths(kFrom, -back), addMonths(kTo, -back)),
      ]);
      const pair = (fields: readonly MetricField[]) => {
        const a = sumOf(c, fields);
        return [a, percentChange(a, sumOf(q, fields))] as const;
      };
      const [view, pView] = pair(IMPRESSION_FIELDS);
      const [action, pAction] = pair(ACTION_FIELDS);
      const [web, pWeb] = pair(['website_clicks']);
      const [dir, pDir] = pair(['business_direction_requests']);
      const [phone, pPhone] = pair(['call_clicks']);
      return {
        view_total: view,
        percent_view_total: pView,
        search_keywords_total: kCur,
        percent_search_keywords_total: percentChange(kCur, kPrev),
        action_total: action,
        percent_action_total: pAction,
        action_website: web,
        percent_action_website: pWeb,
        action_driving_direction: dir,
        percent_action_driving_direction: pDir,
        action_phone: phone,
        percent_action_phone: pPhone,
        reviews,
      };
    },

    async customerSearch(storeId: number, range: DashboardRange): Promise<CustomerSearch> {
      const p = dashboardPeriod(range, today());
      const f = (await repo.totals([storeId], p.start, p.end)).get(storeId) ?? zeroFigures();
      const out = { total: sumOf(f, IMPRESSION_FIELDS) } as CustomerSearch;
      for (const k of IMPRESSION_FIELDS) out[k] = f[k];
      return out;
    },

    async customerCall(storeId: number, range: DashboardRange): Promise<CustomerCall> {
      const p = dashboardPeriod(range, today());
      const rows = await repo.daily(storeId, p.start, p.end);
      const call_clicks = seriesOf(rows, p.start, p.end, (r) => r.call_clicks);
      return { call_clicks, total: Object.values(call_clicks).reduce((a, b) => a + b, 0) };
    },

    async customerView(storeId: number, range: DashboardRange): Promise<CustomerView> {
      const p = dashboardPeriod(range, today());
      const rows = await repo.daily(storeId, p.start, p.end);
      const views = seriesOf(rows, p.start, p.end, (r) => sumOf(r, IMPRESSION_FIELDS));
      return { views, total: Object.values(views).reduce((a, b) => a + b, 0) };
    },

    async impressionsGraph(storeId: number, range: DashboardRange): Promise<ImpressionsGraph> {
      const p = dashboardPeriod(range, today());
      const rows = await repo.daily(storeId, p.start, p.end);
      const out = {} as ImpressionsGraph;
      for (const k of IMPRESSION_FIELDS) out[k] = seriesOf(rows, p.start, p.end, (r) => r[k]);
      return out;
    },

    async reactionsGraph(storeId: number, range: DashboardRange): Promise<ReactionsGraph> {
      const p = dashboardPeriod(range, today());
      const rows = await repo.daily(storeId, p.start, p.end);
      const out = {} as ReactionsGraph;
      for (const k of REACTION_FIELDS) out[k] = seriesOf(rows, p.start, p.end, (r) => r[k]);
      return out;
    },

    /** Top 10 keywords by their combined figure over the keyword months, largest first. */
    async searchKeywords(storeId: number, range: '1' | '3'): Promise<SearchKeywords> {
      const months = keywordMonths(range, today());
      const from = months[0] as string;
      const to = months[months.length - 1] as string;
      const rows = await repo.keywords(storeId, from, to);
      const byKeyword = new Map<string, { value: number | null; threshold: number | null }[]>();
      for (const r of rows) {
        const list = byKeyword.get(r.keyword) ?? [];
        list.push({ value: r.value, threshold: r.threshold });
        byKeyword.set(r.keyword, list);
      }
      const ranked = [...byKeyword.entries()]
        .map(([keyword, ms]) => ({ keyword, ...combineKeyword(ms) }))
        // largest first; an exact count before a bound of the same size; then by keyword
        .sort(
          (a, b) =>
            b.n - a.n ||
            (a.kind === b.kind ? 0 : a.kind === 'value' ? -1 : 1) ||
            (a.keyword < b.keyword ? -1 : a.keyword > b.keyword ? 1 : 0),
        )
        .slice(0, 10);
      const search_keywords: Record<string, KeywordValue> = {};
      for (const k of ranked) search_keywords[k.keyword] = `${k.kind}_${k.n}`;
      return {
        search_keywords_total: await repo.keywordTotal(storeId, from, to),
        search_keywords,
      };
    },
  };
}

/** The reports over chosen dates: their range checked, one store's months, several stores. */
function createPeriodReports(repo: ReportsRepo, today: Today) {
  /**
   * The report's dates: both given (the spec's "specify the periods" otherwise), real days,
   * start ≤ end, and inside the 25-month window (reportWindowStart(today)..today). 422 else.
   */
  const checkRange = (
    start: string | null | undefined,
    end: string | null | undefined,
  ): ReportRange => {
    if (!start || !end) {
      const errors: Record<string, string[]> = {};
      if (!start) errors.start_date = [ja.reportPeriodsMissing];
      if (!end) errors.end_date = [ja.reportPeriodsMissing];
      throw validationError(errors);
    }
    const bad: Record<string, string[]> = {};
    if (!isDay(start)) bad.start_date = [ja.reportDateFormat];
    if (!isDay(end)) bad.end_date = [ja.reportDateFormat];
    if (Object.keys(bad).length) throw validationError(bad);
    if (end < start) throw validationError({ end_date: [ja.reportEndBeforeStart] });
    const t = today();
    const from = reportWindowStart(t);
    const out = ja.reportOutOfWindow(slashed(from), slashed(t));
    if (start < from) throw validationError({ start_date: [out] });
    if (end > t) throw validationError({ end_date: [out] });
    return { start_date: start, end_date: end };
  };

  return {
    checkRange,

    /**
     * This year, January to this month (this month up to yesterday), against the same months
     * of last year in full (ADR 0036). Labels `MM`.
     */
    async fixed(storeId: number): Promise<FixedReport> {
      const t = today();
      const yesterday = addDays(t, -1);
      const thisMonth = monthOfDay(t);
      const year = thisMonth.slice(0, 4);
      const months = monthsIn(`${year}-01`, thisMonth);
      const lastYear = months.map((m) => addMonths(m, -12));
      const curStart = firstDayOf(`${year}-01`);
      const [cur, prev] = await Promise.all([
        yesterday >= curStart
          ? repo.monthly(storeId, curStart, yesterday)
          : Promise.resolve(new Map<string, Figures>()),
        repo.monthly(
          storeId,
          firstDayOf(lastYear[0] as string),
          lastDayOf(lastYear[lastYear.length - 1] as string),
        ),
      ]);
      const year2 = (map: Map<string, Figures>, ms: string[], fields: readonly MetricField[]) => {
        const out: YearSeries = {};
        for (const m of ms) out[m.slice(5, 7)] = sumOf(map.get(m) ?? zeroFigures(), fields);
        return out;
      };
      const graph = (fields: readonly MetricField[]) => ({
        current_year: year2(cur, months, fields),
        latest_year: year2(prev, lastYear, fields),
      });
      return {
        search_graph: graph([
          'business_impressions_desktop_search',
          'business_impressions_mobile_search',
        ]),
        impressions_graph: graph([
          'business_impressions_desktop_maps',
          'business_impressions_mobile_maps',
        ]),
        reactions_graph: graph(REACTION_FIELDS),
      };
    },

    /** Per month (`YYYY/MM`, edge months cut at the range's days) and the range's totals. */
    async adjustment(storeId: number, range: ReportRange): Promise<AdjustmentReport> {
      const [map, reviews] = await Promise.all([
        repo.monthly(storeId, range.start_date, range.end_date, today()),
        reviewMetrics(repo, storeId, {
          start: range.start_date,
          end: range.end_date,
          unit: 'month',
        }),
      ]);
      const months: Record<string, MonthFigures> = {};
      let total = zeroFigures();
      for (const m of monthsIn(monthOfDay(range.start_date), monthOfDay(range.end_date))) {
        const f = map.get(m) ?? zeroFigures();
        months[slashed(m)] = monthFigures(f);
        total = addFigures(total, f);
      }
      return { ...range, months, total: monthFigures(total), reviews };
    },

    /**
     * Totals per linked store keyed by store name (a name two stores share becomes
     * `name (#id)`); stores with no Google location are listed in `not_linked` only.
     */
    async multiple(
      stores: { id: number; name: string }[],
      range: ReportRange,
    ): Promise<MultiStoreReport> {
      const ids = stores.map((s) => s.id);
      // Keyed by the linked stores only: one query finds them and reads their whole months.
      const totals = await repo.linkedTotals(ids, range.start_date, range.end_date, today());
      const linked = { has: (id: number) => totals.has(id) };
      const out: Record<string, MonthFigures> = {};
      for (const [key, s] of keyedStores(stores.filter((s) => linked.has(s.id))))
        out[key] = monthFigures(totals.get(s.id) ?? zeroFigures());
      return {
        ...range,
        stores: out,
        not_linked: stores
          .filter((s) => !linked.has(s.id))
          .map((s) => ({ id: s.id, name: s.name })),
      };
    },

    /**
     * Beyond the spec (issue 25 item 7): each linked store's reviews over the range, keyed as
     * `multiple` keys them, in one statement whatever the number of stores. A call of its own:
     * the spec's report is not made to wait for them (issue 26 P3).
     */
    async multipleReviews(
      stores: { id: number; name: string }[],
      range: ReportRange,
    ): Promise<MultiStoreReviews> {
      const of = await repo.reviewPeriods(
        stores.map((s) => s.id),
        dayStartIso(range.start_date),
        dayStartIso(addDays(range.end_date, 1)),
      );
      // A store with a Google location is the report's linked store (its `stores` key).
      const linked = stores.filter(
        (s) => (of.get(s.id)?.status ?? 'not_connected') !== 'not_connected',
      );
      const reviews: Record<string, StorePeriodReviews> = {};
      for (const [key, s] of keyedStores(linked))
        reviews[key] = of.get(s.id) ?? { status: 'not_connected', synced_at: null, period: null };
      return { ...range, reviews };
    },
  };
}

export function createReportsService(deps: { repo: ReportsRepo; clock: Clock }) {
  const { repo, clock } = deps;
  const today = () => tokyoDay(clock.now().getTime());
  return { ...createDashboardReads(repo, today), ...createPeriodReports(repo, today) };
}

// ---- CSV -------------------------------------------------------------------------------------

const CRLF = '\r\n';
const BOM = '\uFEFF';

/** The stores by the multi-store report's keys: the name, with `(#id)` when two share it. */
export function keyedStores<S extends { id: number; name: string }>(stores: S[]): [string, S][] {
  const count = new Map<string, number>();
  for (const s of stores) count.set(s.name, (count.get(s.name) ?? 0) + 1);
  return stores.map((s) => [(count.get(s.name) ?? 0) > 1 ? `${s.name} (#${s.id})` : s.name, s]);
}

/** The report CSVs' review columns, after the spec's (issue 25 item 7). */
const REVIEW_CSV_COLUMNS = [
  'review_count',
  'average_rating',
  'period_average_rating',
  'reply_rate',
  'median_reply_hours',
] as const satisfies readonly (keyof ReviewFigures)[];

/** A row's review cells; empty when the store has no figures (not connected, not read yet). */
const reviewCells = (f: ReviewFigures | null | undefined): (string | number)[] =>
  REVIEW_CSV_COLUMNS.map((c) => (f ? (f[c] ?? '') : ''));

/** The review figures of a CSV's rows (by their label) and of its total row. */
export type CsvReviews = {
  of: (label: string) => ReviewFigures | null | undefined;
  total: ReviewFigures | null | undefined;
};

/** The single-store CSV's: each month's, and the period's on the total row. */
export const monthCsvReviews = (m: ReviewMetrics): CsvReviews => ({
  of: (label) => m.series[label],
  total: m.period,
});

/**
 * The multi-store CSV's: each store's over the range. The total row's stay empty: a median of
 * medians is not the stores' median, and stores without figures would be left out unsaid.
 */
export const storeCsvReviews = (r: Record<string, StorePeriodReviews>): CsvReviews => ({
  of: (label) => r[label]?.period,
  total: null,
});

/**
 * A CSV Excel opens in Japanese: UTF-8 with a BOM, CRLF line ends, a Japanese header row (the
 * first column's name, then the metric names), one row per month or store, and a total row.
 * With `reviews`, the review figures of each row (and of the single-store report's period)
 * follow as trailing columns: the spec's columns keep their places.
 */
export function reportCsv(
  first: string,
  rows: [string, MonthFigures][],
  reviews?: CsvReviews,
): string {
  const extra = (f: ReviewFigures | null | undefined) => (reviews ? reviewCells(f) : []);
  const header = [
    first,
    ...REPORT_COLUMNS.map((c) => ja.reportMetricLabels[c]),
    ...(reviews ? REVIEW_CSV_COLUMNS.map((c) => ja.reportReviewLabels[c]) : []),
  ];
  const total = zeroFigures();
  const lines = [csvLine(header)];
  for (const [label, f] of rows) {
    lines.push(csvLine([label, ...REPORT_COLUMNS.map((c) => f[c]), ...extra(reviews?.of(label))]));
    for (const c of REPORT_COLUMNS) total[c] += f[c];
  }
  lines.push(
    csvLine([ja.reportCsvTotal, ...REPORT_COLUMNS.map((c) => total[c]), ...extra(reviews?.total)]),
  );
  return BOM + lines.join(CRLF) + CRLF;
}
