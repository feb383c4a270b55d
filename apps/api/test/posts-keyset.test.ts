import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagingJa, ROLE } from '@tenpo/domain';
import { addOtherTenant, buildTestApp, call, json, login, type TestApp } from './helpers';

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
  const other = await addOtherTenant(t, {
    stores: ['other-1@tenpo.example', 'other-2@tenpo.example'],
  });
  const db = t.database.db;
  theirs = (
    await db
      .selectFrom('users')
      .select('id')
      .where('agency_id', '=', other.agencyId)
      .orderBy('id')
      .execute()
  ).map((r) => r.id);
  expect(theirs).toHaveLength(2);
  const agency = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'agency@tenpo.example')
    .executeTakeFirstOrThrow();
  mine = (
    await db
      .selectFrom('users')
      .select('id')
      .where('agency_id', '=', agency.id)
      .where('role', 'in', [ROLE.freeTrial, ROLE.shop])
      .orderBy('id')
      .limit(4)
      .execute()
  ).map((r) => r.id);
  expect(mine).toHaveLength(4);
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

/** One page: its rows' ids, the spec's numbers and the cursors. */
type Got = {
  ids: number[];
  current_page: number;
  last_page: number;
  total: number;
  per_page: number;
  from: number | null;
  to: number | null;
  next: string | null;
  prev: string | null;
};

/** Spec 2 §7: the body's `data.data` is the page, `data.data.data` its rows. */
type Body = {
  data: {
    data: { id: number }[];
    current_page: number;
    last_page: number;
    total: number;
    per_page: number;
    from: number | null;
    to: number | null;
    next_cursor: string | null;
    prev_cursor: string | null;
  };
};

const urlOf = (path: string, q: Record<string, string | number>) =>
  `/api${path}?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`;

async function get(token: string, path: string, q: Record<string, string | number>) {
  const url = urlOf(path, q);
  const res = await call(t.app, { method: 'GET', url, token });
  expect([url, res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([url, 200, '']);
  const body = json<{ data: Body }>(res).data.data;
  // The spec's fields are all there, and the two cursors beside them, nothing else.
  expect(Object.keys(body).sort()).toEqual(
    [
      'current_page',
      'data',
      'from',
      'last_page',
      'next_cursor',
      'per_page',
      'prev_cursor',
      'to',
      'total',
    ].sort(),
  );
  return {
    ids: body.data.map((r) => r.id),
    current_page: body.current_page,
    last_page: body.last_page,
    total: body.total,
    per_page: body.per_page,
    from: body.from,
    to: body.to,
    next: body.next_cursor,
    prev: body.prev_cursor,
  } satisfies Got;
}

/** The pages as LIMIT / OFFSET read them, straight from the database, newest first. */
async function offsetPages(from: string, where: string, perPage: number): Promise<number[][]> {
  const pages: number[][] = [];
  for (let offset = 0; ; offset += perPage) {
    const r = await sql
      .raw<{
        id: number;
      }>(
        `select id from ${from} where ${where} order by created_at desc, id desc limit ${perPage} offset ${offset}`,
      )
      .execute(t.database.db);
    if (r.rows.length === 0) break;
    pages.push(r.rows.map((x) => Number(x.id)));
  }
  return pages;
}

/**
 * Walks the list by number, forwards by `after` from page 1 and backwards by `before` from the
 * last page: each walk meets the OFFSET pages, with the same numbers on each page.
 */
async function walkEveryWay(path: string, q: Record<string, string | number>, want: number[][]) {
  const total = want.flat().length;
  const last = Math.max(1, want.length);
  const byNumber: Got[] = [];
  for (let page = 1; page <= last; page++)
    byNumber.push(await get(agencyToken, path, { ...q, page }));
  expect(byNumber.map((p) => p.ids)).toEqual(want.length ? want : [[]]);
  for (const [i, p] of byNumber.entries()) {
    expect(p).toMatchObject({ current_page: i + 1, last_page: last, total });
    expect(p.next === null).toBe(i === last - 1);
    expect(p.prev === null).toBe(i === 0);
  }
  const spec = (p: Got) => [p.ids, p.current_page, p.last_page, p.total, p.per_page, p.from, p.to];

  const forward: Got[] = [byNumber[0] as Got];
  for (let p = forward[0]; p?.next; ) {
    p = await get(agencyToken, path, { ...q, after: p.next });
    forward.push(p);
    expect(forward.length).toBeLessThanOrEqual(last);
  }
  expect(forward.map(spec)).toEqual(byNumber.map(spec));

  const backward: Got[] = [byNumber[last - 1] as Got];
  for (let p = backward[0]; p?.prev; ) {
    p = await get(agencyToken, path, { ...q, before: p.prev });
    backward.push(p);
    expect(backward.length).toBeLessThanOrEqual(last);
  }
  expect(backward.reverse().map(spec)).toEqual(byNumber.map(spec));
}

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
    const key = (
      await sql
        .raw<{
          created_at: string;
          id: number;
        }>(`select created_at, id from posts where id = ${p1.ids.at(-1)}`)
        .execute(t.database.db)
    ).rows[0];
    const want = (
      await sql
        .raw<{
          id: number;
        }>(
          `select id from posts where ${ofStores(mine)} and (created_at < '${key?.created_at}' or (created_at = '${key?.created_at}' and id < ${key?.id})) order by created_at desc, id desc limit 5`,
        )
        .execute(t.database.db)
    ).rows.map((r) => Number(r.id));
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
    const seen = [...p.ids];
    for (let q = p; q.next; ) {
      q = await get(agencyToken, '/posts', { user_id: mine.join(','), limit: 5, after: q.next });
      seen.push(...q.ids);
      expect(seen.length).toBeLessThan(100);
    }
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
  const refused = async (
    path: string,
    q: Record<string, string>,
    field: string,
    message: string,
  ) => {
    const url = urlOf(path, { user_id: mine.join(','), ...q });
    const res = await call(t.app, { method: 'GET', url, token: agencyToken });
    expect([url, res.statusCode]).toEqual([url, 422]);
    const body = json<{ status_code: number; errors: Record<string, string[]> }>(res);
    expect(body.status_code).toBe(422);
    expect(body.errors[field]).toEqual([message]);
  };
  const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

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
    const doc = json<{
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    }>(await call(t.app, { method: 'GET', url: '/api/docs/json' }));
    for (const p of [
      '/api/posts',
      '/api/posts/offers',
      '/api/posts/events',
      '/api/posts/news',
      '/api/posts/approvals',
    ]) {
      const names = (doc.paths[p]?.get?.parameters ?? [])
        .filter((x) => x.in === 'query')
        .map((x) => x.name);
      expect([p, names]).toEqual([p, expect.arrayContaining(['page', 'after', 'before'])]);
      const text = JSON.stringify(doc.paths[p]?.get);
      expect([p, text.includes('next_cursor'), text.includes('prev_cursor')]).toEqual([
        p,
        true,
        true,
      ]);
    }
  });
});
