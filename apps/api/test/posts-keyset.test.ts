import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagingJa } from '@tenpo/domain';
import { buildTestApp, call, json, login, type TestApp } from './helpers';
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
 * Keyset paging of the posts lists (issue 26, ADR 0098 amended 2026-11-29): every page of
 * GET /posts, of the Google topic lists and of the posts' approval queue, walked by cursor
 * forwards (`after`) and backwards (`before`) and by number (`page`, the second half read from
 * the end), is the page LIMIT / OFFSET gave, ties in the creation time included (a submission
 * to many stores makes posts of one instant); the cursor never reaches past the stores named,
 * whoever made it; a cursor that is not this list's is a 422 in Japanese.
 */

let t: TestApp;
let agencyToken: string;
let otherToken: string;
/** The demo agency's stores the lists name, and the other tenant's. */
let mine: number[] = [];
let theirs: number[] = [];

/** Three instants for 46 posts (and the other tenant's 20, at the same instants): many ties. */
const TIMES = ['2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z'];
const TYPES = ['news', 'event', 'offer', 'news'] as const;

async function addPost(storeId: number, i: number, prefix: string) {
  const db = t.database.db;
  const at = TIMES[i % TIMES.length] as string;
  const post = await db
    .insertInto('posts')
    .values({
      submission_id: `${prefix}-${i % 7}`,
      store_id: storeId,
      author_id: storeId,
      content: `${prefix} 投稿 ${i}${i % 3 === 0 ? ' 季節の限定' : ''}`,
      button_type: 0,
      button_link: null,
      phone_number: null,
      channels: '["google_my_business"]',
      publish_at: at,
      delete_at: null,
      created_at: at,
      updated_at: at,
      post_type: TYPES[i % TYPES.length],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('post_approvals')
    .values({
      post_id: post.id,
      store_id: storeId,
      state: i % 4 === 0 ? 'pending' : 'approved',
      author_id: storeId,
      author_email: `${prefix}@tenpo.example`,
      created_at: at,
      updated_at: at,
      expires_at: at,
    })
    .execute();
}

beforeAll(async () => {
  t = await buildTestApp();
  ({ mine, theirs } = await storesOfBoth(t, 4));
  // Interleaved ids: the two tenants' posts alternate, at the same instants.
  for (let i = 0; i < 46; i++) {
    await addPost(mine[i % mine.length] as number, i, 'keyset');
    if (i % 2 === 0) await addPost(theirs[i % theirs.length] as number, i, 'other');
  }
  [agencyToken, otherToken] = await Promise.all([
    login(t.app, 'agency@tenpo.example'),
    login(t.app, 'other-agency@tenpo.example'),
  ]);
});
afterAll(async () => t?.close());

/** One page of a posts list: spec 2 §7, the body's `data.data` is the page, nothing else in it. */
async function get(token: string, path: string, q: Query): Promise<Got> {
  const body = (await getOk<{ data: { data: PageBody } }>(t, token, path, q)).data.data;
  // The spec's fields are all there, and the two cursors beside them, nothing else.
  expectPageFields(body);
  return gotOf(body);
}

/** The pages as LIMIT / OFFSET read them, straight from the database, newest first. */
const offsetPages = (from: string, where: string, perPage: number) =>
  offsetPagesOf(t, from, where, NEWEST_FIRST, perPage);

/** Walks `path` as the agency every way. */
const walkEveryWay = (path: string, q: Query, want: number[][]) =>
  walkPages((x) => get(agencyToken, path, x), q, want);

const ofStores = (ids: readonly number[]) => `store_id in (${ids.join(',')})`;

describe('GET /posts by cursor is the list by OFFSET', () => {
  it('every page forwards, backwards and by number, 5 and 10 a page', async () => {
    for (const limit of [5, 10]) {
      const want = await offsetPages('posts', ofStores(mine), limit);
      expect(want.flat()).toHaveLength(46);
      await walkEveryWay('/posts', { user_id: mine.join(','), limit }, want);
    }
  });

  it('one store, a post type, a search: each filter narrows every page the same way', async () => {
    const one = mine[1] as number;
    await walkEveryWay(
      '/posts',
      { user_id: one, limit: 5 },
      await offsetPages('posts', ofStores([one]), 5),
    );
    const offers = await offsetPages('posts', `${ofStores(mine)} and post_type = 'offer'`, 5);
    expect(offers.flat().length).toBeGreaterThan(5);
    await walkEveryWay('/posts', { user_id: mine.join(','), limit: 5, post_type: 'offer' }, offers);
    const news = await offsetPages('posts', `${ofStores(mine)} and post_type = 'news'`, 5);
    await walkEveryWay('/posts', { user_id: mine.join(','), limit: 5, post_type: 'whatNew' }, news);
    const found = await offsetPages(
      'posts',
      `${ofStores(mine)} and content like '%季節の限定%'`,
      5,
    );
    expect(found.flat().length).toBeGreaterThan(10);
    await walkEveryWay(
      '/posts',
      { user_id: mine.join(','), limit: 5, post_key_search: '季節の限定' },
      found,
    );
  });

  it('the Google topic lists (/posts/offers, /events, /news)', async () => {
    for (const [path, type] of [
      ['/posts/offers', 'offer'],
      ['/posts/events', 'event'],
      ['/posts/news', 'news'],
    ] as const) {
      const want = await offsetPages('posts', `${ofStores(mine)} and post_type = '${type}'`, 5);
      expect(want.length).toBeGreaterThan(1);
      await walkEveryWay(path, { user_id: mine.join(','), limit: 5 }, want);
    }
  });

  it('a page number past the last is empty, as before (no cursor)', async () => {
    const p = await get(agencyToken, '/posts', { user_id: mine.join(','), page: 99 });
    expect(p).toMatchObject({ ids: [], current_page: 99, from: null, to: null, next: null });
  });
});

describe('GET /posts/approvals by cursor is the queue by OFFSET', () => {
  it('approved (many) and open, every page every way', async () => {
    const where = (state: string) => `${ofStores(mine)} and state = '${state}'`;
    const approved = await offsetPages('post_approvals', where('approved'), 5);
    expect(approved.flat()).toHaveLength(34);
    await walkEveryWay(
      '/posts/approvals',
      { user_id: mine.join(','), state: 'approved', limit: 5 },
      approved,
    );
    const open = await offsetPages('post_approvals', where('pending'), 5);
    expect(open.flat()).toHaveLength(12);
    await walkEveryWay('/posts/approvals', { user_id: mine.join(','), limit: 5 }, open);
  });
});

describe('a cursor reaches only the stores named, whoever made it', () => {
  it("another tenant's cursor positions within the caller's own posts", async () => {
    const p1 = await get(otherToken, '/posts', { user_id: theirs.join(','), limit: 5 });
    expect(p1.ids).toHaveLength(5);
    // Its keys: the last row of the other tenant's first page.
    const want = await newestAfter(t, 'posts', ofStores(mine), p1.ids.at(-1), 5);
    expect(want).toHaveLength(5);
    const p = await get(agencyToken, '/posts', {
      user_id: mine.join(','),
      limit: 5,
      after: p1.next ?? '',
    });
    expect(p.ids).toEqual(want);
    // Walking on from there meets every later post of the agency's, and no other. The cursor's
    // place was the other list's, so the walk may run past the end: then the last page comes
    // again (ADR 0098: a cursor past the end answers the last page).
    const seen = await idsOnward(
      (after) => get(agencyToken, '/posts', { user_id: mine.join(','), limit: 5, after }),
      p,
    );
    const all = (await offsetPages('posts', ofStores(mine), 100)).flat();
    expect([...new Set(seen)]).toEqual(all.slice(all.indexOf(want[0] as number)));
  });

  it("another tenant's store in user_id is still a 404, with a cursor or without", async () => {
    const p1 = await get(agencyToken, '/posts', { user_id: mine.join(','), limit: 5 });
    for (const path of ['/posts', '/posts/offers', '/posts/approvals'])
      for (const q of [{}, { after: p1.next ?? '' }] as Record<string, string>[]) {
        const res = await call(t.app, {
          method: 'GET',
          url: urlOf(path, { user_id: `${mine.join(',')},${theirs[0]}`, ...q }),
          token: agencyToken,
        });
        expect([path, res.statusCode]).toEqual([path, 404]);
      }
  });
});

describe("a cursor that is not this list's is a 422, in Japanese", () => {
  const refused = async (path: string, q: Record<string, string>, field: string, message: string) =>
    expectRefused(t, agencyToken, urlOf(path, { user_id: mine.join(','), ...q }), field, message);

  it('not base64url, not ours, the store list’s, the queue’s, or both ways at once', async () => {
    const posts = await get(agencyToken, '/posts', { user_id: mine.join(','), limit: 5 });
    const stores = json<{ data: { next_cursor: string } }>(
      await call(t.app, {
        method: 'GET',
        url: '/api/agency/stores?order_by=created_at,desc&per_page=1',
        token: agencyToken,
      }),
    ).data.next_cursor;
    const queue = await get(agencyToken, '/posts/approvals', {
      user_id: mine.join(','),
      state: 'approved',
      limit: 5,
    });
    const bad = pagingJa.cursorInvalid;
    await refused('/posts', { after: '$$$' }, 'after', bad);
    await refused('/posts', { before: 'bm90LWpzb24' }, 'before', bad);
    await refused('/posts', { after: 'A'.repeat(3000) }, 'after', bad);
    await refused(
      '/posts',
      { after: forged({ o: 'posts:created_at,desc', k: [1, 2], n: 5 }) },
      'after',
      bad,
    );
    await refused(
      '/posts',
      { after: forged({ o: 'posts:created_at,desc', k: ['x'], n: 5 }) },
      'after',
      bad,
    );
    await refused('/posts', { after: stores }, 'after', bad);
    await refused('/posts', { before: queue.next ?? '' }, 'before', bad);
    await refused('/posts/offers', { after: queue.next ?? '' }, 'after', bad);
    await refused('/posts/approvals', { after: posts.next ?? '' }, 'after', bad);
    await refused(
      '/posts',
      { after: posts.next ?? '', before: posts.next ?? '' },
      'before',
      pagingJa.cursorBoth,
    );
    // An empty cursor is none: page 1.
    expect((await get(agencyToken, '/posts', { user_id: mine.join(','), after: '' })).ids).toEqual(
      posts.ids,
    );
  });
});

describe('OpenAPI', () => {
  it('documents after and before on the posts lists, and the cursors answered', async () => {
    const doc = await openApi(t);
    for (const p of [
      '/api/posts',
      '/api/posts/offers',
      '/api/posts/events',
      '/api/posts/news',
      '/api/posts/approvals',
    ]) {
      expectCursorParams(doc, p);
      expectCursorsAnswered(doc, p);
    }
  });
});
