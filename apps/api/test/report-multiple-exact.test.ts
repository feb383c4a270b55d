// Issue 26: the multi-store report (POST /report/multiple-store/adjustment-period) reads running
// totals of metric_months (ADR 0038) and answers through its own serializer (ADR 0097). Its figures
// must stay exactly what metric_days and metric_keywords say, also after the sync re-writes a past
// day or a month's keywords: here every figure of the answer is compared with sums taken from
// those tables directly, over whole months, partial edges and the slider's whole window. SQLite
// here, and PostgreSQL with TEST_DATABASE_URL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_FIELDS, monthOfDay, monthsIn, REPORT_COLUMNS } from '@tenpo/domain';
import { reportMonthsCovering } from '../src/db/migrations/0029-report-months-covering';
import { createMetricsRepo } from '../src/modules/metrics/metrics.repo';
import { buildTestApp, call, login, type TestApp } from './helpers';
import { fullDay, generatedDays, type SeedDay } from './report-metrics';

/** Today, Tokyo: 2026-03-16 (12:00 JST). The report window is 2024-03-01..2026-03-16. */
const NOW = Date.parse('2026-03-16T03:00:00Z');
const TODAY = '2026-03-16';
const AT = '2026-03-16T00:00:00.000Z';

/** The agency's stores and their names; store04 has no Google location (not_linked). */
const STORES = {
  'leader@tenpo.example': 'カフェ・ミナト 渋谷店',
  'store02@tenpo.example': 'カフェ・ミナト 新宿店',
  'store03@tenpo.example': 'カフェ・ミナト 池袋店',
  'store04@tenpo.example': 'カフェ・ミナト 品川店',
} as const;
const LINKED = Object.keys(STORES).slice(0, 3) as (keyof typeof STORES)[];

let t: TestApp;
let agency = '';
const ids = {} as Record<keyof typeof STORES, number>;

const db = () => t.database.db;

/** One sync request as metrics.sync writes it: its days upserted, then its months rolled up. */
async function sync(store: number, days: SeedDay[], keywords: [string, string, number][] = []) {
  const rows = days.map((d) => ({ store_id: store, fetched_at: AT, ...fullDay(d) }));
  const months = [...new Set([...rows.map((r) => monthOfDay(r.day)), ...keywords.map(([m]) => m)])];
  await createMetricsRepo(db()).transaction(async (r) => {
    await r.upsertDays(rows);
    await r.upsertKeywords(
      keywords.map(([month, keyword, value]) => ({
        store_id: store,
        month,
        keyword,
        value,
        threshold: null,
        fetched_at: AT,
      })),
    );
    await r.rollupMonths(store, months, AT);
  });
}

/**
 * Each store's figures over start..end taken from the source tables themselves: the days' sums
 * from metric_days, and `search_keywords` the exact keyword values of every month the range
 * touches (Google counts keywords by month only, ADR 0036).
 */
async function fromSource(storeIds: number[], start: string, end: string) {
  const out = new Map<number, Record<string, number>>();
  for (const id of storeIds)
    out.set(id, Object.fromEntries(REPORT_COLUMNS.map((c) => [c, 0])) as Record<string, number>);
  const days = await db()
    .selectFrom('metric_days')
    .select([
      'store_id',
      ...METRIC_FIELDS.map((f) => sql<string | number>`sum(${sql.ref(f)})`.as(f)),
    ] as never[])
    .where('store_id', 'in', storeIds)
    .where('day', '>=', start)
    .where('day', '<=', end)
    .groupBy('store_id')
    .execute();
  for (const r of days as Record<string, unknown>[]) {
    const f = out.get(Number(r.store_id)) as Record<string, number>;
    for (const k of METRIC_FIELDS) f[k] = Number(r[k]);
  }
  const keywords = await db()
    .selectFrom('metric_keywords')
    .select(['store_id', sql<string | number>`sum(value)`.as('n')])
    .where('store_id', 'in', storeIds)
    .where('month', 'in', monthsIn(monthOfDay(start), monthOfDay(end)))
    .groupBy('store_id')
    .execute();
  for (const r of keywords)
    (out.get(r.store_id) as Record<string, number>).search_keywords = Number(r.n);
  return out;
}

type Answer = {
  start_date: string;
  end_date: string;
  stores: Record<string, Record<string, number>>;
  not_linked: { id: number; name: string }[];
};

async function report(start_date: string, end_date: string): Promise<Answer> {
  const res = await call(t.app, {
    method: 'POST',
    url: '/api/report/multiple-store/adjustment-period',
    token: agency,
    payload: { user_id: Object.values(ids), start_date, end_date },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return (res.json() as { data: { data: Answer } }).data.data;
}

/** The report equals the source tables for every linked store, over each of these ranges. */
async function expectExact(ranges: [string, string][]) {
  for (const [start, end] of ranges) {
    const got = await report(start, end);
    const want = await fromSource(
      LINKED.map((e) => ids[e]),
      start,
      end,
    );
    expect(got.start_date).toBe(start);
    expect(got.end_date).toBe(end);
    expect(Object.keys(got.stores).sort()).toEqual(LINKED.map((e) => STORES[e]).sort());
    for (const e of LINKED)
      expect({ range: [start, end], store: e, figures: got.stores[STORES[e]] }).toEqual({
        range: [start, end],
        store: e,
        figures: want.get(ids[e]),
      });
    expect(got.not_linked).toEqual([
      { id: ids['store04@tenpo.example'], name: STORES['store04@tenpo.example'] },
    ]);
  }
}

const RANGES: [string, string][] = [
  ['2024-03-01', TODAY], // the slider's whole window: whole months only
  ['2024-03-01', '2026-02-28'],
  ['2024-06-01', '2024-06-30'],
  ['2024-03-15', '2026-03-03'], // partial edges at both ends
  ['2025-02-10', '2025-02-20'], // days within one month
];

beforeAll(async () => {
  t = await buildTestApp();
  t.clock.advance(NOW - t.clock.now().getTime());
  for (const email of Object.keys(STORES) as (keyof typeof STORES)[])
    ids[email] = (
      await db()
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
  // The window's days up to yesterday, synced in three requests out of order (a resumed
  // backfill), with keywords in a few months.
  for (const email of Object.keys(STORES) as (keyof typeof STORES)[]) {
    const s = ids[email];
    const days = generatedDays(s, '2024-03-01', '2026-03-15');
    await sync(
      s,
      days.filter((d) => d.day >= '2025-06-01'),
    );
    await sync(
      s,
      days.filter((d) => d.day < '2024-09-01'),
      [['2024-03', 'ラーメン', 40]],
    );
    await sync(
      s,
      days.filter((d) => d.day >= '2024-09-01' && d.day < '2025-06-01'),
      [['2025-01', 'つけ麺', 12]],
    );
  }
  agency = await login(t.app, 'agency@tenpo.example');
});

afterAll(async () => {
  await t.close();
});

describe('the multi-store report against metric_days', () => {
  it('equals the sums of metric_days and metric_keywords over each range', async () => {
    await expectExact(RANGES);
  });

  it('stays exact after the sync re-writes past days and a month of keywords', async () => {
    const s = ids['store02@tenpo.example'];
    const old = await db()
      .selectFrom('metric_days')
      .selectAll()
      .where('store_id', '=', s)
      .where('day', 'in', ['2024-03-02', '2024-11-14', '2026-03-15'])
      .orderBy('day')
      .execute();
    // Google revises a day of the window's first month (the `b` row of every range from it), a
    // day in the middle (every later running total moves) and yesterday.
    await sync(
      s,
      old.map((d) => ({
        ...fullDay(d as unknown as SeedDay),
        call_clicks: d.call_clicks + 500,
        website_clicks: 0,
        business_impressions_mobile_maps: d.business_impressions_mobile_maps + 7,
      })),
    );
    // A month's keywords re-read with another value, and one more keyword.
    await sync(
      ids['leader@tenpo.example'],
      [],
      [
        ['2025-01', 'つけ麺', 30],
        ['2025-01', '中華そば', 5],
      ],
    );
    await expectExact(RANGES);
    const after = await report('2024-03-01', TODAY);
    const before = await fromSource([s], '2024-03-01', TODAY);
    expect(after.stores[STORES['store02@tenpo.example']]?.call_clicks).toBe(
      before.get(s)?.call_clicks,
    );
  });

  it('answers the same JSON as the schema-checked serializer would, byte for byte', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/report/multiple-store/adjustment-period',
      token: agency,
      payload: { user_id: Object.values(ids), start_date: '2024-03-01', end_date: TODAY },
    });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    // Key order as the response schema gives it: status_code, then data.data's fields.
    expect(res.body).toBe(JSON.stringify(res.json()));
    expect(res.body.startsWith('{"status_code":200,"data":{"data":{"start_date":')).toBe(true);
  });

  it('migration 0029 gives SQLite an index that covers the month rows; down takes it back', async () => {
    const columns = async () =>
      t.database.dialect === 'postgres'
        ? null
        : (
            await sql<{
              name: string;
            }>`select name from pragma_index_info('metric_months_month')`.execute(db())
          ).rows.map((r) => r.name);
    const migration = reportMonthsCovering(t.database.dialect);
    await migration.down(db() as never);
    if (t.database.dialect === 'sqlite') expect(await columns()).toEqual(['month', 'store_id']);
    await migration.up(db() as never);
    const covered = await columns();
    if (covered) {
      expect(covered.slice(0, 2)).toEqual(['month', 'store_id']);
      expect(covered).toContain('cum_call_clicks');
      expect(covered).toHaveLength(2 + 2 * REPORT_COLUMNS.length);
      // The report's month rows are read from the index alone (reports.repo names it).
      const plan = await sql<{
        detail: string;
      }>`explain query plan select e.cum_call_clicks, e.call_clicks
          from metric_months e indexed by metric_months_month
          where e.month = ${'2026-03'} and e.store_id = ${ids['store02@tenpo.example']}`.execute(
        db(),
      );
      expect(plan.rows.map((r) => r.detail).join()).toMatch(/COVERING INDEX metric_months_month/);
    }
    await expectExact(RANGES);
  });
});
