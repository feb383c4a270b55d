// Issue 25, "Done when": the reviews inbox over 1,000 stores × 200 reviews (200,000 rows)
// answers a filtered page in ≤ 50 ms on SQLite and PostgreSQL, against a plain indexed select
// (one store's newest 10 reviews, by the (store_id, created_at) index) in the same run on the
// same database. The page is the repo's own query (reviews.repo.ts `page`: the rows and the
// count of all that match), for every store of the agency at once, with the inbox's filters.
// PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test); its rows are skipped when it cannot be reached.
// Run: node_modules/.bin/node --import tsx bench/reviews.ts
import type { ReviewListQuery } from '@tenpo/domain';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase, type DbHandle } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import { systemClock } from '../apps/api/src/lib/clock';
import { createReviewsRepo } from '../apps/api/src/modules/reviews/reviews.repo';
import { onBothDatabases } from './support/pg-schema';
import { fillReviews } from './support/reviews-fill';
import { addAgencyStores } from './support/stores';
import { timedMedian } from './support/timing';

const STORES = Number(process.env.BENCH_STORES ?? 1000);
const PER_STORE = Number(process.env.BENCH_REVIEWS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARM = Number(process.env.BENCH_WARM ?? 5);
const TARGET_MS = 50;
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

const timed = (f: () => Promise<unknown>): Promise<number> => timedMedian(f, WARM, RUNS);

/** STORES stores of the demo agency with PER_STORE reviews each over the last 400 days. */
async function fill(h: DbHandle): Promise<number[]> {
  const ids = await addAgencyStores(h.db, STORES);
  await fillReviews(h, ids, PER_STORE);
  return ids;
}

async function measure(label: string, databaseUrl: string, dataDir: string) {
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedDemo(database.db, systemClock);
  const t0 = performance.now();
  const ids = await fill(database);
  const rows = Number(
    (
      await database.db
        .selectFrom('reviews')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  console.log(
    `${label}: ${ids.length} stores, ${rows.toLocaleString('en')} reviews, filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const store = ids[Math.floor(ids.length / 2)] as number;
  const plain = await timed(() =>
    database.db
      .selectFrom('reviews')
      .selectAll()
      .where('store_id', '=', store)
      .orderBy('created_at', 'desc')
      .limit(10)
      .execute(),
  );
  console.log(
    `  reference, a plain indexed select (one store's newest 10): ${plain.toFixed(2)} ms`,
  );
  const repo = createReviewsRepo(database.db);
  const cases: [string, Omit<ReviewListQuery, 'user_id' | 'limit' | 'page'>, number][] = [
    ['every review, page 1', { replied: 'all' }, 1],
    ['unreplied ★1–2, page 1', { replied: 'unreplied', stars: [1, 2] }, 1],
    ['unreplied ★1–2, page 50', { replied: 'unreplied', stars: [1, 2] }, 50],
    [
      'unreplied ★1–2 in the last 30 days',
      { replied: 'unreplied', stars: [1, 2], date_from: '2026-10-29', date_to: '2026-11-28' },
      1,
    ],
    // Text search (ADR 0092): trigrams for 3+ characters, and for 1–2 SQLite's trigram
    // vocabulary or PostgreSQL's index of short substrings.
    ['text search 「パスタ」 (3 characters), page 1', { replied: 'all', q: 'パスタ' }, 1],
    ['text search 「駐車場」 (3 characters), page 1', { replied: 'all', q: '駐車場' }, 1],
    ['text search 「丁寧」 (2 characters), page 1', { replied: 'all', q: '丁寧' }, 1],
    ['text search 「佐藤」 (2 characters, names), page 1', { replied: 'all', q: '佐藤' }, 1],
    ['text search 「ピ」 (1 character), page 1', { replied: 'all', q: 'ピ' }, 1],
    [
      'text search 「パスタ」, unreplied ★1–2, page 1',
      { replied: 'unreplied', stars: [1, 2], q: 'パスタ' },
      1,
    ],
    [
      'text search 「美味しかった」 (in one review in five), page 1',
      { replied: 'all', q: '美味しかった' },
      1,
    ],
  ];
  for (const [what, f, page] of cases) {
    let total = 0;
    const ms = await timed(async () => {
      total = (await repo.page(ids, f, page, 10)).total;
    });
    console.log(
      `  inbox, ${ids.length} stores, ${what} (${total.toLocaleString('en')} match): ${ms.toFixed(1)} ms = ${(ms / plain).toFixed(1)}× the plain select (${ms <= TARGET_MS ? 'within' : 'OVER'} ${TARGET_MS} ms)`,
    );
  }
  // Keyset paging (ADR 0098, amended 2026-11-29): page 1, a deep page next to a cursor, and the
  // last page by number (read from the end; a capped count's last page is its 10,000th row's).
  const paging: [string, Omit<ReviewListQuery, 'user_id' | 'limit' | 'page'>][] = [
    ['every review', { replied: 'all' }],
    ['unreplied ★1–2', { replied: 'unreplied', stars: [1, 2] }],
    ['text search 「駐車場」', { replied: 'all', q: '駐車場' }],
  ];
  for (const [what, f] of paging) {
    const first = await repo.page(ids, f, 1, 10);
    const deep = Math.max(1, Math.floor(first.last_page / 2));
    const cursor = (await repo.page(ids, f, deep, 10)).next_cursor ?? '';
    const [one, next, last] = [
      await timed(() => repo.page(ids, f, 1, 10)),
      await timed(() => repo.page(ids, f, deep + 1, 10, { after: cursor })),
      await timed(() => repo.page(ids, f, first.last_page, 10)),
    ];
    console.log(
      `  inbox paging, ${what} (${first.total.toLocaleString('en')} match, ${first.last_page} pages): page 1 ${one.toFixed(1)} ms, page ${deep + 1} by cursor ${next.toFixed(1)} ms, last page by number ${last.toFixed(1)} ms`,
    );
  }
  await database.close();
}

await onBothDatabases('reviews', PG_URL, measure);
