import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dashboardPeriod,
  ja,
  REPORT_COLUMNS,
  tokyoDay,
  type MultiStoreReport,
  type MultiStoreReviews,
  type Page,
  type ReviewFigures,
  type ReviewMetrics,
  type ReviewView,
  type StoreRow,
} from '@tenpo/domain';
import { addOtherTenant, buildTestApp, call, json, login, type TestApp } from './helpers';
import { startPostsWorld, type PostsWorld } from './posts-harness';
import { shopGoogleToken } from './sandbox';

/**
 * Review metrics (issue 25 item 7): the `reviews` object added to /dashboard/box-data and the
 * single-store report, the CSV's trailing review columns, and the overview rows' summary.
 * First on reviews written into the copy by hand (figures worked out below), then on the
 * shop's reviews as the sync reads them from the Google emulator, checked against what the
 * emulator itself lists.
 */

type Data<T> = { data: { data: T } };

/** A review in the copy: written at `created` (ISO), ★`stars`, replied at `reply`. */
const review = (storeId: number, n: number, created: string, stars: number, reply?: string) => ({
  store_id: storeId,
  name: `accounts/1/locations/1/reviews/r${storeId}-${n}`,
  reviewer_name: '佐藤 花子',
  reviewer_photo_url: null,
  star_rating: stars,
  comment: null,
  created_at: created,
  updated_at: created,
  has_reply: reply ? 1 : 0,
  reply_comment: reply ? 'ありがとうございます。' : null,
  reply_updated_at: reply ?? null,
  first_replied_at: reply ?? null,
  reply_state: reply ? 'live' : null,
  reply_policy_violation: null,
  reply_url: null,
  first_seen_at: created,
  notified_at: created,
});
const synced = (storeId: number) => ({
  store_id: storeId,
  location_id: 'loc',
  state: 'done' as const,
  error: null,
  newest_update: null,
  average_rating: null,
  total_review_count: null,
  first_synced_at: '2026-03-01T00:00:00.000Z',
  synced_at: '2026-03-16T02:45:00.000Z',
  updated_at: '2026-03-16T02:45:00.000Z',
});

/** Another tenant's store: connected to Google, read once, one ★1 review without a reply. */
async function connectedAndRead(t: TestApp, other: number): Promise<void> {
  const db = t.database.db;
  await db
    .deleteFrom('publisher_connections')
    .where('user_id', '=', other)
    .where('publisher_key', '=', 'google_my_business')
    .execute();
  await db
    .insertInto('publisher_connections')
    .values({
      user_id: other,
      publisher_key: 'google_my_business',
      status: 1,
      entity_id: 'other-location',
      location_name: null,
      postal_code: null,
      address_lines: null,
      store_code: null,
      log: '[]',
      created_at: '2026-03-01T00:00:00.000Z',
      updated_at: '2026-03-01T00:00:00.000Z',
    })
    .execute();
  await db
    .insertInto('reviews')
    .values(review(other, 1, '2026-03-10T00:00:00Z', 1))
    .execute();
  await db.insertInto('review_syncs').values(synced(other)).execute();
}

/** store02's reviews, worked by hand in the tests below; read once (`synced`). */
async function handReviews(t: TestApp, s2: number): Promise<void> {
  const db = t.database.db;
  // store02: two reviews before the period (★5 replied after 5 h, ★3), four in it, one today.
  await db
    .insertInto('reviews')
    .values([
      review(s2, 1, '2026-03-01T01:00:00Z', 5, '2026-03-01T06:00:00Z'),
      review(s2, 2, '2026-03-05T01:00:00Z', 3),
      // 2026-03-09 00:00 JST, the period's first instant; replied after 2 h
      review(s2, 3, '2026-03-08T15:00:00Z', 4, '2026-03-08T17:00:00Z'),
      // 2026-03-10 12:00 JST; replied after 24 h
      review(s2, 4, '2026-03-10T03:00:00Z', 2, '2026-03-11T03:00:00Z'),
      review(s2, 5, '2026-03-10T05:00:00.500Z', 1),
      // 2026-03-15 23:59:59 JST, the period's last second; replied after 10 h
      review(s2, 6, '2026-03-15T14:59:59Z', 5, '2026-03-16T00:59:59Z'),
      // 2026-03-16 00:00 JST: today, after the dashboard's period (it ends yesterday)
      review(s2, 7, '2026-03-15T15:00:00Z', 1),
    ])
    .execute();
  await db.insertInto('review_syncs').values(synced(s2)).execute();
}

describe('review metrics, worked by hand', () => {
  /** Today, Tokyo: 2026-03-16 (12:00 JST). The '7' period is 2026-03-09..2026-03-15. */
  const NOW = Date.parse('2026-03-16T03:00:00Z');
  let t: TestApp;
  let agency = '';
  const ids: Record<string, number> = {};
  const id = (email: string) => ids[email] as number;
  let other = 0;

  const post = (url: string, payload: object, token = agency) =>
    call(t.app, { method: 'POST', url: `/api${url}`, token, payload });
  const reviewsOf = async (url: string, payload: object, token = agency) => {
    const res = await post(url, payload, token);
    expect(res.statusCode, res.body).toBe(200);
    return json<Data<{ reviews: ReviewMetrics }>>(res).data.data.reviews;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.advance(NOW - t.clock.now().getTime());
    const tenant = await addOtherTenant(t, { stores: ['other-store@tenpo.example'] });
    Object.assign(ids, tenant.ids);
    other = id('other-store@tenpo.example');
    await handReviews(t, id('store02@tenpo.example'));
    await connectedAndRead(t, other);
    agency = await login(t.app, 'agency@tenpo.example');
  });
  afterAll(async () => {
    await t?.close();
  });

  it("box-data: the period's figures, and a day a point", async () => {
    const r = await reviewsOf('/dashboard/box-data', {
      user_id: id('store02@tenpo.example'),
      range: '7',
    });
    expect(r.status).toBe('ready');
    expect(r.synced_at).toBe('2026-03-16T02:45:00.000Z');
    // held before: ★5, ★3 → 4.00
    expect(r.starting_average_rating).toBe(4);
    // written: ★4, ★2, ★1, ★5 (12 stars); held at the end: 6 reviews, 20 stars → 3.33;
    // replied 3 of 4 → 75 %; reply hours 2, 24, 10 → median 10
    expect(r.period).toEqual({
      review_count: 4,
      total_review_count: 6,
      average_rating: 3.33,
      period_average_rating: 3,
      replied_count: 3,
      reply_rate: 75,
      median_reply_hours: 10,
    } satisfies ReviewFigures);
    expect(Object.keys(r.series)).toEqual([
      '2026/03/09',
      '2026/03/10',
      '2026/03/11',
      '2026/03/12',
      '2026/03/13',
      '2026/03/14',
      '2026/03/15',
    ]);
    const pick = (day: string) => {
      const f = r.series[day];
      return [f?.review_count, f?.average_rating, f?.reply_rate, f?.median_reply_hours];
    };
    expect(pick('2026/03/09')).toEqual([1, 4, 100, 2]); // (8 + 4) / 3
    expect(pick('2026/03/10')).toEqual([2, 3, 50, 24]); // (12 + 3) / 5
    expect(pick('2026/03/12')).toEqual([0, 3, null, null]);
    expect(pick('2026/03/15')).toEqual([1, 3.33, 100, 10]);
  });

  it('the report: a month a point over the range, today included', async () => {
    const r = await reviewsOf('/report/single-store/adjustment-period', {
      user_id: id('store02@tenpo.example'),
      start_date: '2026-02-01',
      end_date: '2026-03-16',
    });
    expect(Object.keys(r.series)).toEqual(['2026/02', '2026/03']);
    expect(r.series['2026/02']).toMatchObject({ review_count: 0, average_rating: null });
    // all seven: 21 stars → 3.00; replied 4 of 7 → 57.1 %; hours 5, 2, 24, 10 → 7.5
    const march = {
      review_count: 7,
      total_review_count: 7,
      average_rating: 3,
      period_average_rating: 3,
      replied_count: 4,
      reply_rate: 57.1,
      median_reply_hours: 7.5,
    };
    expect(r.series['2026/03']).toEqual(march);
    expect(r.period).toEqual(march);
    expect(r.starting_average_rating).toBeNull();
  });

  it('a store connected but never read, and one without Google, have a status and no figures', async () => {
    const notSynced = await reviewsOf('/dashboard/box-data', {
      user_id: id('store03@tenpo.example'),
    });
    expect(notSynced).toEqual({
      status: 'not_synced',
      synced_at: null,
      starting_average_rating: null,
      period: null,
      series: {},
    });
    const notConnected = await reviewsOf('/report/single-store/adjustment-period', {
      user_id: id('store04@tenpo.example'),
      start_date: '2026-03-01',
      end_date: '2026-03-16',
    });
    expect(notConnected).toMatchObject({ status: 'not_connected', period: null, series: {} });
  });

  it('the CSV: the review figures follow the spec’s columns, empty without figures', async () => {
    const csvOf = async (userId: number) => {
      const res = await post('/report/single-store/csv', {
        user_id: userId,
        start_date: '2026-02-01',
        end_date: '2026-03-16',
      });
      expect(res.statusCode).toBe(200);
      const url = (res.json() as { data: { csv_url: string } }).data.csv_url;
      const got = await call(t.app, {
        method: 'GET',
        url: url.slice('http://tenpo.test'.length),
        token: agency,
      });
      expect(got.statusCode).toBe(200);
      return got.rawPayload.subarray(3).toString('utf8').split('\r\n').slice(0, -1);
    };
    const lines = await csvOf(id('store02@tenpo.example'));
    const header = lines[0]?.split(',') ?? [];
    expect(header).toHaveLength(1 + 11 + 5);
    expect(header[0]).toBe(ja.reportCsvMonth);
    expect(header[1]).toBe(ja.reportMetricLabels.business_impressions_desktop_maps);
    expect(header[11]).toBe(ja.reportMetricLabels.website_clicks);
    expect(header.slice(12)).toEqual([
      '口コミ数（新規）',
      '平均評価（累計）',
      '平均評価（期間内の口コミ）',
      '返信率（%）',
      '返信までの時間（中央値・時間）',
    ]);
    const tail = (l: string | undefined) => (l ?? '').split(',').slice(12).join(',');
    expect(lines.map((l) => l.split(',')[0])).toEqual(['年月', '2026/02', '2026/03', '合計']);
    expect(tail(lines[1])).toBe('0,,,,');
    expect(tail(lines[2])).toBe('7,3,3,57.1,7.5');
    expect(tail(lines[3])).toBe('7,3,3,57.1,7.5');
    const none = await csvOf(id('store04@tenpo.example'));
    expect(none[0]?.split(',')).toHaveLength(17);
    expect(none.slice(1).map(tail)).toEqual([',,,,', ',,,,', ',,,,']);
  });

  it("the overview's rows: each store's average and unreplied count, the agency's stores only", async () => {
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/agency/stores?per_page=50',
      token: agency,
    });
    expect(res.statusCode).toBe(200);
    const rows = json<{ data: Page<StoreRow> }>(res).data.data;
    const byId = new Map(rows.map((r) => [r.id, r.reviews]));
    // all seven reviews held now: 21 stars; 3 without a reply
    expect(byId.get(id('store02@tenpo.example'))).toEqual({
      status: 'ready',
      average_rating: 3,
      review_count: 7,
      unreplied_count: 3,
    });
    expect(byId.get(id('store03@tenpo.example'))).toMatchObject({
      status: 'not_synced',
      average_rating: null,
    });
    expect(byId.get(id('store04@tenpo.example'))).toMatchObject({ status: 'not_connected' });
    expect(byId.has(other)).toBe(false);
    // The other tenant's store is its agency's alone: 404 to this agency, figures to its own.
    const foreign = await post('/dashboard/box-data', { user_id: other });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('review_count');
    const otherAgency = await login(t.app, 'other-agency@tenpo.example');
    const own = await reviewsOf('/dashboard/box-data', { user_id: other, range: '7' }, otherAgency);
    expect(own.period).toMatchObject({ review_count: 1, average_rating: 1, reply_rate: 0 });
  });
});

describe('review metrics across stores: the multi-store report and the manager’s lists', () => {
  const NOW = Date.parse('2026-03-16T03:00:00Z');
  let t: TestApp;
  let agency = '';
  const ids: Record<string, number> = {};
  const id = (email: string) => ids[email] as number;
  let other = 0;

  const post = (url: string, payload: object, token = agency) =>
    call(t.app, { method: 'POST', url: `/api${url}`, token, payload });
  const reviewsOf = async (url: string, payload: object, token = agency) => {
    const res = await post(url, payload, token);
    expect(res.statusCode, res.body).toBe(200);
    return json<Data<{ reviews: ReviewMetrics }>>(res).data.data.reviews;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.advance(NOW - t.clock.now().getTime());
    const tenant = await addOtherTenant(t, { stores: ['other-store@tenpo.example'] });
    Object.assign(ids, tenant.ids);
    other = id('other-store@tenpo.example');
    await handReviews(t, id('store02@tenpo.example'));
    await connectedAndRead(t, other);
    agency = await login(t.app, 'agency@tenpo.example');
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The name a store has in the multi-store report (its key in `stores` and `reviews`). */
  const nameOf = async (storeId: number) => {
    const u = await t.database.db
      .selectFrom('users')
      .select(['store_name', 'company_name', 'email'])
      .where('id', '=', storeId)
      .executeTakeFirstOrThrow();
    return u.store_name ?? u.company_name ?? u.email;
  };

  it("the multi-store report: each linked store's figures over the range, as the single-store report's", async () => {
    const s2 = id('store02@tenpo.example');
    const s3 = id('store03@tenpo.example');
    const s4 = id('store04@tenpo.example');
    const range = { start_date: '2026-03-09', end_date: '2026-03-15' };
    const res = await post('/report/multiple-store/adjustment-period', {
      user_id: [s2, s3, s4],
      ...range,
    });
    expect(res.statusCode, res.body).toBe(200);
    const report = json<Data<MultiStoreReport>>(res).data.data;
    // The spec's fields as they were; the reviews a call of their own, keyed as `stores` (the
    // linked stores only).
    expect(Object.keys(report)).toEqual(['start_date', 'end_date', 'stores', 'not_linked']);
    const answer = await post('/report/multiple-store/reviews', {
      user_id: [s2, s3, s4],
      ...range,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const d = json<Data<MultiStoreReviews>>(answer).data.data;
    expect(Object.keys(d.reviews).sort()).toEqual(Object.keys(report.stores).sort());
    expect(report.not_linked.map((s) => s.id)).toEqual([s4]);
    // held before: ★5, ★3; written: ★4 (2 h), ★2 (24 h), ★1, ★5 (10 h) → median 10 h
    const ready = d.reviews[await nameOf(s2)];
    expect(ready).toEqual({
      status: 'ready',
      synced_at: '2026-03-16T02:45:00.000Z',
      period: {
        review_count: 4,
        total_review_count: 6,
        average_rating: 3.33,
        period_average_rating: 3,
        replied_count: 3,
        reply_rate: 75,
        median_reply_hours: 10,
      },
    });
    expect(d.reviews[await nameOf(s3)]).toEqual({
      status: 'not_synced',
      synced_at: null,
      period: null,
    });
    // The same figures as the single-store report of the same range, over other ranges too
    // (an even count of replies: the mean of the middle two).
    for (const r of [range, { start_date: '2026-02-01', end_date: '2026-03-16' }]) {
      const single = await reviewsOf('/report/single-store/adjustment-period', {
        user_id: s2,
        ...r,
      });
      const multi = json<Data<MultiStoreReviews>>(
        await post('/report/multiple-store/reviews', { user_id: [s2, s3], ...r }),
      ).data.data;
      expect(multi.reviews[await nameOf(s2)]?.period).toEqual(single.period);
    }
    // The other tenant's store cannot be named: 404, no figures.
    const foreign = await post('/report/multiple-store/reviews', {
      user_id: [s2, other],
      ...range,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('review_count');
  });

  it('the multi-store CSV: the review figures follow the spec’s columns, a store a row', async () => {
    const s2 = id('store02@tenpo.example');
    const s3 = id('store03@tenpo.example');
    const s4 = id('store04@tenpo.example');
    const res = await post('/report/multiple-store/csv', {
      user_id: [s2, s3, s4],
      start_date: '2026-02-01',
      end_date: '2026-03-16',
    });
    expect(res.statusCode).toBe(200);
    const url = (res.json() as { data: { csv_url: string } }).data.csv_url;
    const got = await call(t.app, {
      method: 'GET',
      url: url.slice('http://tenpo.test'.length),
      token: agency,
    });
    expect(got.statusCode).toBe(200);
    const lines = got.rawPayload.subarray(3).toString('utf8').split('\r\n').slice(0, -1);
    const header = lines[0]?.split(',') ?? [];
    expect(header).toHaveLength(1 + 11 + 5);
    expect(header[0]).toBe(ja.reportCsvStore);
    expect(header.slice(1, 12)).toEqual(REPORT_COLUMNS.map((c) => ja.reportMetricLabels[c]));
    expect(header.slice(12)).toEqual([
      '口コミ数（新規）',
      '平均評価（累計）',
      '平均評価（期間内の口コミ）',
      '返信率（%）',
      '返信までの時間（中央値・時間）',
    ]);
    const tail = (l: string | undefined) => (l ?? '').split(',').slice(12).join(',');
    const rowOf = async (storeId: number) => {
      const name = await nameOf(storeId);
      return lines.find((l) => l.split(',')[0] === name);
    };
    // store02: all seven reviews in the range (see the single-store CSV above)
    expect(tail(await rowOf(s2))).toBe('7,3,3,57.1,7.5');
    expect(tail(await rowOf(s3))).toBe(',,,,');
    // store04 has no Google location: not a row, as before
    expect(await rowOf(s4)).toBeUndefined();
    expect(lines.at(-1)?.split(',')[0]).toBe(ja.reportCsvTotal);
    expect(tail(lines.at(-1))).toBe(',,,,');
  });

  it("the manager's view of an agency's stores: each store's average and unreplied count", async () => {
    const manager = await login(t.app, 'manager@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/admin/stores?agency_id=${id('agency@tenpo.example')}&per_page=50`,
      token: manager,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = json<{ data: { data: StoreRow[] } }>(res).data.data;
    const byId = new Map(rows.map((r) => [r.id, r.reviews]));
    expect(byId.get(id('store02@tenpo.example'))).toEqual({
      status: 'ready',
      average_rating: 3,
      review_count: 7,
      unreplied_count: 3,
    });
    expect(byId.get(id('store03@tenpo.example'))).toMatchObject({
      status: 'not_synced',
      average_rating: null,
      unreplied_count: 0,
    });
    expect(byId.get(id('store04@tenpo.example'))).toMatchObject({ status: 'not_connected' });
    expect(byId.has(other)).toBe(false);
  });
});

describe('review metrics of the reviews the sync reads from the Google emulator', () => {
  const LOCATION = '4821390157204861230';
  const PARENT = `accounts/104772635510001234567/locations/${LOCATION}`;
  const HOUR = 3_600_000;
  let w: PostsWorld;

  type AtGoogle = {
    starRating: string;
    createTime: string;
    comment?: string;
    reviewReply?: { updateTime: string };
  };
  const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];

  /** Every review Google holds for the shop's location, every page. */
  async function allAtGoogle(): Promise<AtGoogle[]> {
    const token = await shopGoogleToken(w.sb.url);
    const out: AtGoogle[] = [];
    let next: string | undefined;
    do {
      const q = new URLSearchParams({ pageSize: '50', ...(next ? { pageToken: next } : {}) });
      const res = await fetch(`${w.sb.url}/google/mybusiness/v4/${PARENT}/reviews?${q}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { reviews?: AtGoogle[]; nextPageToken?: string };
      out.push(...(page.reviews ?? []));
      next = page.nextPageToken;
    } while (next);
    return out;
  }

  /** A customer writes a review at Google, `hoursAgo` hours back. */
  const write = async (stars: number, hoursAgo: number, comment: string) => {
    const res = await fetch(`${w.sb.url}/control/google/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        location_id: LOCATION,
        star_rating: stars,
        comment,
        create_time: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
      }),
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    w = await startPostsWorld({ channelTimeoutMs: 1500 });
  });
  afterAll(async () => {
    await w?.t.close();
    await w?.sb.close();
  });

  it("box-data's figures are those of what Google lists, replies from Tenpo included", async () => {
    const { t, shop, token } = w;
    // The app's clock at the wall clock's time, as the emulator's is.
    t.clock.advance(Date.now() - t.clock.now().getTime());
    const before = await call(t.app, {
      method: 'POST',
      url: '/api/dashboard/box-data',
      token,
      payload: { user_id: shop, range: '7' },
    });
    expect(json<Data<{ reviews: ReviewMetrics }>>(before).data.data.reviews.status).toBe(
      'not_synced',
    );
    await write(2, 50, '口コミ指標テスト：待ち時間が長かった');
    await write(5, 80, '口コミ指標テスト：とても美味しかった');
    expect(await t.app.reviews.sync.syncStore(shop)).toMatchObject({ state: 'done' });
    // The shop replies to the ★2 from Tenpo: Google stamps the reply now, about 50 h later.
    const list = await call(t.app, {
      method: 'GET',
      url: `/api/reviews?user_id=${shop}&limit=50&q=${encodeURIComponent('待ち時間が長かった')}`,
      token,
    });
    const target = json<Data<Page<ReviewView>>>(list).data.data.data[0];
    expect(target).toBeDefined();
    const replied = await call(t.app, {
      method: 'POST',
      url: `/api/reviews/${target?.id}/reply`,
      token,
      payload: { user_id: shop, comment: 'ご不便をおかけしました。', override: false },
    });
    expect(replied.statusCode, replied.body).toBe(200);
    await t.app.reviews.sync.syncStore(shop);

    const res = await call(t.app, {
      method: 'POST',
      url: '/api/dashboard/box-data',
      token,
      payload: { user_id: shop, range: '7' },
    });
    expect(res.statusCode).toBe(200);
    const r = json<Data<{ reviews: ReviewMetrics }>>(res).data.data.reviews;
    expect(r.status).toBe('ready');

    // The same figures from Google's own list, worked out here.
    const p = dashboardPeriod('7', tokyoDay(t.clock.now()));
    const google = (await allAtGoogle()).map((g) => ({
      day: tokyoDay(Date.parse(g.createTime)),
      stars: STARS.indexOf(g.starRating) + 1,
      hours: g.reviewReply
        ? Math.max(0, (Date.parse(g.reviewReply.updateTime) - Date.parse(g.createTime)) / HOUR)
        : null,
    }));
    const upToEnd = google.filter((g) => g.day <= p.end);
    const inPeriod = upToEnd.filter((g) => g.day >= p.start);
    const hours = inPeriod
      .flatMap((g) => (g.hours === null ? [] : [g.hours]))
      .sort((a, b) => a - b);
    const mid = Math.floor(hours.length / 2);
    const median =
      hours.length === 0
        ? null
        : hours.length % 2
          ? (hours[mid] as number)
          : ((hours[mid - 1] as number) + (hours[mid] as number)) / 2;
    const avg = (xs: { stars: number }[]) =>
      xs.length ? Math.round((xs.reduce((n, g) => n + g.stars, 0) / xs.length) * 100) / 100 : null;
    const repliedCount = inPeriod.filter((g) => g.hours !== null).length;
    expect(inPeriod.length).toBeGreaterThanOrEqual(2);
    expect(r.period).toEqual({
      review_count: inPeriod.length,
      total_review_count: upToEnd.length,
      average_rating: avg(upToEnd),
      period_average_rating: avg(inPeriod),
      replied_count: repliedCount,
      reply_rate: Math.round((repliedCount / inPeriod.length) * 1000) / 10,
      median_reply_hours: median === null ? null : Math.round(median * 10) / 10,
    });
    expect(r.starting_average_rating).toBe(avg(google.filter((g) => g.day < p.start)));
    const daySum = Object.values(r.series).reduce((n, f) => n + f.review_count, 0);
    expect(daySum).toBe(inPeriod.length);
    // The reply sent from Tenpo counts: its review is in the period and replied.
    expect(hours.some((h) => h >= 49 && h < 52)).toBe(true);
  });
});
