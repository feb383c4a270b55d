// Issue 26, keyset paging (ADR 0098): a list that reaches thousands of rows is as fast on its
// last page as on its first. The agency's store list at 12,000 stores (stores.repo.ts `page`, the
// count and the rows, each sort order) and the audit log at 100,000 rows (the route's count and
// page: the manager's, and the agency's), on SQLite and PostgreSQL. Each figure is set against
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
import { createStoresRepo, type StoreFilter } from '../apps/api/src/modules/stores/stores.repo';
import { onBothDatabases } from './support/pg-schema';
import { addAgencyStores } from './support/stores';
import { timedMedian } from './support/timing';

const STORES = Number(process.env.BENCH_STORES ?? 12_000);
const AUDIT_ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 100_000);
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
  console.log(
    `${label}: ${STORES.toLocaleString('en')} stores of one agency, ${AUDIT_ROWS.toLocaleString('en')} audit rows, filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
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
  if (PLANS) await plans(database, agency);
  await database.close();
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
async function plans(h: DbHandle, agency: number) {
  const explain = h.dialect === 'postgres' ? 'explain (costs off)' : 'explain query plan';
  const where = `u.role in (0, 1) and u.agency_id = ${agency}`;
  for (const q of [
    `select count(*) from users u where ${where}`,
    // The seek next to (k, id): the ties past the id, then the rows past k (keyset.repo.ts).
    `select u.id from users u where ${where} and coalesce(u.store_name, u.company_name, u.email) = 'ベンチ店 5000' and u.id > 0 order by u.id limit 5`,
    `select u.id from users u where ${where} and coalesce(u.store_name, u.company_name, u.email) > 'ベンチ店 5000' order by coalesce(u.store_name, u.company_name, u.email), u.id limit 5`,
    `select u.id from users u where ${where} and u.created_at = '2026-01-01' and u.id < 9000 order by u.id desc limit 5`,
    `select u.id from users u where ${where} and u.id > 5000 order by u.id asc limit 5`,
    `select a.id from audit_log a where a.id < 50000 order by a.id desc limit 20`,
  ]) {
    const rows = await sql.raw(`${explain} ${q}`).execute(h.db);
    console.log(
      `  plan: ${q}\n    ${rows.rows.map((r) => Object.values(r as object).join(' ')).join('\n    ')}`,
    );
  }
}

await onBothDatabases('lists', PG_URL, measure);
