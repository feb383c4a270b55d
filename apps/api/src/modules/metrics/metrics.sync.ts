import {
  addDays,
  addMonths,
  daysIn,
  firstDayOf,
  googleMetricOf,
  METRIC_FIELDS,
  monthOfDay,
  monthsIn,
  REPORT_MONTHS,
  tokyoDay,
  type MetricField,
} from '@tenpo/domain';
import {
  ChannelError,
  credentialHandle,
  type CalendarDay,
  type ChannelRegistry,
  type MetricSeries,
} from '../../channels/channel';
import { syncFailureOf } from '../../channels/sync-failure';
import type { MetricColumns, MetricDaysTable } from '../../db/types';
import { iso, type Clock } from '../../lib/clock';
import { SYNCED_STATUSES, type MetricsRepo } from './metrics.repo';

const GOOGLE = 'google_my_business' as const;

/** Google revises recent days: the daily pull takes the last this many again (ADR 0035). */
export const REVISIT_DAYS = 7;
/** One daily-metrics request covers at most this many calendar months (≤ 93 days). */
export const MONTHS_PER_REQUEST = 3;
/**
 * A month's keywords are pulled again every day until this many days of the next month have
 * passed; the pull made on the day after is the last (the month is then final).
 */
export const KEYWORD_SETTLE_DAYS = 5;

export type DayRange = { start: string; end: string };

/** The 25 months Tenpo holds (spec 3 §9): the current month and the 24 before, to yesterday. */
export const windowOf = (today: string): DayRange => ({
  start: firstDayOf(addMonths(monthOfDay(today), -(REPORT_MONTHS - 1))),
  end: addDays(today, -1),
});

const monthIndex = (day: string): number => {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return y * 12 + m - 1;
};

/**
 * The requests that bring the store up to date: every day of the window it does not hold, and
 * the last REVISIT_DAYS days again, as runs of consecutive days cut into requests of at most
 * MONTHS_PER_REQUEST calendar months (so each request's months are rolled up in its own
 * transaction and a crash loses at most one request's work).
 */
export function dayRequests(today: string, held: ReadonlySet<string>): DayRange[] {
  const w = windowOf(today);
  if (w.end < w.start) return [];
  const revisitFrom = addDays(w.end, -(REVISIT_DAYS - 1));
  const out: DayRange[] = [];
  let cur: DayRange | null = null;
  for (const d of daysIn(w.start, w.end)) {
    if (held.has(d) && d < revisitFrom) {
      cur = null;
      continue;
    }
    if (
      cur &&
      addDays(cur.end, 1) === d &&
      monthIndex(d) - monthIndex(cur.start) < MONTHS_PER_REQUEST
    ) {
      cur.end = d;
    } else {
      cur = { start: d, end: d };
      out.push(cur);
    }
  }
  return out;
}

/** Whether a month's keywords are final on `today` (no pull after this one changes them). */
export const keywordMonthFinal = (month: string, today: string): boolean =>
  today > addDays(firstDayOf(addMonths(month, 1)), KEYWORD_SETTLE_DAYS - 1);

/**
 * The keyword months to pull: the complete months of the window (Google has none for a month
 * still running) after the last one already final.
 */
export function keywordMonths(today: string, finalMonth: string | null): string[] {
  const w = windowOf(today);
  const last = addMonths(monthOfDay(today), -1);
  return monthsIn(monthOfDay(w.start), last).filter((m) => finalMonth === null || m > finalMonth);
}

const calendarOf = (day: string): CalendarDay => {
  const [year, month, d] = day.split('-').map(Number) as [number, number, number];
  return { year, month, day: d };
};
const dayOfCalendar = (c: CalendarDay): string =>
  `${String(c.year).padStart(4, '0')}-${String(c.month).padStart(2, '0')}-${String(c.day).padStart(2, '0')}`;

const zeros = (): MetricColumns =>
  Object.fromEntries(METRIC_FIELDS.map((f) => [f, 0])) as MetricColumns;

/**
 * One request's days as rows: every day of the range, zero where Google left the value out (it
 * omits zeros) or sent no day at all, so a held day always means "pulled" (ADR 0035).
 */
export function rowsOf(
  storeId: number,
  range: DayRange,
  series: readonly MetricSeries[],
  fetchedAt: string,
): MetricDaysTable[] {
  const byDay = new Map<string, MetricColumns>(
    daysIn(range.start, range.end).map((d) => [d, zeros()]),
  );
  const fieldOf = new Map<string, MetricField>(METRIC_FIELDS.map((f) => [googleMetricOf(f), f]));
  for (const s of series) {
    const field = fieldOf.get(s.metric);
    if (!field) continue;
    for (const v of s.values) {
      const row = byDay.get(dayOfCalendar(v.date));
      if (row) row[field] = Number.isFinite(v.value) ? v.value : 0;
    }
  }
  return [...byDay].map(([day, m]) => ({ store_id: storeId, day, ...m, fetched_at: fetchedAt }));
}

export type SyncOutcome =
  | { state: 'done'; requests: number; keywordMonths: number }
  | { state: 'skipped'; reason: 'not_connected' }
  | { state: 'stopped'; reason: 'reauth' | 'invalid' }
  | { state: 'wait'; until: Date; reason: string };

export type MetricsSyncDeps = {
  repo: MetricsRepo;
  registry: ChannelRegistry;
  clock: Clock;
  log: { warn: (obj: object, msg: string) => void; info?: (obj: object, msg: string) => void };
  /** Tests: called inside a request's transaction after its days are written, before the rollup. */
  afterDaysWritten?: (storeId: number, range: DayRange) => void | Promise<void>;
};

export type MetricsSync = ReturnType<typeof createMetricsSync>;

/**
 * One store's Google metrics brought up to date (ADR 0035): the backfill and the daily pull are
 * the same run — whatever day of the 25 months is missing, the last 7 days, the keyword months
 * not final. Each request's rows and the months they touch are written in one transaction, from
 * the stored days (sums, not increments): a re-run, a crash half-way or two workers at once
 * leave every day once.
 */
export function createMetricsSync(deps: MetricsSyncDeps) {
  const { repo, registry, clock } = deps;
  const now = () => clock.now();
  const metrics = METRIC_FIELDS.map(googleMetricOf);

  async function syncStore(storeId: number, signal?: AbortSignal): Promise<SyncOutcome> {
    const conn = await repo.googleConnection(storeId);
    const started = iso(now());
    if (!conn?.entity_id || !SYNCED_STATUSES.includes(conn.status))
      return { state: 'skipped', reason: 'not_connected' };
    const location = conn.entity_id;
    let sync = await repo.syncOf(storeId);
    if (sync?.location_id && sync.location_id !== location) {
      // Another listing was chosen: the figures held were the old one's.
      await repo.transaction(async (r) => {
        await r.clearStore(storeId);
        await r.saveSync(
          storeId,
          {
            location_id: location,
            first_day: null,
            last_day: null,
            keywords_final_month: null,
            backfilled_at: null,
          },
          started,
        );
      });
      sync = await repo.syncOf(storeId);
    }
    await repo.saveSync(storeId, { location_id: location, state: 'running', error: null }, started);
    const handle = credentialHandle(storeId, GOOGLE);
    const capability = registry.require(GOOGLE, 'fetchMetrics');
    const today = tokyoDay(now().getTime());
    const w = windowOf(today);
    let requests = 0;
    let kwMonths = 0;
    try {
      for (const range of dayRequests(today, await repo.daysHeld(storeId, w.start, w.end))) {
        signal?.throwIfAborted();
        const series = await capability.fetchMetrics(
          handle,
          { start: calendarOf(range.start), end: calendarOf(range.end) },
          metrics,
        );
        const at = iso(now());
        const rows = rowsOf(storeId, range, series, at);
        const months = monthsIn(monthOfDay(range.start), monthOfDay(range.end));
        await repo.transaction(async (r) => {
          await r.upsertDays(rows);
          await deps.afterDaysWritten?.(storeId, range);
          await r.rollupMonths(storeId, months, at);
          await r.saveSync(storeId, { first_day: w.start, last_day: range.end }, at);
        });
        requests += 1;
      }
      const fetchKeywords = capability.fetchKeywords?.bind(capability);
      if (fetchKeywords)
        for (const month of keywordMonths(today, sync?.keywords_final_month ?? null)) {
          signal?.throwIfAborted();
          const [year, m] = month.split('-').map(Number) as [number, number];
          const counts = await fetchKeywords(handle, { year, month: m });
          const at = iso(now());
          // One keyword once (case and spacing as Google sends them; the last answer wins).
          const unique = new Map(counts.map((k) => [k.keyword, k]));
          await repo.transaction(async (r) => {
            await r.upsertKeywords(
              [...unique.values()].map((k) => ({
                store_id: storeId,
                month,
                keyword: k.keyword,
                value: k.value,
                threshold: k.threshold,
                fetched_at: at,
              })),
            );
            await r.rollupMonths(storeId, [month], at);
            if (keywordMonthFinal(month, today))
              await r.saveSync(storeId, { keywords_final_month: month }, at);
          });
          kwMonths += 1;
        }
    } catch (err) {
      return failed(storeId, err);
    }
    const at = iso(now());
    await repo.saveSync(
      storeId,
      {
        state: 'done',
        error: null,
        synced_at: at,
        ...(sync?.backfilled_at ? {} : { backfilled_at: at }),
      },
      at,
    );
    return { state: 'done', requests, keywordMonths: kwMonths };
  }

  /** Acts on a failure by its class; what the job engine must retry is thrown again. */
  async function failed(storeId: number, err: unknown): Promise<SyncOutcome> {
    const f = syncFailureOf(err, now());
    // The grant access already turned the Google row to error (reauth) with its log line.
    if (f.warn && err instanceof ChannelError)
      deps.log.warn(
        { store: storeId, kind: err.kind, detail: err.message },
        'metrics sync stopped for this store',
      );
    await repo.saveSync(storeId, f.record, iso(now()));
    if (!f.outcome) throw err;
    return f.outcome;
  }

  return { syncStore };
}
