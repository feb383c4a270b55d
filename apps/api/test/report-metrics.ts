import { METRIC_FIELDS, monthOfDay, type MetricField } from '@tenpo/domain';
import type { Db } from '../src/db/kysely';
import { keepRunningTotals } from '../src/modules/metrics/metrics.repo';

export type SeedDay = { day: string } & Partial<Record<MetricField, number>>;
export type SeedKeyword = {
  month: string;
  keyword: string;
  value?: number;
  threshold?: number;
};

/** A full day row: every metric, 0 where not given. */
export const fullDay = (d: SeedDay): Record<MetricField, number> & { day: string } => {
  const out = { day: d.day } as Record<MetricField, number> & { day: string };
  for (const f of METRIC_FIELDS) out[f] = d[f] ?? 0;
  return out;
};

/**
 * Writes a store's days, and its months exactly as the metrics sync does: each month the sums
 * of its day rows, `days` their count, `search_keywords` the sum of the month's exact keyword
 * values, and the running totals of every month from the first one written on. A month with
 * keywords but no days still gets a row.
 */
export async function seedMetrics(
  db: Db,
  storeId: number,
  days: SeedDay[],
  keywords: SeedKeyword[] = [],
): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const rows = days.map((d) => ({ store_id: storeId, fetched_at: at, ...fullDay(d) }));
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('metric_days')
      .values(rows.slice(i, i + 500))
      .execute();
  const months = new Map<
    string,
    Record<MetricField, number> & { days: number; search_keywords: number }
  >();
  const monthRow = (m: string) => {
    let r = months.get(m);
    if (!r) {
      r = { days: 0, search_keywords: 0 } as Record<MetricField, number> & {
        days: number;
        search_keywords: number;
      };
      for (const f of METRIC_FIELDS) r[f] = 0;
      months.set(m, r);
    }
    return r;
  };
  for (const d of rows) {
    const r = monthRow(monthOfDay(d.day));
    r.days += 1;
    for (const f of METRIC_FIELDS) r[f] += d[f];
  }
  for (const k of keywords) monthRow(k.month).search_keywords += k.value ?? 0;
  const monthRows = [...months.entries()].map(([month, r]) => ({
    store_id: storeId,
    month,
    updated_at: at,
    ...r,
  }));
  if (monthRows.length) {
    await db.insertInto('metric_months').values(monthRows).execute();
    await keepRunningTotals(db, storeId, [...months.keys()].sort()[0] as string);
  }
  if (keywords.length)
    await db
      .insertInto('metric_keywords')
      .values(
        keywords.map((k) => ({
          store_id: storeId,
          month: k.month,
          keyword: k.keyword,
          value: k.value ?? null,
          threshold: k.value === undefined ? (k.threshold ?? null) : null,
          fetched_at: at,
        })),
      )
      .execute();
}

/** Deterministic, varied day figures (a small LCG), so sums are not trivially symmetric. */
export function generatedDays(storeId: number, from: string, to: string): SeedDay[] {
  let s = storeId * 7919 + 17;
  const next = (max: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % max;
  };
  const out: SeedDay[] = [];
  for (let d = from; d <= to; ) {
    const day: SeedDay = { day: d };
    for (const f of METRIC_FIELDS) day[f] = next(f.startsWith('business_impressions') ? 400 : 30);
    out.push(day);
    const n = new Date(`${d}T00:00:00Z`);
    n.setUTCDate(n.getUTCDate() + 1);
    d = n.toISOString().slice(0, 10);
  }
  return out;
}
