import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagingJa } from '@tenpo/domain';
import { REVIEW_COUNT_CAP } from '../src/modules/reviews/reviews.repo';
import { buildTestApp, call, login, type TestApp } from './helpers';
import {
  expectCursorParams,
  expectCursorsAnswered,
  expectPageFields,
  expectRefused,
  forged,
  getOk,
  idsOnward,
  gotOf,
  NEWEST_FIRST,
  newestAfter,
  offsetPages as offsetPagesOf,
  openApi,
  storesOfBoth,
  urlOf,
  walkEveryWay as walkPages,
  type Got,
  type PageBody,
  type Query,
} from './keyset-walk';

/**
 * Keyset paging of the reviews inbox and the reviews' approval queue (issue 26, ADR 0098
 * amended 2026-11-29): every page of GET /reviews (with its filters and a search word) and of
 * GET /reviews/approvals, walked by cursor forwards (`after`) and backwards (`before`) and by
 * number (`page`), is the page LIMIT / OFFSET gave, ties in the review time included; the
 * cursor never reaches past the stores named, whoever made it; a cursor that is not this
 * list's is a 422 in Japanese; a capped count (ADR 0096) still pages by cursor both ways.
 */

let t: TestApp;
let agencyToken: string;
let otherToken: string;
let mine: number[] = [];
let theirs: number[] = [];
/** A store of the agency's that holds only the capped list's reviews. */
let big = 0;

/** Three instants for 53 reviews (and the other tenant's 27, at the same instants): many ties. */
const TIMES = ['2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z'];
const STATES = ['pending', 'sent', 'rejected', 'sent', 'failed'] as const;

async function addReview(storeId: number, i: number, prefix: string) {
  const db = t.database.db;
  const at = TIMES[i % TIMES.length] as string;
  const replied = i % 3 === 0;
  const r = await db
    .insertInto('reviews')
    .values({
      store_id: storeId,
      name: `${prefix}/reviews/${i}`,
      reviewer_name: i % 4 === 0 ? `佐藤 ${i}` : `reviewer ${i}`,
      reviewer_photo_url: null,
      star_rating: (i % 5) + 1,
      comment: `${prefix} 口コミ ${i}${i % 2 === 0 ? ' 駐車場が広い' : ''}`,
      created_at: at,
      updated_at: at,
      has_reply: replied ? 1 : 0,
      reply_comment: replied ? 'ありがとうございます' : null,
      reply_updated_at: replied ? at : null,
      reply_state: replied ? 'live' : null,
      reply_policy_violation: null,
      reply_url: null,
      first_seen_at: at,
      notified_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (i % 2 === 1)
    await db
      .insertInto('reply_approvals')
      .values({
        review_id: r.id,
        store_id: storeId,
        state: STATES[i % STATES.length] as string,
        comment: '返信',
        override: 0,
        author_id: storeId,
        author_email: `${prefix}@tenpo.example`,
        decided_by: null,
        decided_by_email: null,
        decided_at: null,
        note: null,
        created_at: at,
        updated_at: at,
        expires_at: at,
        sent_at: null,
      })
      .execute();
}

beforeAll(async () => {
  t = await buildTestApp();
  let stores: number[];
  ({ mine: stores, theirs } = await storesOfBoth(t, 5));
  mine = stores.slice(0, 4);
  big = stores[4] as number;
  // Interleaved ids: the two tenants' reviews alternate, at the same instants.
  for (let i = 0; i < 53; i++) {
    await addReview(mine[i % mine.length] as number, i, 'keyset');
    if (i % 2 === 0) await addReview(theirs[i % theirs.length] as number, i, 'other');
  }
  [agencyToken, otherToken] = await Promise.all([
    login(t.app, 'agency@tenpo.example'),
    login(t.app, 'other-agency@tenpo.example'),
  ]);
});
afterAll(async () => t?.close());

/** The inbox's page: spec 2 §7's, and `total_at_least` where the count is capped (ADR 0096). */
type Page = PageBody & { total_at_least?: boolean };

/** The page of a reviews list: the body's `data.data`. */
const body = async (token: string, path: string, q: Query) =>
  (await getOk<{ data: { data: Page } }>(t, token, path, q)).data.data;

async function get(token: string, path: string, q: Query): Promise<Got> {
  const b = await body(token, path, q);
  // The spec's fields are all there (the inbox's `total_at_least` too), and the two cursors.
  expectPageFields(b, path === '/reviews' ? ['total_at_least'] : []);
  return gotOf(b);
}

/** The pages as LIMIT / OFFSET read them, straight from the database, newest first. */
const offsetPages = (from: string, where: string, perPage: number) =>
  offsetPagesOf(t, from, where, NEWEST_FIRST, perPage);

/** By number, forwards by `after` from page 1, backwards by `before` from the last page. */
const walkEveryWay = (path: string, q: Query, want: number[][]) =>
  walkPages((x) => get(agencyToken, path, x), q, want);

const ofStores = (ids: readonly number[]) => `store_id in (${ids.join(',')})`;
const user_id = () => mine.join(',');

describe('GET /reviews by cursor is the inbox by OFFSET', () => {
  it('every page forwards, backwards and by number, 5 and 10 a page', async () => {
    for (const limit of [5, 10]) {
      const want = await offsetPages('reviews', ofStores(mine), limit);
      expect(want.flat()).toHaveLength(53);
      await walkEveryWay('/reviews', { user_id: user_id(), limit }, want);
    }
  });

  it('one store, stars and unreplied, a period, search words: every page narrowed alike', async () => {
    const one = mine[1] as number;
    await walkEveryWay(
      '/reviews',
      { user_id: one, limit: 5 },
      await offsetPages('reviews', ofStores([one]), 5),
    );
    const low = await offsetPages(
      'reviews',
      `${ofStores(mine)} and star_rating in (1, 2, 3) and has_reply = 0`,
      5,
    );
    expect(low.flat().length).toBeGreaterThan(10);
    await walkEveryWay(
      '/reviews',
      { user_id: user_id(), limit: 5, stars: '1,2,3', replied: 'unreplied' },
      low,
    );
    // The Tokyo days 2026-10-01 to 2026-11-01: the October and November instants.
    const period = await offsetPages(
      'reviews',
      `${ofStores(mine)} and created_at >= '2026-09-30T15:00:00.000Z' and created_at < '2026-11-01T15:00:00.000Z'`,
      5,
    );
    expect(period.flat().length).toBeGreaterThan(10);
    await walkEveryWay(
      '/reviews',
      { user_id: user_id(), limit: 5, date_from: '2026-10-01', date_to: '2026-11-01' },
      period,
    );
    // Three characters (the trigram index), two (the grams), and a word with a filter.
    const parking = await offsetPages(
      'reviews',
      `${ofStores(mine)} and comment like '%駐車場%'`,
      5,
    );
    expect(parking.flat().length).toBeGreaterThan(10);
    await walkEveryWay('/reviews', { user_id: user_id(), limit: 5, q: '駐車場' }, parking);
    const sato = await offsetPages(
      'reviews',
      `${ofStores(mine)} and reviewer_name like '%佐藤%'`,
      5,
    );
    expect(sato.flat().length).toBeGreaterThan(5);
    await walkEveryWay('/reviews', { user_id: user_id(), limit: 5, q: '佐藤' }, sato);
    const both = await offsetPages(
      'reviews',
      `${ofStores(mine)} and comment like '%駐車場%' and has_reply = 0`,
      5,
    );
    expect(both.flat().length).toBeGreaterThan(5);
    await walkEveryWay(
      '/reviews',
      { user_id: user_id(), limit: 5, q: '駐車場', replied: 'unreplied' },
      both,
    );
  });

  it('a page number past the last is empty, as before (no cursor)', async () => {
    const p = await get(agencyToken, '/reviews', { user_id: user_id(), page: 99 });
    expect(p).toMatchObject({ ids: [], current_page: 99, from: null, to: null, next: null });
  });
});

describe('GET /reviews/approvals by cursor is the queue by OFFSET', () => {
  it('sent (ties) and open (pending or failed), every page every way', async () => {
    const sent = await offsetPages('reply_approvals', `${ofStores(mine)} and state = 'sent'`, 5);
    expect(sent.flat().length).toBeGreaterThan(5);
    await walkEveryWay('/reviews/approvals', { user_id: user_id(), state: 'sent', limit: 5 }, sent);
    const open = await offsetPages(
      'reply_approvals',
      `${ofStores(mine)} and state in ('pending', 'failed')`,
      5,
    );
    expect(open.flat().length).toBeGreaterThan(5);
    await walkEveryWay('/reviews/approvals', { user_id: user_id(), limit: 5 }, open);
  });
});

describe('a cursor reaches only the stores named, whoever made it', () => {
  it("another tenant's cursor positions within the caller's own reviews", async () => {
    const p1 = await get(otherToken, '/reviews', { user_id: theirs.join(','), limit: 5 });
    expect(p1.ids).toHaveLength(5);
    const want = await newestAfter(t, 'reviews', ofStores(mine), p1.ids.at(-1), 5);
    expect(want).toHaveLength(5);
    const p = await get(agencyToken, '/reviews', {
      user_id: user_id(),
      limit: 5,
      after: p1.next ?? '',
    });
    expect(p.ids).toEqual(want);
    const seen = await idsOnward(
      (after) => get(agencyToken, '/reviews', { user_id: user_id(), limit: 5, after }),
      p,
    );
    const all = (await offsetPages('reviews', ofStores(mine), 100)).flat();
    expect([...new Set(seen)]).toEqual(all.slice(all.indexOf(want[0] as number)));
  });

  it("another tenant's store in user_id is still a 404, with a cursor or without", async () => {
    const p1 = await get(agencyToken, '/reviews', { user_id: user_id(), limit: 5 });
    const a1 = await get(agencyToken, '/reviews/approvals', {
      user_id: user_id(),
      state: 'sent',
      limit: 5,
    });
    for (const [path, next] of [
      ['/reviews', p1.next],
      ['/reviews/approvals', a1.next],
    ] as const)
      for (const q of [{}, { after: next ?? '' }] as Record<string, string>[]) {
        const res = await call(t.app, {
          method: 'GET',
          url: urlOf(path, { user_id: `${user_id()},${theirs[0]}`, ...q }),
          token: agencyToken,
        });
        expect([path, res.statusCode]).toEqual([path, 404]);
      }
  });
});

describe("a cursor that is not this list's is a 422, in Japanese", () => {
  const refused = async (path: string, q: Record<string, string>, field: string, message: string) =>
    expectRefused(t, agencyToken, urlOf(path, { user_id: user_id(), ...q }), field, message);

  it('not base64url, not ours, the posts list’s, the queue’s, or both ways at once', async () => {
    const reviews = await get(agencyToken, '/reviews', { user_id: user_id(), limit: 5 });
    const queue = await get(agencyToken, '/reviews/approvals', {
      user_id: user_id(),
      state: 'sent',
      limit: 5,
    });
    const posts = forged({ o: 'posts:created_at,desc', k: ['2026-10-01T00:00:00.000Z', 9], n: 5 });
    const bad = pagingJa.cursorInvalid;
    expect(bad).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    await refused('/reviews', { after: '$$$' }, 'after', bad);
    await refused('/reviews', { before: 'bm90LWpzb24' }, 'before', bad);
    await refused('/reviews', { after: 'A'.repeat(3000) }, 'after', bad);
    await refused(
      '/reviews',
      { after: forged({ o: 'reviews:created_at,desc', k: [1, 2], n: 5 }) },
      'after',
      bad,
    );
    await refused('/reviews', { after: posts }, 'after', bad);
    await refused('/reviews', { before: queue.next ?? '' }, 'before', bad);
    await refused('/reviews/approvals', { after: reviews.next ?? '' }, 'after', bad);
    await refused('/reviews/approvals', { after: '!' }, 'after', bad);
    await refused(
      '/reviews',
      { after: reviews.next ?? '', before: reviews.next ?? '' },
      'before',
      pagingJa.cursorBoth,
    );
    // An empty cursor is none: page 1.
    expect((await get(agencyToken, '/reviews', { user_id: user_id(), after: '' })).ids).toEqual(
      (await get(agencyToken, '/reviews', { user_id: user_id() })).ids,
    );
  });
});

describe('a capped count (ADR 0096) pages by cursor both ways', () => {
  it('10,000 shown of more: forwards, backwards and to the capped last page', async () => {
    const db = t.database.db;
    const n = REVIEW_COUNT_CAP + 25;
    const rows = Array.from({ length: n }, (_, i) => ({
      store_id: big,
      name: `big/reviews/${i}`,
      reviewer_name: `r${i}`,
      reviewer_photo_url: null,
      // Ties: eleven reviews an instant.
      star_rating: 1,
      comment: null,
      created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 11) * 60_000).toISOString(),
      updated_at: '2026-01-01T00:00:00.000Z',
      has_reply: 0,
      reply_comment: null,
      reply_updated_at: null,
      reply_state: null,
      reply_policy_violation: null,
      reply_url: null,
      first_seen_at: '2026-01-01T00:00:00.000Z',
      notified_at: null,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('reviews')
        .values(rows.slice(i, i + 500))
        .execute();
    // A filter, so the count is capped (an unfiltered list counts exactly).
    const q = { user_id: big, limit: 10, replied: 'unreplied' };
    const offsetPage = async (page: number) =>
      (
        await sql
          .raw<{
            id: number;
          }>(
            `select id from reviews where store_id = ${big} and has_reply = 0 order by created_at desc, id desc limit 10 offset ${(page - 1) * 10}`,
          )
          .execute(db)
      ).rows.map((r) => Number(r.id));
    const first = await body(agencyToken, '/reviews', { ...q });
    expect(first).toMatchObject({ total: REVIEW_COUNT_CAP, total_at_least: true, last_page: 1000 });
    expect(first.data.map((r) => r.id)).toEqual(await offsetPage(1));
    const second = await get(agencyToken, '/reviews', { ...q, after: first.next_cursor ?? '' });
    expect(second).toMatchObject({ ids: await offsetPage(2), current_page: 2, from: 11, to: 20 });
    // The capped last page by number is the 10,000th row's page, not the list's end.
    const last = await get(agencyToken, '/reviews', { ...q, page: 1000 });
    expect(last).toMatchObject({
      ids: await offsetPage(1000),
      current_page: 1000,
      from: 9991,
      to: 10000,
      next: null,
    });
    const before = await get(agencyToken, '/reviews', { ...q, before: last.prev ?? '' });
    expect(before).toMatchObject({ ids: await offsetPage(999), current_page: 999, from: 9981 });
    const middle = await get(agencyToken, '/reviews', { ...q, page: 600 });
    expect(middle.ids).toEqual(await offsetPage(600));
    const back = await get(agencyToken, '/reviews', { ...q, after: before.next ?? '' });
    expect(back).toMatchObject({ ids: await offsetPage(1000), current_page: 1000, next: null });
    // Past the capped last page by number: the rows there, as before the cursors.
    const past = await get(agencyToken, '/reviews', { ...q, page: 1001 });
    expect(past).toMatchObject({ ids: await offsetPage(1001), from: 10001, to: 10010 });
  });
});

describe('OpenAPI', () => {
  it('documents after and before on the inbox and the queue, and the cursors answered', async () => {
    const doc = await openApi(t);
    for (const p of ['/api/reviews', '/api/reviews/approvals']) {
      expectCursorParams(doc, p);
      expectCursorsAnswered(doc, p);
    }
  });
});
