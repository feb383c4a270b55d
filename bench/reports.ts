// Issue 10, "Measure" (reports part): a multi-store report over 1,000 stores × 25 months (the
// whole slider window, today's partial month included), on SQLite and on PostgreSQL, timed
// against a full scan of metric_days (760,000 rows) measured in the same run on the same
// database (BENCH_STORES=10000: ten times both; issue 26 asks for 0.05× there too). Targets: the
// report ≤ 0.05× the scan, and under 100 ms. Two figures per database:
// the whole call in the server (POST /api/report/multiple-store/adjustment-period over a real
// socket, as the agency, from the request read to the answer written: the session, the access
// checks of the 1,000 stores, the queries, the 367 KB of JSON), and its queries alone (the
// report's own work: which stores are linked, and their figures). For context, the same call
// as the client sees it, the answer read whole.
// PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test); its rows are skipped when it cannot be reached.
// Each store's review figures (issue 25 item 7) are a call of their own (POST
// /report/multiple-store/reviews): BENCH_REVIEWS=200 gives each store that many reviews over the
// last 400 days (read once), and that call's statement is timed too, against the same scan.
// Run: node_modules/.bin/node --import tsx bench/reports.ts
import { sql } from 'kysely';
import {
  addDays,
  addMonths,
  lastDayOf,
  METRIC_FIELDS,
  monthOfDay,
  reportWindowStart,
  tokyoDay,
} from '@tenpo/domain';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase, type DbHandle } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import { systemClock } from '../apps/api/src/lib/clock';
import { RUNNING_FIELDS } from '../apps/api/src/modules/metrics/metrics.repo';
import { createReportsRepo } from '../apps/api/src/modules/reports/reports.repo';
import { createReportsService } from '../apps/api/src/modules/reports/reports.service';
import { onBothDatabases } from './support/pg-schema';
import { fillReviews } from './support/reviews-fill';
import { addAgencyStores } from './support/stores';
import { median, timedMedian } from './support/timing';

const REPORT_URL = '/api/report/multiple-store/adjustment-period';
const STORES = Number(process.env.BENCH_STORES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const REVIEWS = Number(process.env.BENCH_REVIEWS ?? 0);
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

// Steady state, as a server answering reports all day: ten calls first (the JIT, PostgreSQL's
// buffers and catalog caches), then the median of RUNS.
const WARM = Number(process.env.BENCH_WARM ?? 10);
const timed = (f: () => Promise<unknown>): Promise<number> => timedMedian(f, WARM, RUNS);

/** 1,000 stores of the demo agency, each linked to Google, with 25 months of days and months. */
async function fill(h: DbHandle, from: string, to: string): Promise<number[]> {
  const db = h.db;
  const now = new Date().toISOString();
  const ids = await addAgencyStores(db, STORES);
  for (let i = 0; i < ids.length; i += 200)
    await db
      .insertInto('publisher_connections')
      .values(
        ids.slice(i, i + 200).map((id) => ({
          user_id: id,
          publisher_key: 'google_my_business',
          status: 1,
          entity_id: `locations/${id}`,
          location_name: null,
          postal_code: null,
          address_lines: null,
          store_code: null,
          log: '[]',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  // The days, generated in the database (760,000 rows is slow through parameters).
  const cols = METRIC_FIELDS.join(', ');
  const lo = Math.min(...ids);
  const hi = Math.max(...ids);
  if (h.dialect === 'postgres') {
    const vals = METRIC_FIELDS.map((_, i) => `((u.id * 31 + d.n * ${7 + i}) % 97)`).join(', ');
    await sql
      .raw(
        `insert into metric_days (store_id, day, ${cols}, fetched_at)
         select u.id, to_char(date '${from}' + d.n, 'YYYY-MM-DD'), ${vals}, '${now}'
         from users u cross join generate_series(0, date '${to}' - date '${from}') as d(n)
         where u.id between ${lo} and ${hi}`,
      )
      .execute(db);
  } else {
    const vals = METRIC_FIELDS.map((_, i) => `((u.id * 31 + d.n * ${7 + i}) % 97)`).join(', ');
    await sql
      .raw(
        `with recursive d(n, day) as (
           select 0, '${from}' union all
           select n + 1, date(day, '+1 day') from d where day < '${to}')
         insert into metric_days (store_id, day, ${cols}, fetched_at)
         select u.id, d.day, ${vals}, '${now}' from users u, d
         where u.id between ${lo} and ${hi}`,
      )
      .execute(db);
  }
  // The months as the sync writes them: sums of their days, with the running totals (ADR 0038).
  const sums = METRIC_FIELDS.map((f) => `sum(${f}) as ${f}`).join(', ');
  const cumCols = RUNNING_FIELDS.map((f) => `cum_${f}`).join(', ');
  const running = RUNNING_FIELDS.map(
    (f) => `sum(${f}) over (partition by store_id order by month)`,
  ).join(', ');
  await sql
    .raw(
      `insert into metric_months (store_id, month, ${cols}, search_keywords, days, updated_at, ${cumCols})
       select store_id, month, ${cols}, search_keywords, days, '${now}', ${running}
       from (select store_id, substr(day, 1, 7) as month, ${sums}, 0 as search_keywords,
               count(*) as days
             from metric_days group by store_id, substr(day, 1, 7)) m`,
    )
    .execute(db);
  if (h.dialect === 'postgres')
    // The state autovacuum leaves after a bulk write: statistics and the visibility map.
    await sql
      .raw('vacuum analyze metric_days, metric_months, users, publisher_connections')
      .execute(db);
  else await sql.raw('analyze').execute(db);
  return ids;
}

async function measure(label: string, databaseUrl: string, dataDir: string) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    TENPO_WORKER: 'false',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedDemo(database.db, systemClock);
  const today = tokyoDay(Date.now());
  const start = reportWindowStart(today);
  const t0 = performance.now();
  const ids = await fill(database, start, addDays(today, -1));
  if (REVIEWS > 0) {
    await fillReviews(database, ids, REVIEWS);
    // Replies 0 to 71 hours after their review, for the median's part of the statement.
    const later =
      database.dialect === 'postgres'
        ? `to_char((created_at::timestamptz + (id % 72) * interval '1 hour') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`
        : `strftime('%Y-%m-%dT%H:%M:%S.000Z', created_at, '+' || (id % 72) || ' hours')`;
    await sql
      .raw(
        `update reviews set reply_updated_at = ${later}, first_replied_at = ${later} where has_reply = 1`,
      )
      .execute(database.db);
    // The state autovacuum leaves after that update (PostgreSQL: the index-only reads need it).
    await sql
      .raw(database.dialect === 'postgres' ? 'vacuum analyze reviews' : 'analyze')
      .execute(database.db);
    const at = new Date().toISOString();
    for (let i = 0; i < ids.length; i += 200)
      await database.db
        .insertInto('review_syncs')
        .values(
          ids.slice(i, i + 200).map((id) => ({
            store_id: id,
            location_id: `locations/${id}`,
            state: 'done',
            error: null,
            newest_update: null,
            average_rating: null,
            total_review_count: null,
            first_synced_at: at,
            synced_at: at,
            updated_at: at,
          })),
        )
        .execute();
  }
  const rows = Number(
    (
      await database.db
        .selectFrom('metric_days')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  console.log(
    `${label}: ${ids.length} stores, ${rows.toLocaleString('en')} day rows (${start}..${addDays(today, -1)}), ${(REVIEWS * ids.length).toLocaleString('en')} reviews, filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const sums = METRIC_FIELDS.map((f) => `sum(${f})`).join(', ');
  const scan = await timed(() => sql.raw(`select ${sums} from metric_days`).execute(database.db));
  // For context: the same report computed from the days alone (what the rollup avoids).
  const fromDays = await timed(() =>
    sql
      .raw(
        `select store_id, ${sums} from metric_days where day >= '${start}' and day <= '${today}' group by store_id`,
      )
      .execute(database.db),
  );

  const service = createReportsService({
    repo: createReportsRepo(database),
    clock: systemClock,
  });
  const range = { start_date: start, end_date: today };
  const stores = ids.map((id) => ({ id, name: `ベンチ店 ${id}` }));
  const queries = await timed(() => service.multiple(stores, range));
  // For context: the answer's JSON alone (its size is set by the spec's shape, a row a store).
  const answer = { status_code: 200, data: { data: await service.multiple(stores, range) } };
  const answerJson = JSON.stringify(answer);
  const writing = await timed(async () => JSON.stringify(answer));
  // An adjustment range with partial edge months (read from metric_days), for reference.
  const edged = { start_date: addDays(start, 14), end_date: addDays(today, -3) };
  const edgeQueries = await timed(() => service.multiple(stores, edged));
  // Whole months ending at a month no store has a row for yet (as on the 1st of a month, before
  // its first day is pulled): every store takes the nearest-row lookup (ADR 0038).
  const reviewsCall = REVIEWS > 0 ? await timed(() => service.multipleReviews(stores, range)) : 0;
  const repo = createReportsRepo(database);
  const nextMonthEnd = lastDayOf(addMonths(monthOfDay(today), 1));
  const probed = await timed(() => repo.totals(ids, start, nextMonthEnd));

  const app = await buildApp(config, {
    database,
    logger: false,
    mail: { send: async () => {} },
  });
  // The server's own time for each report call, from the request read to the answer written to
  // the socket (Fastify's elapsedTime at onResponse), over a real socket.
  const served: number[] = [];
  app.addHook('onResponse', async (req, reply) => {
    if (req.url === REPORT_URL) served.push(reply.elapsedTime);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': config.apiKey },
    body: JSON.stringify({ email: 'agency@tenpo.example', password: 'tenpo-demo-1' }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const request = JSON.stringify({ user_id: ids, ...range });
  let checked = false;
  const callReport = async () => {
    const res = await fetch(`${base}${REPORT_URL}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': config.apiKey,
        authorization: `Bearer ${token}`,
      },
      body: request,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`report: ${res.status} ${text}`);
    if (!checked) {
      const d = (JSON.parse(text) as { data: { data: { stores: Record<string, unknown> } } }).data
        .data;
      if (Object.keys(d.stores).length !== ids.length) throw new Error('stores missing');
      checked = true;
    }
  };
  const client = await timed(callReport);
  const whole = median(served.slice(-RUNS));
  await app.close();
  await database.close();

  const line = (what: string, ms: number) =>
    `  ${what}: ${ms.toFixed(1)} ms = ${(ms / scan).toFixed(3)}× the scan (target ≤ 0.05×; ${ms < 100 ? 'under' : 'OVER'} 100 ms)`;
  console.log(
    `  reference, full scan of metric_days (sum of the 10 columns): ${scan.toFixed(1)} ms`,
  );
  console.log(
    `  (for context, the same totals summed from metric_days alone: ${fromDays.toFixed(1)} ms)`,
  );
  console.log(
    line(
      `multi-store report, whole call in the server (POST, ${ids.length.toLocaleString('en')} stores, 25 months)`,
      whole,
    ),
  );
  console.log(
    `  (for context, the same call as its client sees it, the answer read whole: ${client.toFixed(1)} ms = ${(client / scan).toFixed(3)}× the scan)`,
  );
  console.log(line('multi-store report, its queries alone', queries));
  console.log(
    `  (for context, JSON.stringify of the answer, ${Math.round(Buffer.byteLength(answerJson) / 1024)} KB: ${writing.toFixed(1)} ms = ${(writing / scan).toFixed(3)}× the scan)`,
  );
  console.log(
    `  (a range with partial edge months, ${edged.start_date}..${edged.end_date}, queries alone: ${edgeQueries.toFixed(1)} ms = ${(edgeQueries / scan).toFixed(3)}× the scan)`,
  );
  if (REVIEWS > 0)
    console.log(
      `  the stores' reviews (POST /report/multiple-store/reviews, ${REVIEWS} reviews a store), its statement alone: ${reviewsCall.toFixed(1)} ms = ${(reviewsCall / scan).toFixed(3)}× the scan`,
    );
  console.log(
    `  (whole months with no row at the range's end, ${start}..${nextMonthEnd}, the nearest-row lookup for every store: ${probed.toFixed(1)} ms = ${(probed / scan).toFixed(3)}× the scan)`,
  );
}

await onBothDatabases('reports', PG_URL, measure);
