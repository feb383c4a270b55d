// Issue 26 P9: POST /api/posts to N stores of an agency (Google and Facebook each) makes its
// rows, jobs and audit lines in a constant number of statements, and its answer does not grow
// with N. Over a real socket as the agency, on SQLite and on PostgreSQL (with its default job
// driver, pg-boss), for 1, 100 and 1,000 stores: the whole call's median time, the statements
// this process sent to the database during it, and the answer's size; the reference is the same
// call to one store, in the same run (ratio = time for N / time for 1).
// PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test); its rows are skipped when it cannot be reached.
// Run: node_modules/.bin/node --import tsx bench/posts-create.ts
import { formatPostDate } from '@tenpo/domain';
import { buildApp } from '../apps/api/src/app';
import { demoSeedFor } from '../apps/api/src/compose';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase, type Db } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import { systemClock } from '../apps/api/src/lib/clock';
import { statementsDuring } from '../apps/api/test/statements';
import { onBothDatabases } from './support/pg-schema';
import { addAgencyStores } from './support/stores';
import { median } from './support/timing';

const STORES = Number(process.env.BENCH_STORES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHANNELS = ['google_my_business', 'facebook'] as const;
const PG_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

/** The demo shop's connections and sealed grants on CHANNELS, copied to every store of `ids`. */
async function connect(db: Db, ids: number[]) {
  const shop = (
    await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'shop@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
  const connections = await db
    .selectFrom('publisher_connections')
    .selectAll()
    .where('user_id', '=', shop)
    .where('publisher_key', 'in', [...CHANNELS])
    .execute();
  const grants = await db
    .selectFrom('channel_credentials')
    .selectAll()
    .where('user_id', '=', shop)
    .where('publisher_key', 'in', [...CHANNELS])
    .execute();
  if (connections.length !== CHANNELS.length || grants.length !== CHANNELS.length)
    throw new Error('the demo shop has no Google or Facebook connection to copy');
  for (let i = 0; i < ids.length; i += 200) {
    const chunk = ids.slice(i, i + 200);
    await db
      .insertInto('publisher_connections')
      .values(
        chunk.flatMap((user_id) => connections.map(({ id: _id, ...c }) => ({ ...c, user_id }))),
      )
      .execute();
    await db
      .insertInto('channel_credentials')
      .values(chunk.flatMap((user_id) => grants.map(({ id: _id, ...g }) => ({ ...g, user_id }))))
      .execute();
  }
}

async function measure(label: string, databaseUrl: string, dataDir: string) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    TENPO_WORKER: 'false',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
  });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedDemo(database.db, systemClock, demoSeedFor(config));
  const ids = await addAgencyStores(database.db, STORES);
  await connect(database.db, ids);
  const app = await buildApp(config, { database, logger: false, mail: { send: async () => {} } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/posts`;
  const login = await fetch(url.replace('/posts', '/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': config.apiKey },
    body: JSON.stringify({ email: 'agency@tenpo.example', password: 'tenpo-demo-1' }),
  });
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  let sent = 0;
  const post = async (stores: number[]) => {
    const form = new FormData();
    form.set('user_id', stores.join(','));
    form.set('content', `ベンチ投稿 ${++sent}: 本日のおすすめランチのご案内です。`);
    form.set('shared_sns_type', CHANNELS.join(','));
    form.set('publish_date', formatPostDate(new Date(Date.now() + 86_400_000)));
    const t0 = performance.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-api-key': config.apiKey },
      body: form,
    });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`POST /api/posts ${res.status}: ${body.slice(0, 300)}`);
    return { ms, bytes: Buffer.byteLength(body) };
  };
  console.log(
    `${label}: POST /api/posts as the agency, ${CHANNELS.length} channels, median of ${RUNS}${label === 'PostgreSQL' ? ` (job driver ${config.jobs.driver})` : ''}`,
  );
  let one = NaN;
  for (const n of [1, 100, STORES].filter((x, i, a) => x <= STORES && a.indexOf(x) === i)) {
    const stores = ids.slice(0, n);
    await post(stores); // warm: the first call of a kind prepares statements, makes queues
    let bytes = 0;
    const statements = await statementsDuring(async () => {
      bytes = (await post(stores)).bytes;
    });
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) times.push((await post(stores)).ms);
    const ms = median(times);
    if (n === 1) one = ms;
    console.log(
      `  ${n.toLocaleString('en')} store(s): ${ms.toFixed(1)} ms = ${(ms / one).toFixed(2)}× the call to one store (${(ms / n).toFixed(2)} ms a store), ${statements} statements, answer ${(bytes / 1024).toFixed(1)} KB`,
    );
  }
  await app.close();
  await database.close();
}

await onBothDatabases('posts-create', PG_URL, measure);
