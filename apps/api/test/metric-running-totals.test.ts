// The running totals of metric_months (migration 0010, ADR 0038): kept by the metrics sync's
// writes whatever their order and however a past day is revised, and read by the reports over
// whole months for stores whose rows start late, stop early or have a gap. SQLite here, and
// PostgreSQL with TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstDayOf, lastDayOf, METRIC_FIELDS, monthOfDay, monthsIn } from '@tenpo/domain';
import { metricRunningTotals } from '../src/db/migrations/0010-metric-running-totals';
import { createMetricsRepo, RUNNING_FIELDS } from '../src/modules/metrics/metrics.repo';
import { createReportsRepo, type Figures } from '../src/modules/reports/reports.repo';
import { buildTestApp, type TestApp } from './helpers';
import { fullDay, generatedDays, type SeedDay } from './report-metrics';

let t: TestApp;
const stores: number[] = [];
const AT = '2026-01-01T00:00:00.000Z';
/** What each store was sent, day by day (the last write of a day wins), and its keywords. */
const held = new Map<number, Map<string, ReturnType<typeof fullDay>>>();
const keywordsOf = new Map<number, Map<string, number>>();

const db = () => t.database.db;
const metrics = () => createMetricsRepo(db());

/** One request as the sync writes it: its days upserted, then its months rewritten. */
async function write(store: number, days: SeedDay[]): Promise<void> {
  const rows = days.map((d) => ({ store_id: store, fetched_at: AT, ...fullDay(d) }));
  const mine = held.get(store) ?? new Map();
  for (const r of rows) mine.set(r.day, fullDay(r));
  held.set(store, mine);
  const months = [...new Set(rows.map((r) => monthOfDay(r.day)))];
  await metrics().transaction(async (r) => {
    await r.upsertDays(rows);
    await r.rollupMonths(store, months, AT);
  });
}

async function writeKeyword(store: number, month: string, keyword: string, value: number) {
  const mine = keywordsOf.get(store) ?? new Map();
  mine.set(`${month} ${keyword}`, value);
  keywordsOf.set(store, mine);
  await metrics().transaction(async (r) => {
    await r.upsertKeywords([
      { store_id: store, month, keyword, value, threshold: null, fetched_at: AT },
    ]);
    await r.rollupMonths(store, [month], AT);
  });
}

/** Every month row's `cum_<field>` equals the sum of `<field>` over its rows up to it. */
async function expectRunningTotals(store: number): Promise<void> {
  const rows = (await db()
    .selectFrom('metric_months')
    .selectAll()
    .where('store_id', '=', store)
    .orderBy('month')
    .execute()) as unknown as Record<string, unknown>[];
  const run = Object.fromEntries(RUNNING_FIELDS.map((f) => [f, 0])) as Record<string, number>;
  const got: Record<string, number>[] = [];
  const want: Record<string, number>[] = [];
  for (const r of rows) {
    for (const f of RUNNING_FIELDS) run[f] = (run[f] ?? 0) + Number(r[f]);
    want.push({ ...run });
    got.push(Object.fromEntries(RUNNING_FIELDS.map((f) => [f, Number(r[`cum_${f}`])])));
  }
  expect(got).toEqual(want);
}

/** A store's figures over start..end summed by hand from what it was sent. */
function expected(store: number, start: string, end: string): Figures {
  const out = Object.fromEntries(
    [...METRIC_FIELDS, 'search_keywords'].map((f) => [f, 0]),
  ) as Figures;
  for (const d of held.get(store)?.values() ?? [])
    if (d.day >= start && d.day <= end) for (const f of METRIC_FIELDS) out[f] += d[f];
  const months = monthsIn(monthOfDay(start), monthOfDay(end));
  for (const [k, v] of keywordsOf.get(store) ?? [])
    if (months.includes(k.slice(0, 7))) out.search_keywords += v;
  return out;
}

beforeAll(async () => {
  t = await buildTestApp();
  const users = await db()
    .selectFrom('users')
    .select('id')
    .where('email', 'in', [
      'leader@tenpo.example',
      'store02@tenpo.example',
      'store03@tenpo.example',
      'store04@tenpo.example',
    ])
    .orderBy('id')
    .execute();
  stores.push(...users.map((u) => u.id));
});

afterAll(async () => {
  await t.close();
});

describe('metric_months running totals', () => {
  it('stay right when months are written out of order and a past day is revised', async () => {
    const s = stores[0] as number;
    const days = generatedDays(s, '2025-01-01', '2025-06-30');
    // Later months first, then the earlier ones (a resumed backfill, a late request).
    await write(
      s,
      days.filter((d) => d.day >= '2025-04-01'),
    );
    await expectRunningTotals(s);
    await write(
      s,
      days.filter((d) => d.day < '2025-04-01' && d.day >= '2025-02-10'),
    );
    await expectRunningTotals(s);
    await write(
      s,
      days.filter((d) => d.day < '2025-02-10'),
    );
    await expectRunningTotals(s);

    // Google revises a day in February: March to June move by the difference.
    const before = await db()
      .selectFrom('metric_months')
      .select(['month', 'cum_call_clicks'])
      .where('store_id', '=', s)
      .orderBy('month')
      .execute();
    const old = held.get(s)?.get('2025-02-14')?.call_clicks ?? 0;
    await write(s, [{ day: '2025-02-14', call_clicks: old + 1000, website_clicks: 7 }]);
    await expectRunningTotals(s);
    const after = await db()
      .selectFrom('metric_months')
      .select(['month', 'cum_call_clicks'])
      .where('store_id', '=', s)
      .orderBy('month')
      .execute();
    expect(
      after.map(
        (r) =>
          Number(r.cum_call_clicks) -
          Number(before.find((b) => b.month === r.month)?.cum_call_clicks),
      ),
    ).toEqual([0, 1000, 1000, 1000, 1000, 1000]);

    // A keyword month in the middle: the later totals of search_keywords move too.
    await writeKeyword(s, '2025-03', 'ラーメン', 120);
    await writeKeyword(s, '2025-01', 'ラーメン', 30);
    await expectRunningTotals(s);

    // And the report over whole months and with partial edges agrees with the days.
    const reports = createReportsRepo(t.database);
    for (const [a, b] of [
      ['2025-01-01', '2025-06-30'],
      ['2025-02-01', '2025-04-30'],
      ['2025-03-01', '2025-03-31'],
      ['2025-02-14', '2025-05-03'],
    ] as const)
      expect((await reports.totals([s], a, b)).get(s)).toEqual(expected(s, a, b));
  });

  it('multi-store totals over whole months equal the days, for rows that start late, stop early or have a gap', async () => {
    const [full, late, gap, none] = stores as [number, number, number, number];
    // `full` holds 2025-01..06 (the test above); `late` only 2025-03..04; `gap` has no March
    // and April; `none` has no row at all.
    await write(late, generatedDays(late, '2025-03-01', '2025-04-30'));
    await write(gap, generatedDays(gap, '2025-05-01', '2025-06-30'));
    await write(gap, generatedDays(gap, '2025-01-01', '2025-02-28'));
    await writeKeyword(gap, '2025-06', 'うどん', 9);
    for (const s of [late, gap]) await expectRunningTotals(s);

    const reports = createReportsRepo(t.database);
    const ids = [full, late, gap, none];
    const months = monthsIn('2024-12', '2025-07');
    for (const a of months)
      for (const b of months.filter((m) => m >= a)) {
        const got = await reports.totals(ids, firstDayOf(a), lastDayOf(b));
        for (const s of ids)
          expect({ store: s, a, b, f: got.get(s) }).toEqual({
            store: s,
            a,
            b,
            f: expected(s, firstDayOf(a), lastDayOf(b)),
          });
      }
    // Partial edge months too.
    const got = await reports.totals(ids, '2025-02-20', '2025-05-10');
    for (const s of ids) expect(got.get(s)).toEqual(expected(s, '2025-02-20', '2025-05-10'));
  });

  it('migration 0010 fills the running totals of the rows already held', async () => {
    // Down (the columns and the index go) and up again over the rows the tests above wrote.
    const migration = metricRunningTotals(t.database.dialect);
    await migration.down(db() as never);
    await migration.up(db() as never);
    for (const s of stores) await expectRunningTotals(s);
    const rows = await db()
      .selectFrom('metric_months')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('cum_call_clicks', '>', 0)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBeGreaterThan(0);
  });
});
