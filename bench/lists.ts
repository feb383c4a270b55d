// Issue 26, keyset paging (ADR 0098): a list that reaches thousands of rows is as fast on its
// last page as on its first. The agency's store list at 12,000 stores (stores.repo.ts `page`, the
// count and the rows, each sort order), the audit log at 100,000 rows (the route's count and
// page: the manager's, and the agency's), and the posts list of 2,500 of its stores with 50,000
// posts among 100,000 (posts.repo.ts `page`, as GET /posts reads it) with the posts' approval
// queue (ADR 0098's amendment of 2026-11-29), on SQLite and PostgreSQL. Each figure is set against
// the list's first page measured in the same run (flat is about 1×); "by OFFSET" is how a page
// was read before (the same query skipping the rows before it), the "before" figure.
// PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test); its rows are skipped when it cannot be reached.
// Run: node_modules/.bin/node --import tsx bench/lists.ts   (BENCH_PLANS=1 prints query plans)
import { sql } from 'kysely';
import { ROLE } from '@tenpo/domain';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase, type DbHandle } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import { systemClock } from '../apps/api/src/lib/clock';
import { keysetPage, type KeysetRequest } from '../apps/api/src/lib/keyset';
import { createAuditLog, type AuditScope } from '../apps/api/src/modules/audit/audit.repo';
import { createPostApprovalsRepo } from '../apps/api/src/modules/posts/posts.approvals.repo';
import { createPostsRepo } from '../apps/api/src/modules/posts/posts.repo';
import { createStoresRepo, type StoreFilter } from '../apps/api/src/modules/stores/stores.repo';
import { onBothDatabases } from './support/pg-schema';
import { addAgencyStores } from './support/stores';
import { timedMedian } from './support/timing';

const STORES = Number(process.env.BENCH_STORES ?? 12_000);
const AUDIT_ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 100_000);
/** The posts of the stores the posts list names, 20 a store; as many again of the agency's others. */
const POSTS = Number(process.env.BENCH_POSTS ?? 50_000);
const POSTS_A_STORE = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARM = Number(process.env.BENCH_WARM ?? 5);
const PLANS = process.env.BENCH_PLANS === '1';
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

const timed = (f: () => Promise<unknown>): Promise<number> => timedMedian(f, WARM, RUNS);
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** AUDIT_ROWS rows of the agency's stores' history, one a minute, made in the database. */
async function fillAudit(h: DbHandle, agencyId: number, ids: readonly number[]) {
  const lo = Math.min(...ids);
  const span = Math.max(...ids) - lo + 1;
  const series =
    h.dialect === 'postgres'
      ? `generate_series(0, ${AUDIT_ROWS - 1}) as d(n)`
      : `(with recursive s(n) as (select 0 union all select n + 1 from s where n < ${AUDIT_ROWS - 1}) select n from s) as d`;
  const at =
    h.dialect === 'postgres'
      ? `to_char((timestamp '2026-01-01 00:00:00' + d.n * interval '1 minute'), 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%S.000Z', '2026-01-01 00:00:00', '+' || d.n || ' minutes')`;
  await sql
    .raw(
      `insert into audit_log (at, actor_id, actor_email, actor_role, store_id, agency_id, entity,
         entity_id, action, summary, before, after)
       select ${at}, ${agencyId}, 'agency@tenpo.example', 11, ${lo} + d.n % ${span}, ${agencyId},
         'store', cast(${lo} + d.n % ${span} as text), 'update', '連絡先を変更',
         '{"phone":"03-0000-0000"}', '{"phone":"03-1111-1111"}'
       from ${series}`,
    )
    .execute(h.db);
  if (h.dialect === 'postgres') await sql.raw('vacuum analyze audit_log, users').execute(h.db);
  else await sql.raw('analyze').execute(h.db);
}

/**
 * POSTS posts of the agency's first POSTS / 20 stores (those the posts list names), 20 a store,
 * and as many again of its other stores, which the list does not name: every other one of a
 * listed store's posts is a submission to all of them at one instant (ties in created_at), the
 * rest its own. Each has its request for approval, approved. Made in the database; the stores
 * listed are answered.
 */
async function fillPosts(h: DbHandle, ids: readonly number[]): Promise<number[]> {
  const listed = ids.slice(0, Math.ceil(POSTS / POSTS_A_STORE));
  const others = ids.slice(listed.length);
  const lastListed = listed[listed.length - 1] ?? 0;
  const series = (n: number) =>
    h.dialect === 'postgres'
      ? `generate_series(0, ${n - 1}) as d(n)`
      : `(with recursive s(n) as (select 0 union all select n + 1 from s where n < ${n - 1}) select n from s) as d`;
  const minutes = (expr: string) =>
    h.dialect === 'postgres'
      ? `to_char(timestamp '2026-01-01 00:00:00' + (${expr}) * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%S.000Z', '2026-01-01 00:00:00', '+' || (${expr}) || ' minutes')`;
  const insert = (where: string, perStore: number, at: string) =>
    sql
      .raw(
        `insert into posts (submission_id, store_id, author_id, content, button_type, channels,
           publish_at, created_at, updated_at, post_type)
         select 'bench-' || d.n, u.id, u.id, 'ベンチ投稿 ' || d.n || ' ' || u.id, 0,
           '["google_my_business"]', ${at}, ${at}, ${at},
           case when d.n % 5 = 0 then 'offer' else 'news' end
         from users u cross join ${series(perStore)}
         where u.email like 'bench-store-%' and ${where}`,
      )
      .execute(h.db);
  await insert(
    `u.id <= ${lastListed}`,
    POSTS_A_STORE,
    minutes(`case when d.n % 2 = 0 then d.n * 1000 else d.n * 1000 + u.id % 997 end`),
  );
  if (others.length)
    await insert(
      `u.id > ${lastListed}`,
      Math.ceil(POSTS / others.length),
      minutes(`d.n * 3989 + u.id % 3989`),
    );
  await sql
    .raw(
      `insert into post_approvals (post_id, store_id, state, author_id, author_email, created_at,
         updated_at, expires_at)
       select p.id, p.store_id, 'approved', p.store_id, 'bench@tenpo.example', p.created_at,
         p.created_at, p.created_at
       from posts p`,
    )
    .execute(h.db);
  if (h.dialect === 'postgres') await sql.raw('vacuum analyze posts, post_approvals').execute(h.db);
  else await sql.raw('analyze').execute(h.db);
  return listed;
}

/** Times each figure and prints it against the first (page 1), under `title`. */
async function report(title: string, figures: [string, () => Promise<unknown>][]) {
  console.log(`  ${title}:`);
  let base = 0;
  for (const [what, f] of figures) {
    const t = await timed(f);
    if (!base) base = t;
    console.log(`    ${what}: ${ms(t)} = ${(t / base).toFixed(2)}× page 1`);
  }
}

async function measure(label: string, databaseUrl: string, dataDir: string) {
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedDemo(database.db, systemClock);
  const { db } = database;
  const t0 = performance.now();
  const ids = await addAgencyStores(db, STORES);
  const agency = (
    await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'agency@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
  await fillAudit(database, agency, ids);
  const listed = await fillPosts(database, ids);
  const postCount = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  console.log(
    `${label}: ${STORES.toLocaleString('en')} stores of one agency, ${AUDIT_ROWS.toLocaleString('en')} audit rows, ${Number(postCount.n).toLocaleString('en')} posts, filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // The agency's store list, 5 a page (the overview's default), in each sort order.
  const stores = createStoresRepo(db);
  const now = new Date();
  const perPage = 5;
  for (const orderBy of [
    { column: 'id', direction: 'asc' },
    { column: 'name', direction: 'asc' },
    { column: 'created_at', direction: 'desc' },
  ] as const) {
    const f: StoreFilter = { agencyId: agency, orderBy };
    const page = (req: Omit<KeysetRequest, 'perPage'>) => stores.page(f, { perPage, ...req }, now);
    const first = await page({ page: 1 });
    const last = first.last_page;
    const mid = Math.floor(last / 2);
    const beforeMid = await page({ page: mid - 1 });
    const afterMid = await page({ page: mid + 1 });
    const figures: [string, () => Promise<unknown>][] = [
      ['page 1', () => page({ page: 1 })],
      [
        `page ${mid} by cursor (after)`,
        () => page({ page: 1, after: beforeMid.next_cursor ?? '' }),
      ],
      [
        `page ${mid} by cursor (before)`,
        () => page({ page: 1, before: afterMid.prev_cursor ?? '' }),
      ],
      [`last page (${last}) by number, read from the end`, () => page({ page: last })],
      [`page ${mid} by number (OFFSET ${(mid - 1) * perPage}, before)`, () => page({ page: mid })],
      [
        `last page by OFFSET ${(last - 1) * perPage} (before)`,
        () => offsetPage(database, agency, orderBy, (last - 1) * perPage, perPage),
      ],
      ['the count alone', () => storeCount(database, agency)],
    ];
    console.log(`  agency store list, order_by ${orderBy.column},${orderBy.direction}:`);
    let base = 0;
    for (const [what, f] of figures) {
      const t = await timed(f);
      if (!base) base = t;
      console.log(`    ${what}: ${ms(t)} = ${(t / base).toFixed(2)}× page 1`);
    }
  }

  // The audit log as the route reads it (audit.routes.ts): the count, then the page.
  const audit = createAuditLog(db, systemClock);
  const perAudit = 20;
  for (const [who, scope] of [
    ['manager (everything)', { kind: 'all' }],
    ["agency (its stores')", { kind: 'agency', agencyId: agency }],
  ] as [string, AuditScope][]) {
    const list = audit.list(scope, {});
    const page = async (req: Omit<KeysetRequest, 'perPage'>) => {
      const total = await list.count();
      return keysetPage(
        { perPage: perAudit, ...req },
        {
          total,
          order: 'id,desc',
          keyTypes: ['number'],
          keyOf: (r) => [r.id],
          read: list.rows,
        },
      );
    };
    const first = await page({ page: 1 });
    const last = first.last_page;
    const mid = Math.floor(last / 2);
    const beforeMid = await page({ page: mid - 1 });
    const figures: [string, () => Promise<unknown>][] = [
      ['page 1', () => page({ page: 1 })],
      [
        `page ${mid} by cursor (after)`,
        () => page({ page: 1, after: beforeMid.next_cursor ?? '' }),
      ],
      [`last page (${last}) by number, read from the end`, () => page({ page: last })],
      [`page ${mid} by number (OFFSET ${(mid - 1) * perAudit}, before)`, () => page({ page: mid })],
      [
        `last page by OFFSET ${(last - 1) * perAudit} (before)`,
        async () => {
          await list.count();
          return list.rows({ from: 'start', offset: (last - 1) * perAudit, limit: perAudit });
        },
      ],
      ['the count alone', () => list.count()],
    ];
    console.log(`  audit log, ${who}, ${perAudit} a page:`);
    let base = 0;
    for (const [what, f] of figures) {
      const t = await timed(f);
      if (!base) base = t;
      console.log(`    ${what}: ${ms(t)} = ${(t / base).toFixed(2)}× page 1`);
    }
  }
  await measurePosts(database, listed);
  if (PLANS) await plans(database, agency, listed);
  await database.close();
}

/**
 * The posts list as GET /posts reads it (posts.repo.ts `page`: the count, the page, its media
 * and targets) for the agency's listed stores, 5 a page (the screen's default); and the posts'
 * approval queue (posts.approvals.repo.ts `page`), 10 a page. "By OFFSET" is the query as it
 * was before: an IN list of the stores, the rows before the page skipped.
 */
async function measurePosts(h: DbHandle, listed: readonly number[]) {
  const { db } = h;
  const posts = createPostsRepo(db);
  const perPosts = 5;
  const page = (req: Omit<KeysetRequest, 'perPage'>) =>
    posts.page(listed, {}, { perPage: perPosts, ...req });
  const oldPage = async (offset: number) => {
    const q = db.selectFrom('posts').where('store_id', 'in', [...listed]);
    await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perPosts)
      .offset(offset)
      .execute();
    return posts.bundles(rows);
  };
  const first = await page({ page: 1 });
  const last = first.last_page;
  const mid = Math.floor(last / 2);
  const beforeMid = await page({ page: mid - 1 });
  const afterMid = await page({ page: mid + 1 });
  const nearEnd = await page({ page: last - 1 });
  await report(
    `posts list of ${listed.length.toLocaleString('en')} stores, ${first.total.toLocaleString('en')} posts, ${perPosts} a page`,
    [
      ['page 1', () => page({ page: 1 })],
      [
        `page ${mid} by cursor (after)`,
        () => page({ page: 1, after: beforeMid.next_cursor ?? '' }),
      ],
      [
        `page ${mid} by cursor (before)`,
        () => page({ page: 1, before: afterMid.prev_cursor ?? '' }),
      ],
      [
        `last page (${last}) by cursor (after)`,
        () => page({ page: 1, after: nearEnd.next_cursor ?? '' }),
      ],
      [`last page (${last}) by number, read from the end`, () => page({ page: last })],
      [`page ${mid} by number (OFFSET ${(mid - 1) * perPosts})`, () => page({ page: mid })],
      [
        `last page by OFFSET ${(last - 1) * perPosts} (before)`,
        () => oldPage((last - 1) * perPosts),
      ],
      [
        `page ${mid} by OFFSET ${(mid - 1) * perPosts} (before)`,
        () => oldPage((mid - 1) * perPosts),
      ],
      ['page 1 as before (IN list, OFFSET 0)', () => oldPage(0)],
      // The first figure of a run may carry a warm-up the others do not: page 1 once more.
      ['page 1 again, last', () => page({ page: 1 })],
      [
        'the count alone',
        () =>
          db
            .selectFrom('posts')
            .where('store_id', 'in', [...listed])
            .select((e) => e.fn.countAll<number>().as('n'))
            .execute(),
      ],
    ],
  );

  const one = listed[0] as number;
  const onePage = (req: Omit<KeysetRequest, 'perPage'>) =>
    posts.page([one], {}, { perPage: perPosts, ...req });
  const oneFirst = await onePage({ page: 1 });
  await report(`posts list of one store, ${oneFirst.total} posts`, [
    ['page 1', () => onePage({ page: 1 })],
    ['page 2 by cursor (after)', () => onePage({ page: 1, after: oneFirst.next_cursor ?? '' })],
    [`last page (${oneFirst.last_page}) by number`, () => onePage({ page: oneFirst.last_page })],
  ]);

  const approvals = createPostApprovalsRepo(db);
  const perQueue = 10;
  const queue = (req: { page: number; after?: string; before?: string }) =>
    approvals.page(listed, {
      user_id: [...listed],
      state: 'approved',
      limit: perQueue,
      page: req.page,
      after: req.after,
      before: req.before,
    });
  const oldQueue = async (offset: number) => {
    const where = db
      .selectFrom('post_approvals as a')
      .where('a.store_id', 'in', [...listed])
      .where('a.state', '=', 'approved');
    await where.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return where
      .innerJoin('users as u', 'u.id', 'a.store_id')
      .selectAll('a')
      .select('u.store_name')
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(perQueue)
      .offset(offset)
      .execute();
  };
  const qFirst = await queue({ page: 1 });
  const qLast = qFirst.last_page;
  const qMid = Math.floor(qLast / 2);
  const qBeforeMid = await queue({ page: qMid - 1 });
  await report(
    `posts' approval queue (approved), ${qFirst.total.toLocaleString('en')} requests, ${perQueue} a page`,
    [
      ['page 1', () => queue({ page: 1 })],
      [
        `page ${qMid} by cursor (after)`,
        () => queue({ page: 1, after: qBeforeMid.next_cursor ?? '' }),
      ],
      [`last page (${qLast}) by number, read from the end`, () => queue({ page: qLast })],
      [
        `last page by OFFSET ${(qLast - 1) * perQueue} (before)`,
        () => oldQueue((qLast - 1) * perQueue),
      ],
      ['page 1 again, last', () => queue({ page: 1 })],
    ],
  );
}

const sortSql = (column: 'id' | 'name' | 'created_at') =>
  column === 'name'
    ? 'coalesce(u.store_name, u.company_name, u.email)'
    : column === 'created_at'
      ? 'u.created_at'
      : 'u.id';

/** The list's rows as they were read before keyset paging: skipping `offset` rows. */
const offsetPage = (
  h: DbHandle,
  agency: number,
  o: NonNullable<StoreFilter['orderBy']>,
  offset: number,
  limit: number,
) =>
  sql
    .raw(
      `select u.id, u.email, u.role, u.status, u.agent_code, u.company_name, u.store_name,
         u.created_at, u.name, u.trial_ends_at, u.payment_fail,
         (select a.logo_url from users a where a.id = u.agency_id) as agency_logo,
         (select p.status from publisher_connections p where p.user_id = u.id
           and p.publisher_key = 'google_my_business' limit 1) as google_connection
       from users u where u.role in (${ROLE.freeTrial}, ${ROLE.shop}) and u.agency_id = ${agency}
       order by ${sortSql(o.column)} ${o.direction}, u.id ${o.direction}
       limit ${limit} offset ${offset}`,
    )
    .execute(h.db);

const storeCount = (h: DbHandle, agency: number) =>
  sql
    .raw(
      `select count(*) from users u where u.role in (${ROLE.freeTrial}, ${ROLE.shop}) and u.agency_id = ${agency}`,
    )
    .execute(h.db);

/** The plans of the seeks and the count (BENCH_PLANS=1). */
async function plans(h: DbHandle, agency: number, listed: readonly number[]) {
  const explain = h.dialect === 'postgres' ? 'explain (costs off)' : 'explain query plan';
  const where = `u.role in (0, 1) and u.agency_id = ${agency}`;
  // The posts list's stores as posts.repo.ts binds them: one array on PostgreSQL, IN on SQLite.
  const stores =
    h.dialect === 'postgres'
      ? `store_id = any('{${listed.join(',')}}'::int[])`
      : `store_id in (${listed.join(',')})`;
  const at = '2026-01-07T22:36:00.000Z';
  for (const q of [
    `select count(*) from users u where ${where}`,
    // The seek next to (k, id): the ties past the id, then the rows past k (keyset.repo.ts).
    `select u.id from users u where ${where} and coalesce(u.store_name, u.company_name, u.email) = 'ベンチ店 5000' and u.id > 0 order by u.id limit 5`,
    `select u.id from users u where ${where} and coalesce(u.store_name, u.company_name, u.email) > 'ベンチ店 5000' order by coalesce(u.store_name, u.company_name, u.email), u.id limit 5`,
    `select u.id from users u where ${where} and u.created_at = '2026-01-01' and u.id < 9000 order by u.id desc limit 5`,
    `select u.id from users u where ${where} and u.id > 5000 order by u.id asc limit 5`,
    `select a.id from audit_log a where a.id < 50000 order by a.id desc limit 20`,
    // The posts list: page 1, the ties past the id, the rows past k, the last page (backwards).
    `select * from posts where ${stores} order by created_at desc, id desc limit 5`,
    `select * from posts where ${stores} and created_at = '${at}' and id < 30000 order by id desc limit 5`,
    `select * from posts where ${stores} and created_at < '${at}' order by created_at desc, id desc limit 5`,
    `select * from posts where ${stores} order by created_at asc, id asc limit 5`,
    `select count(*) from posts where ${stores}`,
    `select a.id from post_approvals a join users u on u.id = a.store_id where a.${stores} and a.state = 'approved' and a.created_at < '${at}' order by a.created_at desc, a.id desc limit 10`,
  ]) {
    const rows = await sql.raw(`${explain} ${q}`).execute(h.db);
    // An agency's thousands of store ids shown as one mark.
    const short = (text: string) =>
      text.replace(/'\{[\d,]+\}'/g, "'{…}'").replace(/\((\d+,){10,}\d+\)/g, '(…)');
    console.log(
      `  plan: ${short(q)}\n    ${rows.rows.map((r) => short(Object.values(r as object).join(' '))).join('\n    ')}`,
    );
  }
}

await onBothDatabases('lists', PG_URL, measure);
