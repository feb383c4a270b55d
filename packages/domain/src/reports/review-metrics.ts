import { z } from 'zod';
import { daysIn, monthOfDay, monthsIn, tokyoDay } from '../tokyo';

/**
 * Review metrics (issue 25 item 7): the average rating and the review count over time, the reply
 * rate and the time to reply, worked out from Tenpo's copy of a store's Google reviews (ADR 0090)
 * over a period of Tokyo days. They ride on the dashboard's box-data and the single-store
 * report as an added `reviews` object; the spec's fields are left as they are.
 *
 * - `average_rating`: the average of every review held up to the end of the bucket (what a
 *   customer sees on the listing then); `period_average_rating`: of those written in it only.
 * - `review_count`: reviews written in the bucket; `total_review_count`: held at its end.
 * - `reply_rate`: replied ÷ written in the bucket, in percent; a reply Google refused still
 *   counts as replied, as in the inbox's 返信済み filter.
 * - `median_reply_hours`: the median of (the reply's last update − the review's creation) over
 *   the bucket's replied reviews. Google keeps no first-reply time: a reply edited later moves
 *   its time, so this is an upper bound of the first reply's delay.
 */

export const REVIEW_METRICS_STATUSES = ['ready', 'not_connected', 'not_synced'] as const;
/**
 * `ready`: figures from the copy; `not_connected`: no Google location chosen (or disconnected);
 * `not_synced`: connected, but the reviews have not been read once yet. Only `ready` has figures.
 */
export type ReviewMetricsStatus = (typeof REVIEW_METRICS_STATUSES)[number];

export const reviewFiguresSchema = z.object({
  review_count: z.number().int(),
  total_review_count: z.number().int(),
  average_rating: z.number().nullable(),
  period_average_rating: z.number().nullable(),
  replied_count: z.number().int(),
  reply_rate: z.number().nullable(),
  median_reply_hours: z.number().nullable(),
});
export type ReviewFigures = z.infer<typeof reviewFiguresSchema>;

export const reviewMetricsSchema = z.object({
  status: z.enum(REVIEW_METRICS_STATUSES),
  /** When the copy was last read from Google (ISO), null before the first reading. */
  synced_at: z.string().nullable(),
  /** The average of the reviews held when the period began (null: none), for the trend. */
  starting_average_rating: z.number().nullable(),
  /** The whole period; null unless `ready`. */
  period: reviewFiguresSchema.nullable(),
  /** Per day (`YYYY/MM/DD`, the dashboard) or month (`YYYY/MM`, the report); {} unless `ready`. */
  series: z.record(z.string(), reviewFiguresSchema),
});
export type ReviewMetrics = z.infer<typeof reviewMetricsSchema>;

/**
 * A store's reviews over a multi-store report's range: the single-store report's status and
 * period figures, without its series (one row a store; spec 3's report keeps its shape).
 */
export const storePeriodReviewsSchema = reviewMetricsSchema.pick({
  status: true,
  synced_at: true,
  period: true,
});
export type StorePeriodReviews = z.infer<typeof storePeriodReviewsSchema>;

/** A store's reviews in the overview's row: the copy as it stands now. */
export const storeReviewSummarySchema = z.object({
  status: z.enum(REVIEW_METRICS_STATUSES),
  average_rating: z.number().nullable(),
  review_count: z.number().int(),
  unreplied_count: z.number().int(),
});
export type StoreReviewSummary = z.infer<typeof storeReviewSummarySchema>;

/** One review as the metrics read it from the copy. */
export type ReviewMetricRow = {
  star_rating: number;
  /** ISO instant (Google's createTime). */
  created_at: string;
  has_reply: boolean;
  /** ISO instant of the reply's last update, null without a reply. */
  reply_updated_at: string | null;
};

/** The reviews held before the period: how many, and their stars summed. */
export type ReviewsBefore = { count: number; stars: number };

const HOUR_MS = 3_600_000;
const round = (n: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};
const average = (stars: number, count: number) => (count === 0 ? null : round(stars / count, 2));

/** The median of some numbers (the mean of the middle two for an even count); null for none. */
export const medianOf = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/** Hours from a review to its reply (0 at least), or null when either time cannot be read. */
export const replyHours = (r: ReviewMetricRow): number | null => {
  if (!r.has_reply || !r.reply_updated_at) return null;
  const ms = Date.parse(r.reply_updated_at) - Date.parse(r.created_at);
  return Number.isFinite(ms) ? Math.max(0, ms / HOUR_MS) : null;
};

/**
 * What the figures of a period are made of: the reviews held before it, those written in it
 * (how many, their stars summed, how many replied) and the median of their hours to reply
 * (unrounded). The database can sum these for many stores at once (the multi-store report).
 */
export type ReviewPeriodSums = {
  before: ReviewsBefore;
  count: number;
  stars: number;
  replied: number;
  median_reply_hours: number | null;
};

/** The figures of a period from its sums: the one place the figures are defined. */
export function reviewFiguresOfSums(s: ReviewPeriodSums): ReviewFigures {
  const m = s.median_reply_hours;
  return {
    review_count: s.count,
    total_review_count: s.before.count + s.count,
    average_rating: average(s.before.stars + s.stars, s.before.count + s.count),
    period_average_rating: average(s.stars, s.count),
    replied_count: s.replied,
    reply_rate: s.count === 0 ? null : round((s.replied / s.count) * 100, 1),
    median_reply_hours: m === null ? null : round(m, 1),
  };
}

/** The figures of some reviews written after `before` (the reviews held until then). */
export function reviewFigures(
  before: ReviewsBefore,
  rows: readonly ReviewMetricRow[],
): ReviewFigures {
  const replied = rows.filter((r) => r.has_reply);
  const hours = replied.map(replyHours).filter((h): h is number => h !== null);
  return reviewFiguresOfSums({
    before,
    count: rows.length,
    stars: rows.reduce((n, r) => n + r.star_rating, 0),
    replied: replied.length,
    median_reply_hours: medianOf(hours),
  });
}

/**
 * A period's figures, and the same per Tokyo day or month of it (every day or month of the
 * period, labelled as the report's series are), from the reviews held before it and those
 * written in it (rows outside start..end are left out).
 */
export function reviewMetricsOf(input: {
  before: ReviewsBefore;
  rows: readonly ReviewMetricRow[];
  start: string;
  end: string;
  unit: 'day' | 'month';
}): Pick<ReviewMetrics, 'starting_average_rating' | 'series'> & { period: ReviewFigures } {
  const { before, start, end, unit } = input;
  const keyOf = (day: string) => (unit === 'day' ? day : monthOfDay(day));
  const buckets = new Map<string, ReviewMetricRow[]>(
    (unit === 'day' ? daysIn(start, end) : monthsIn(monthOfDay(start), monthOfDay(end))).map(
      (k) => [k, []],
    ),
  );
  const inPeriod: ReviewMetricRow[] = [];
  for (const r of input.rows) {
    const at = Date.parse(r.created_at);
    if (!Number.isFinite(at)) continue;
    const day = tokyoDay(at);
    if (day < start || day > end) continue;
    inPeriod.push(r);
    buckets.get(keyOf(day))?.push(r);
  }
  const series: Record<string, ReviewFigures> = {};
  let held = { ...before };
  for (const [key, rows] of buckets) {
    const f = reviewFigures(held, rows);
    series[key.replace(/-/g, '/')] = f;
    held = {
      count: held.count + rows.length,
      stars: held.stars + rows.reduce((n, r) => n + r.star_rating, 0),
    };
  }
  return {
    starting_average_rating: average(before.stars, before.count),
    period: reviewFigures(before, inPeriod),
    series,
  };
}

/** What a store without figures answers: its status and nothing else. */
export const noReviewMetrics = (
  status: Exclude<ReviewMetricsStatus, 'ready'>,
  syncedAt: string | null = null,
): ReviewMetrics => ({
  status,
  synced_at: syncedAt,
  starting_average_rating: null,
  period: null,
  series: {},
});
