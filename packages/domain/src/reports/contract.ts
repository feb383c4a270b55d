/**
 * Dashboard and report contract (spec 3 §3, §7, §9; issue 10), shared by the API and the web app.
 *
 * Days are Tokyo calendar days written `YYYY-MM-DD` (Google's daily metrics are dated in the
 * location's own calendar, and every store is in Japan). Months are `YYYY-MM`. Every dashboard
 * and report call is a POST whose answer is the envelope's `data.data`.
 */
import {
  addDays,
  addMonths,
  dayInMonth,
  daysBetween,
  firstDayOf,
  lastDayOf,
  monthOfDay,
  monthsIn,
} from '../tokyo';
import { formatThousands } from '../numbers';
import type { ReviewMetrics, StorePeriodReviews } from './review-metrics';

export const IMPRESSION_FIELDS = [
  'business_impressions_desktop_maps',
  'business_impressions_mobile_maps',
  'business_impressions_desktop_search',
  'business_impressions_mobile_search',
] as const;

export const REACTION_FIELDS = [
  'business_bookings',
  'business_conversations',
  'business_direction_requests',
  'business_food_orders',
  'call_clicks',
  'website_clicks',
] as const;

/** The daily metrics Tenpo keeps, with their spec field names (Google's enum, lower-cased). */
export const METRIC_FIELDS = [...IMPRESSION_FIELDS, ...REACTION_FIELDS] as const;
export type MetricField = (typeof METRIC_FIELDS)[number];

/** Google's `DailyMetric` enum name of a field. */
export const googleMetricOf = (field: MetricField): string => field.toUpperCase();

/** Views = the four impressions; actions = website, directions, calls (the boxes' definition). */
export const ACTION_FIELDS = [
  'website_clicks',
  'business_direction_requests',
  'call_clicks',
] as const satisfies readonly MetricField[];

// ---- periods -------------------------------------------------------------------------------

/** Dashboard period options (spec 3 §9): 7 days, 1 month, 3 months; the keyword card 1 and 3. */
export const DASHBOARD_RANGES = ['7', '1', '3'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];
export const KEYWORD_RANGES = ['1', '3'] as const;
export const DEFAULT_DASHBOARD_RANGE: DashboardRange = '1';

/** Report slider (spec 3 §4, §9): 25 months, ids -24..0, default -6..0, 600 ms debounce. */
export const REPORT_MONTHS = 25;
export const REPORT_SLIDER_MIN = -24;
export const REPORT_SLIDER_DEFAULT: readonly [number, number] = [-6, 0];
export const REPORT_DEBOUNCE_MS = 600;

export type Period = { start: string; end: string };

/**
 * A dashboard period ending yesterday (Tokyo; Google has no figures for a day still running):
 * '7' the last 7 days, '1' the last month, '3' the last three months (from the day after the
 * same date one or three months back). `previous` is the period of equal length just before,
 * which the percent change compares with.
 */
export function dashboardPeriod(
  range: DashboardRange,
  today: string,
): Period & { previous: Period } {
  const end = addDays(today, -1);
  let start: string;
  if (range === '7') start = addDays(end, -6);
  else {
    const back = addMonths(monthOfDay(end), range === '1' ? -1 : -3);
    // the same day of month `back` (clamped to its length), plus one day
    start = addDays(dayInMonth(back, Number(end.slice(8, 10))), 1);
  }
  const len = daysBetween(start, end) + 1;
  const prevEnd = addDays(start, -1);
  return { start, end, previous: { start: addDays(prevEnd, -(len - 1)), end: prevEnd } };
}

/** The keyword months of a keyword range: the last one or three complete months. */
export const keywordMonths = (range: '1' | '3', today: string): string[] => {
  const last = addMonths(monthOfDay(today), -1);
  return monthsIn(addMonths(last, range === '1' ? 0 : -2), last);
};

/**
 * Percent change against the previous period, rounded to one decimal; null when the previous
 * period is zero (no badge: a change from nothing has no percentage).
 */
export const percentChange = (current: number, previous: number): number | null =>
  previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10;

/** The slider's month id (-24..0) as `YYYY-MM`. */
export const sliderMonth = (id: number, today: string): string => addMonths(monthOfDay(today), id);

/** The slider's label for a month id: `MM/YYYY`. */
export const sliderLabel = (id: number, today: string): string => {
  const m = sliderMonth(id, today);
  return `${m.slice(5, 7)}/${m.slice(0, 4)}`;
};

/**
 * The report range of a slider position (spec 3 §4): the first day of the start month to the
 * last day of the end month, or today when the end month is the current month.
 */
export const sliderRange = (
  startId: number,
  endId: number,
  today: string,
): { start_date: string; end_date: string } => ({
  start_date: firstDayOf(sliderMonth(startId, today)),
  end_date: endId >= 0 ? today : lastDayOf(sliderMonth(endId, today)),
});

/** The first day a report may start on: the first day of the month 24 months back. */
export const reportWindowStart = (today: string): string =>
  firstDayOf(sliderMonth(REPORT_SLIDER_MIN, today));

// ---- values ----------------------------------------------------------------------------------

/**
 * A keyword count as the spec writes it: `value_N` (an exact count) or `threshold_N` (fewer than
 * N; Google hides small counts). Google's wire form is `{ value }` or `{ threshold }`.
 */
export type KeywordValue = `value_${number}` | `threshold_${number}`;

export const parseKeywordValue = (
  v: unknown,
): { kind: 'value' | 'threshold'; n: number } | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return { kind: 'value', n: v };
  if (typeof v !== 'string') return null;
  const m = /^(value|threshold)_(\d+)$/.exec(v);
  return m ? { kind: m[1] as 'value' | 'threshold', n: Number(m[2]) } : null;
};

/**
 * How a figure is shown (spec 3 §3): `threshold_N` as `< N`, `value_N` and numbers as N with
 * thousands separators; anything else as 0 (empty) or as it came.
 */
export const formatFigure = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '0';
  const p = parseKeywordValue(v);
  if (!p) return String(v);
  return p.kind === 'threshold' ? `< ${formatThousands(p.n)}` : formatThousands(p.n);
};

// ---- response shapes (data.data of each call) -----------------------------------------------

/** POST /dashboard/box-data { user_id, range? } — the six boxes over `range` (default '1'). */
export type BoxData = {
  view_total: number;
  percent_view_total: number | null;
  search_keywords_total: number;
  percent_search_keywords_total: number | null;
  action_total: number;
  percent_action_total: number | null;
  action_website: number;
  percent_action_website: number | null;
  action_driving_direction: number;
  percent_action_driving_direction: number | null;
  action_phone: number;
  percent_action_phone: number | null;
  /** Beyond the spec (issue 25 item 7): reviews over the same period, a day a point. */
  reviews: ReviewMetrics;
};

/** Day label → count, in day order; labels are `YYYY/MM/DD` (spec 3 §9's date format). */
export type DailySeries = Record<string, number>;

/** POST /dashboard/customer-search/{range} { user_id } — the doughnut: searches by source. */
export type CustomerSearch = Record<(typeof IMPRESSION_FIELDS)[number], number> & {
  total: number;
};

/** POST /dashboard/customer-call/{range} { user_id } — calls per day. */
export type CustomerCall = { call_clicks: DailySeries; total: number };

/** POST /dashboard/customer-view/{timeRange} { user_id } — views (the four impressions) a day. */
export type CustomerView = { views: DailySeries; total: number };

/** POST /dashboard/impressions-graph/{timeRange} { user_id } */
export type ImpressionsGraph = Record<(typeof IMPRESSION_FIELDS)[number], DailySeries>;

/** POST /dashboard/reactions-graph/{timeRange} { user_id } */
export type ReactionsGraph = Record<(typeof REACTION_FIELDS)[number], DailySeries>;

/** POST /dashboard/search-keywords/{timeRange} { user_id } — top 10, largest first. */
export type SearchKeywords = {
  search_keywords_total: number;
  search_keywords: Record<string, KeywordValue>;
};

/** One month of a report: the ten daily metrics summed, and `search_keywords` (listing views). */
export type MonthFigures = Record<MetricField, number> & { search_keywords: number };

/**
 * POST /report/single-store/adjustment-period { user_id, start_date, end_date } — per month
 * (`YYYY/MM`) over the range (partial first and last months cut at the range's days), and the
 * totals of the range.
 */
export type AdjustmentReport = {
  start_date: string;
  end_date: string;
  months: Record<string, MonthFigures>;
  total: MonthFigures;
  /** Beyond the spec (issue 25 item 7): reviews over the range, a month a point. */
  reviews: ReviewMetrics;
};

/** Month label (`MM`) → count, for one year. */
export type YearSeries = Record<string, number>;

/**
 * POST /report/single-store/fixed-period { user_id, fixed_report: true } — this year
 * (`current_year`, January to this month, this month up to yesterday) against the same months
 * of last year (`latest_year`). `search_graph` is discovery search (the two search impressions),
 * `impressions_graph` the listing on maps (the two maps impressions), `reactions_graph` the
 * customer actions (the six reactions summed).
 */
export type FixedReport = {
  search_graph: { current_year: YearSeries; latest_year: YearSeries };
  impressions_graph: { current_year: YearSeries; latest_year: YearSeries };
  reactions_graph: { current_year: YearSeries; latest_year: YearSeries };
};

/**
 * POST /report/multiple-store/adjustment-period { user_id: id[] | 'a,b', start_date, end_date } —
 * totals per store, keyed by store name (spec 3 §3), and the stores with no Google location.
 */
export type MultiStoreReport = {
  start_date: string;
  end_date: string;
  stores: Record<string, MonthFigures>;
  not_linked: { id: number; name: string }[];
};

/** POST /report/multiple-store/reviews (beyond the spec, issue 25 item 7): keyed as `stores`. */
export type MultiStoreReviews = {
  start_date: string;
  end_date: string;
  reviews: Record<string, StorePeriodReviews>;
};

/** POST /report/{single|multiple}-store/csv → { status_code, data: { csv_url } }. */
export type CsvExport = { status_code: number; data: { csv_url: string } };
