import Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderReview } from '../src/channels/channel';
import type { Db } from '../src/db/kysely';
import type { Database } from '../src/db/types';
import {
  createReviewsRepo,
  REVIEW_COUNT_CAP,
  type ReviewFilter,
} from '../src/modules/reviews/reviews.repo';
import { createTestDb, dbKinds, type TestDb } from './job-db';

/**
 * The inbox's text search through its indexes (ADR 0092: SQLite's trigram FTS5 table and its
 * vocabulary, PostgreSQL's pg_trgm and short-substring indexes) answers as the plain LIKE scan
 * did, page by page, and the count without a filter (`review_counts`) is the rows' own count,
 * after the sync's writes, its edits and deletes, on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL.
 */
const NOW = '2026-11-28T00:00:00.000Z';

async function addStores(db: Db, n: number, prefix = 'search-store'): Promise<number[]> {
  const rows = Array.from({ length: n }, (_, i) => ({
    email: `${prefix}-${i}@tenpo.example`,
    password_hash: null,
    name: null,
    role: 1,
    account_kind: 0,
    is_leader: 0,
    agreed_terms: 1,
    phone: null,
    company_name: null,
    store_name: `検索店 ${i}`,
    logo_url: null,
    agent_code: null,
    trial_ends_at: null,
    payment_fail: 0,
    agency_id: null,
    status: 1,
    created_at: NOW,
    updated_at: NOW,
  }));
  return (await db.insertInto('users').values(rows).returning('id').execute()).map((r) => r.id);
}

const COMMENTS = [
  'ランチのパスタが美味しかったです。',
  '店員さんの対応が丁寧でした',
  '駐車場が広い。パスタ',
  '100% 満足、また来ます',
  'file_name_ok と書いてありました',
  'ABC Cafe の aBc ブレンド',
  'ＡＢＣ（全角）のお店',
  'ピザ',
  'タ',
  '引用 "quote" と \\ バックスラッシュ',
  '絵文字 🍝 パスタ🍝',
  '一行目\n二行目', // a line break: the separator of PostgreSQL's grams
  null,
  '',
];
const NAMES = ['佐藤', '鈴木 花子', 'Taro Yamada', 'タ', '佐藤太郎', '100%er', 'a_b'];

const review = (i: number, comment: string | null, reviewer: string): ProviderReview => ({
  name: `accounts/1/locations/1/reviews/r${i}`,
  reviewId: `r${i}`,
  reviewerName: reviewer,
  reviewerPhotoUrl: null,
  isAnonymous: false,
  stars: 1 + (i % 5),
  comment,
  media: [],
  // Some share a time, so the order's tie (id) is held too.
  createTime: new Date(Date.UTC(2026, 10, 1) - Math.floor(i / 2) * 3_600_000).toISOString(),
  updateTime: new Date(Date.UTC(2026, 10, 1) - Math.floor(i / 2) * 3_600_000).toISOString(),
  reply:
    i % 3 === 0
      ? { comment: 'ありがとう', updateTime: NOW, state: 'live', policyViolation: null }
      : null,
  replyUrl: null,
});

const reviewsOf = (store: number, n: number, salt = 0): ProviderReview[] =>
  Array.from({ length: n }, (_, i) =>
    review(
      i,
      COMMENTS[(i + store + salt) % COMMENTS.length] ?? null,
      NAMES[(i * 3 + store) % NAMES.length] ?? '',
    ),
  );

const QUERIES = [
  'パスタ', // 3 characters
  '美味しかった', // 3+
  '丁寧', // 2
  '佐藤', // 2, a whole two-character name
  'パ', // 1
  'タ', // 1, a whole text of one character and the last of others
  'ピザ', // 2, a whole text
  '%', // a LIKE wildcard, literally
  '_', // the other one
  '100%', // with text around it
  'e_n', // `_` between letters: only `e_n`, not `ean`
  'abc', // ASCII case folded: ABC, aBc
  'ＡＢＣ', // full-width letters: as the scan lowers them
  '"quote"',
  '\\',
  '🍝',
  'パスタ🍝',
  'a_b',
  '存在しない言葉',
  '\n', // the line break: in comments only, not between a comment and its name
  'タ\n', // a comment's last character and the separator: no text holds it
  '目\n二', // across a line inside a comment
];

describe.each(dbKinds())('inbox text search and count on %s', (kind) => {
  let tdb: TestDb;
  let db: Db;
  let stores: number[];
  const repo = () => createReviewsRepo(db);

  beforeAll(async () => {
    tdb = await createTestDb(kind);
    db = tdb.handle.db;
    stores = await addStores(db, 3);
    // As the sync writes them: in batches, through the repo's upsert.
    for (const s of stores) await repo().upsert(s, reviewsOf(s, 70), NOW);
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  /** The plain LIKE scan (the search before ADR 0092), newest first. */
  async function scanned(ids: readonly number[], q: string, extra: Partial<ReviewFilter> = {}) {
    const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    let query = db
      .selectFrom('reviews as r')
      .select('r.id')
      .where('r.store_id', 'in', [...ids])
      .where((eb) =>
        eb.or([
          sql<boolean>`lower(coalesce(r.comment, '')) like ${pattern} escape '\\'`,
          sql<boolean>`lower(r.reviewer_name) like ${pattern} escape '\\'`,
        ]),
      );
    if (extra.stars?.length) query = query.where('r.star_rating', 'in', extra.stars);
    if (extra.replied === 'unreplied') query = query.where('r.has_reply', '=', 0);
    return (await query.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').execute()).map(
      (r) => r.id,
    );
  }

  /** Every page of the repo's answer, 7 to a page, and the total each page gave. */
  async function paged(ids: readonly number[], f: ReviewFilter) {
    const out: number[] = [];
    const totals = new Set<number>();
    for (let page = 1; ; page++) {
      const got = await repo().page(ids, f, page, 7);
      totals.add(got.total);
      out.push(...got.rows.map((r) => r.id));
      if (got.rows.length < 7) break;
    }
    return { ids: out, totals: [...totals] };
  }

  async function expectSameAsScan(ids: readonly number[] = stores) {
    let found = 0;
    for (const q of QUERIES) {
      const want = await scanned(ids, q);
      const got = await paged(ids, { replied: 'all', q });
      expect({ q, ids: got.ids, totals: got.totals }).toEqual({
        q,
        ids: want,
        totals: [want.length],
      });
      found += want.length;
    }
    // With the other filters too.
    const f: ReviewFilter = { replied: 'unreplied', stars: [1, 2, 3], q: 'パスタ' };
    const want = await scanned(ids, 'パスタ', f);
    expect((await paged(ids, f)).ids).toEqual(want);
    return found;
  }

  async function expectCountsHeld(ids: readonly number[] = stores) {
    const rows = await db
      .selectFrom('reviews')
      .where('store_id', 'in', [...ids])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect((await repo().page(ids, { replied: 'all' }, 1, 5)).total).toBe(Number(rows.n));
    for (const s of ids) {
      const one = await db
        .selectFrom('reviews')
        .where('store_id', '=', s)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect((await repo().page([s], { replied: 'all' }, 1, 5)).total).toBe(Number(one.n));
    }
  }

  it('finds what the LIKE scan finds, in the same order and pages, with the same count', async () => {
    expect(await expectSameAsScan()).toBeGreaterThan(100);
    // The queries do find rows (a test that cannot fail is a defect).
    expect(await scanned(stores, 'パ')).not.toHaveLength(0);
    expect(await scanned(stores, '%')).not.toHaveLength(0);
    expect(await scanned(stores, 'タ')).not.toHaveLength(0);
    await expectCountsHeld();
  });

  /**
   * The plans of the inbox queries the repo's page runs for `f`, and their text. PostgreSQL
   * plans them without sequential scans or the store-led indexes (dropped in a transaction
   * rolled back): on a few rows those would win, and the question is whether the search's own
   * indexes can answer the query as written.
   */
  async function plansOf(f: ReviewFilter): Promise<{ plans: string; texts: string }> {
    const seen: CompiledQuery[] = [];
    const log = (e: { level: string; query: CompiledQuery }) => {
      if (e.level === 'query') seen.push(e.query);
    };
    const inbox = (q: CompiledQuery) =>
      q.sql.includes('"reviews" as "r"') && !q.sql.includes('join');
    if (kind === 'sqlite') {
      const file = tdb.url.replace(/^sqlite:/, '');
      const conn = new Sqlite(file);
      const logged = new Kysely<Database>({ dialect: new SqliteDialect({ database: conn }), log });
      await createReviewsRepo(logged).page(stores, f, 1, 7);
      const plans = seen.filter(inbox).flatMap((q) =>
        (
          conn.prepare(`explain query plan ${q.sql}`).all(...q.parameters) as {
            detail: string;
          }[]
        ).map((r) => r.detail),
      );
      await logged.destroy();
      return { plans: plans.join('\n'), texts: seen.map((q) => q.sql).join('\n') };
    }
    const u = new URL(tdb.url);
    const schema = u.searchParams.get('schema');
    u.searchParams.delete('schema');
    const pool = new pg.Pool({
      connectionString: u.toString(),
      max: 1,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    const logged = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    await createReviewsRepo(logged).page(stores, f, 1, 7);
    const c = await pool.connect();
    const plans: string[] = [];
    try {
      await c.query('begin');
      await c.query('set local enable_seqscan = off');
      await c.query('drop index reviews_store_created, reviews_inbox, reviews_recent');
      await c.query('alter table reviews drop constraint reviews_store_name');
      for (const q of seen.filter(inbox))
        for (const r of (await c.query(`explain ${q.sql}`, [...q.parameters])).rows as {
          'QUERY PLAN': string;
        }[])
          plans.push(r['QUERY PLAN']);
    } finally {
      await c.query('rollback');
      c.release();
    }
    await logged.destroy();
    return { plans: plans.join('\n'), texts: seen.map((q) => q.sql).join('\n') };
  }

  it('reads the search indexes, not every row', async () => {
    const long = (await plansOf({ replied: 'all', q: 'パスタ' })).plans;
    const short = (await plansOf({ replied: 'all', q: '丁寧' })).plans;
    const single = (await plansOf({ replied: 'all', q: 'パ' })).plans;
    if (kind === 'sqlite') {
      expect(long).toMatch(/reviews_search VIRTUAL TABLE/);
      expect(short).toMatch(/reviews_search_terms VIRTUAL TABLE/);
      expect(single).toMatch(/reviews_search_terms VIRTUAL TABLE/);
      for (const p of [long, short, single]) expect(p).toMatch(/reviews_search_keys/);
    } else {
      const trgm = await db
        .selectFrom('pg_extension' as never)
        .select(sql<number>`count(*)`.as('n'))
        .where(sql<boolean>`extname = 'pg_trgm'`)
        .executeTakeFirstOrThrow();
      if (Number(trgm.n) > 0) expect(long).toMatch(/reviews_(comment|reviewer)_trgm/);
      expect(short).toMatch(/reviews_search_grams/);
      expect(single).toMatch(/reviews_search_grams/);
      for (const p of [long, short, single]) expect(p).not.toMatch(/Seq Scan on reviews/);
    }
    // Without a filter, the count reads the stores' held counts.
    const all = (await plansOf({ replied: 'all' })).texts;
    expect(all).toMatch(/from "review_counts"/);
    expect(all).not.toMatch(/count\(\*\)/);
  });

  it('follows the sync: a comment or a name edited, a review added', async () => {
    const [s] = stores as [number];
    const before = await scanned([s], '丁寧');
    // The sync writes a review again with its new text (Google's updateTime moved on).
    const edited = reviewsOf(s, 70).map((r) => ({
      ...r,
      comment: r.comment?.includes('丁寧') ? '普通の対応でした。ピクルス' : r.comment,
      reviewerName: r.reviewerName === '佐藤' ? '佐々木' : r.reviewerName,
    }));
    const added = review(70, '新しいパスタ屋さん', '高橋');
    await repo().transaction((r) => r.upsert(s, [...edited, added], NOW));
    expect(before.length).toBeGreaterThan(0);
    expect(await scanned([s], '丁寧')).toEqual([]);
    expect((await repo().page([s], { replied: 'all', q: '丁寧' }, 1, 7)).total).toBe(0);
    expect((await repo().page([s], { replied: 'all', q: '佐々木' }, 1, 7)).total).toBeGreaterThan(
      0,
    );
    expect((await repo().page([s], { replied: 'all', q: '新しいパスタ' }, 1, 7)).total).toBe(1);
    await expectSameAsScan();
    await expectCountsHeld();
  });

  it('forgets deleted reviews: another location chosen, a store deleted (cascade)', async () => {
    const [a, b, c] = stores as [number, number, number];
    await repo().transaction((r) => r.clearStore(a));
    await db.deleteFrom('users').where('id', '=', b).execute();
    expect((await repo().page([a, b], { replied: 'all', q: 'パスタ' }, 1, 7)).total).toBe(0);
    expect((await repo().page([a, b], { replied: 'all' }, 1, 7)).total).toBe(0);
    await expectSameAsScan();
    await expectCountsHeld([a, c]);
    // Written again after the clear: found again, counted again.
    await repo().upsert(a, reviewsOf(a, 20, 1), NOW);
    await expectSameAsScan([a, c]);
    await expectCountsHeld([a, c]);
  });
});

describe.each(dbKinds())('inbox count past its cap on %s', (kind) => {
  let tdb: TestDb;
  let db: Db;
  const repo = () => createReviewsRepo(db);
  beforeAll(async () => {
    tdb = await createTestDb(kind);
    db = tdb.handle.db;
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  it('counts a filter up to its cap: past it, more than the cap', async () => {
    const [big] = await addStores(db, 1, 'many-reviews');
    // One review more than the cap, each with the word and one star.
    const many = Array.from({ length: REVIEW_COUNT_CAP + 1 }, (_, i) => ({
      ...review(i, `カレーが辛すぎました ${i}`, '山田'),
      stars: 1,
    }));
    for (let i = 0; i < many.length; i += 2000)
      await repo().upsert(big as number, many.slice(i, i + 2000), NOW);
    for (const f of [
      { replied: 'all', q: 'カレー' },
      { replied: 'all', stars: [1] },
    ] as ReviewFilter[]) {
      const first = await repo().page([big as number], f, 1, 10);
      expect(first.rows).toHaveLength(10);
      expect(first.total).toBeGreaterThan(REVIEW_COUNT_CAP);
    }
    // Under the cap the count is exact.
    expect(
      (
        await repo().page(
          [big as number],
          { replied: 'all', q: 'カレーが辛すぎました 9999' },
          1,
          10,
        )
      ).total,
    ).toBe(1);
  });
});

describe.each(dbKinds())('the first reply kept on %s', (kind) => {
  let tdb: TestDb;
  let db: Db;
  const repo = () => createReviewsRepo(db);
  beforeAll(async () => {
    tdb = await createTestDb(kind);
    db = tdb.handle.db;
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  it('keeps the time a review was first seen answered through later edits (time to reply)', async () => {
    const [s] = await addStores(db, 1, 'first-reply');
    const first = '2026-11-02T00:00:00.000Z';
    const edited = '2026-11-20T00:00:00.000Z';
    const answered = (at: string) => ({
      ...review(1, '美味しかったです', '佐藤'),
      reply: {
        comment: 'ありがとう',
        updateTime: at,
        state: 'live' as const,
        policyViolation: null,
      },
    });
    const firstOf = async () =>
      await db
        .selectFrom('reviews')
        .select(['first_replied_at', 'reply_updated_at'])
        .where('store_id', '=', s as number)
        .executeTakeFirstOrThrow();
    await repo().upsert(
      s as number,
      [{ ...review(1, '美味しかったです', '佐藤'), reply: null }],
      NOW,
    );
    expect((await firstOf()).first_replied_at).toBeNull();
    await repo().upsert(s as number, [answered(first)], NOW);
    expect(await firstOf()).toEqual({ first_replied_at: first, reply_updated_at: first });
    // Edited at Google later (read by the sync), or through Tenpo: the first answer stays.
    await repo().upsert(s as number, [answered(edited)], NOW);
    expect(await firstOf()).toEqual({ first_replied_at: first, reply_updated_at: edited });
    const { id } = await db
      .selectFrom('reviews')
      .select('id')
      .where('store_id', '=', s as number)
      .executeTakeFirstOrThrow();
    await repo().saveReply(id, answered('2026-11-25T00:00:00.000Z').reply);
    expect((await firstOf()).first_replied_at).toBe(first);
  });
});
