// Issue 20, "exactly once after a crash, at any volume": BENCH_STORES stores (1,000 unless set)
// each post a text to Google and Facebook, all due at once, on one shared location and one shared
// Page at the sandbox (a page with far more than 50 other posts around every send). The real
// worker (`apps/api/src/worker.ts`) runs in a process of its own and is killed with SIGKILL
// mid-run, while sends are in flight; another is started, and so on BENCH_KILLS times; then a
// last worker finishes. Counted on the sandbox's side, by reading its own lists (every page):
// how many posts each target made. Prints counts, not timings.
//
// SQLite (the process killed and restarted); PostgreSQL with BENCH_DATABASE_URL (a schema of its
// own; TENPO_JOB_DRIVER=pg-boss too when BENCH_JOB_DRIVER=pg-boss, with BENCH_WORKERS workers
// running side by side, one of them killed each time).
// Tenpo's own per-app limits stay as they are (Facebook's 200 an hour for the app holds most
// Facebook targets past the deadline): a held target must have made no post, a published one
// exactly one.
// Run: node_modules/.bin/node --import tsx bench/crash-once.ts
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { POST_BUTTON, type PublisherKey } from '@tenpo/domain';
import { sandboxDemoGrants } from '@tenpo/sandbox';
import { buildApp } from '../apps/api/src/app';
import { demoSeedFor } from '../apps/api/src/compose';
import { loadConfig, type Config } from '../apps/api/src/config';
import { openDatabase, type Db } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import type { UserRow } from '../apps/api/src/db/types';
import { iso, systemClock } from '../apps/api/src/lib/clock';
import { PUBLISH_QUEUE } from '../apps/api/src/modules/posts/posts.jobs';
import { API_KEY } from '../apps/api/test/helpers';
import { freePort } from '../apps/api/test/sandbox';
import { scratchSchema } from './support/pg-schema';
import { postsServiceOf } from './support/posts-service';

const STORES = Number(process.env.BENCH_STORES ?? 1000);
const KILLS = Number(process.env.BENCH_KILLS ?? 2);
const DEADLINE_S = Number(process.env.BENCH_DEADLINE_S ?? 300);
/**
 * The job lease (JOB_LEASE_SECONDS), the product's default unless set: a killed worker's jobs
 * run again once it lapses, while the new worker is busy with others meanwhile (the posts it
 * makes in those seconds are what bury a lost send on the shared Page).
 */
const LEASE_S = Number(process.env.BENCH_LEASE_S ?? 15);
const PG_URL = process.env.BENCH_DATABASE_URL ?? null;
const DRIVER = process.env.BENCH_JOB_DRIVER === 'pg-boss' ? 'pg-boss' : 'table';
const WORKERS = Number(process.env.BENCH_WORKERS ?? (DRIVER === 'pg-boss' ? 2 : 1));
const CHANNELS: PublisherKey[] = ['google_my_business', 'facebook'];
const RAISED = {
  google: { queriesPerMinute: 10_000_000, editsPerMinutePerProfile: 10_000_000 },
  facebook: { pageCallsPerHour: 10_000_000, userCallsPerHour: 10_000_000 },
};

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-crash-'));
const children = new Set<ChildProcess>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const run = Date.now().toString(36);

function started(child: ChildProcess, ready: string, what: string): Promise<void> {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes(ready)) resolve();
      if (out.length > 100_000) out = out.slice(-10_000);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited ${code}: ${out.slice(-2000)}`)));
  });
}

/** The sandbox, in a process of its own, with the providers' limits raised out of the way. */
async function startSandboxProcess(): Promise<{ sandbox: ChildProcess; sbUrl: string }> {
  const sbPort = await freePort();
  const sbDir = path.join(tmp, 'sandbox');
  fs.mkdirSync(sbDir);
  const sandbox = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'support', 'sandbox-server.ts')],
    { env: { ...process.env, PORT: String(sbPort), DATA_DIR: sbDir }, stdio: 'pipe' },
  );
  await started(sandbox, 'sandbox ready', 'sandbox');
  const sbUrl = `http://127.0.0.1:${sbPort}/sandbox`;
  await fetch(`${sbUrl}/control/settings`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(RAISED),
  });
  return { sandbox, sbUrl };
}

/** Tenpo's database (SQLite, or a scratch PostgreSQL schema): migrated, the demo seeded. */
async function openTenpo(sbUrl: string) {
  const dir = path.join(tmp, 'tenpo');
  fs.mkdirSync(dir);
  let drop = async (): Promise<void> => {};
  const dbEnv: Record<string, string> = {};
  if (PG_URL) {
    const scratch = await scratchSchema(PG_URL);
    dbEnv.DATABASE_URL = scratch.url;
    drop = scratch.drop;
  }
  const env = {
    ...dbEnv,
    DATA_DIR: dir,
    TENPO_API_KEY: API_KEY,
    PUBLIC_URL: 'http://127.0.0.1:9',
    SANDBOX_URL: sbUrl,
    // A worker given SANDBOX_URL needs an SMTP door; delivery sends no mail, so none listens.
    SMTP_URL: 'smtp://127.0.0.1:9',
    TENPO_JOB_DRIVER: DRIVER,
  };
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', TENPO_WORKER: 'false' });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedDemo(database.db, systemClock, demoSeedFor(config));
  return { env, config, database, drop };
}

/** STORES stores: the demo shop and copies of it, with its connections and credentials. */
async function copyDemoShop(db: Db): Promise<UserRow[]> {
  const shop = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', 'shop@tenpo.example')
    .executeTakeFirstOrThrow();
  const connections = await db
    .selectFrom('publisher_connections')
    .selectAll()
    .where('user_id', '=', shop.id)
    .execute();
  const credentials = await db
    .selectFrom('channel_credentials')
    .selectAll()
    .where('user_id', '=', shop.id)
    .execute();
  const stores: UserRow[] = [shop];
  const { id: _id, ...shopRow } = shop;
  await db.transaction().execute(async (trx) => {
    for (let i = 1; i < STORES; i++) {
      const user = await trx
        .insertInto('users')
        .values({ ...shopRow, email: `crash-${i}@tenpo.example`, store_name: `ベンチ店 ${i}` })
        .returningAll()
        .executeTakeFirstOrThrow();
      stores.push(user);
      for (const { id: _c, ...c } of connections)
        await trx
          .insertInto('publisher_connections')
          .values({ ...c, user_id: user.id })
          .execute();
      for (const { id: _c, ...c } of credentials)
        await trx
          .insertInto('channel_credentials')
          .values({ ...c, user_id: user.id })
          .execute();
    }
  });
  return stores;
}

/** One post per store on every channel, made for later, then every send moved to now. */
async function postForEveryStore(
  app: FastifyInstance,
  config: Config,
  db: Db,
  stores: UserRow[],
): Promise<void> {
  const posts = postsServiceOf(app, config, db);
  const later = new Date(Date.now() + 3600_000);
  for (const [i, store] of stores.entries())
    await posts.create(
      store,
      [store],
      {
        storeIds: [store.id],
        content: `障害試験 ${run} 店${i} 本日のおすすめ`,
        buttonType: POST_BUTTON.none,
        buttonLink: null,
        phoneNumber: null,
        channels: CHANNELS,
        publishAt: later,
        deleteAt: null,
        media: [],
      },
      [],
    );
  // Each target counts against an account of its own store for Tenpo's per-account limits (as
  // 1,000 real stores would), while at the sandbox they all share one location and one Page.
  await db
    .updateTable('post_targets')
    .set({ account: sql<string>`account || '#' || store_id` })
    .where('account', 'is not', null)
    .execute();
  if (DRIVER === 'table') {
    for (const j of await db
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('queue', '=', PUBLISH_QUEUE)
      .execute()) {
      const p = JSON.parse(j.payload) as { account?: string | null; storeId: number };
      if (!p.account) continue;
      p.account = `${p.account}#${p.storeId}`;
      await db
        .updateTable('jobs')
        .set({ payload: JSON.stringify(p), run_at: iso(new Date()) })
        .where('id', '=', j.id)
        .execute();
    }
  } else {
    // pg-boss keeps its own jobs (their payloads keep the shared account): each is moved to now
    // by its key, as the posts service moves a rescheduled post's.
    const now = new Date();
    for (const t of await db.selectFrom('post_targets').select('idempotency_key').execute())
      if (!(await app.queue.reschedule(t.idempotency_key, now)))
        throw new Error(`no pg-boss job for ${t.idempotency_key}`);
  }
}

/** The targets by state, as the workers leave them. */
async function countTargets(db: Db) {
  const rows = await db.selectFrom('post_targets').select(['state', 'sent_at']).execute();
  return {
    published: rows.filter((r) => r.state === 'published').length,
    inFlight: rows.filter((r) => r.state === 'publishing' && r.sent_at).length,
    open: rows.filter((r) => !['published', 'failed'].includes(r.state)).length,
  };
}

/**
 * Workers: the real worker process, killed with SIGKILL mid-run, KILLS times; then the last
 * ones finish. Answers how many sends were in flight at the kills, in all.
 */
async function runWorkersWithKills(env: Record<string, string>, db: Db): Promise<number> {
  const startWorker = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'worker.ts')], {
      cwd: path.join(root, 'apps', 'api'),
      env: { ...process.env, ...env, LOG_LEVEL: 'info', JOB_LEASE_SECONDS: String(LEASE_S) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await started(child, 'Tenpo worker is up', 'worker');
    return child;
  };
  const counts = () => countTargets(db);
  const total = STORES * CHANNELS.length;
  const workers: ChildProcess[] = [];
  for (let i = 0; i < WORKERS; i++) workers.push(await startWorker());
  let killedInFlight = 0;
  for (let k = 0; k < KILLS; k++) {
    // Kill when a further share of the work is done and some sends are in flight.
    const goal = Math.round(((k + 1) * total) / (KILLS + 2));
    const until = Date.now() + DEADLINE_S * 1000;
    let c = await counts();
    while (Date.now() < until && !(c.published >= goal && c.inFlight > 0) && c.open > 0) {
      await sleep(5);
      c = await counts();
    }
    const victim = workers.shift() as ChildProcess;
    victim.kill('SIGKILL');
    await new Promise((r) => (victim.exitCode !== null ? r(null) : victim.once('exit', r)));
    killedInFlight += c.inFlight;
    console.log(
      `kill ${k + 1}: SIGKILL with ${c.published} of ${total} published, ${c.inFlight} sends in flight`,
    );
    workers.push(await startWorker());
  }
  await finishBeforeDeadline(db);
  for (const w of workers) {
    w.kill('SIGTERM');
    await new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)));
  }
  return killedInFlight;
}

/**
 * The last workers finish what they can by the deadline (or until what is left is held by
 * Tenpo's own limiters past it).
 */
async function finishBeforeDeadline(db: Db): Promise<void> {
  const until = Date.now() + DEADLINE_S * 1000;
  let c = await countTargets(db);
  while (Date.now() < until && c.open > 0) {
    const held = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('queue', '=', PUBLISH_QUEUE)
      .where('status', '=', 'queued')
      .where('run_at', '>', iso(new Date(until)))
      .executeTakeFirstOrThrow();
    if (Number(held.n) >= c.open) break;
    await sleep(500);
    c = await countTargets(db);
  }
}

/** The posts on the shared location and Page, counted on the sandbox's side: its own lists, every page. */
async function postsAtSandbox(sbUrl: string): Promise<Record<PublisherKey, string[]>> {
  const g = sandboxDemoGrants.google.find((x) => x.store === 'shop@tenpo.example');
  const f = sandboxDemoGrants.facebook.find((x) => x.email === 'shop@tenpo.example');
  if (!g || !f) throw new Error('the demo shop has no seeded Google/Facebook grant');
  const gToken = (
    (await (
      await fetch(`${sbUrl}/google/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: g.refreshToken,
          client_id: 'tenpo-sandbox',
          client_secret: 'tenpo-sandbox-secret',
        }).toString(),
      })
    ).json()) as { access_token: string }
  ).access_token;
  const atSandbox: Record<PublisherKey, string[]> = {
    google_my_business: [],
    facebook: [],
    instagram: [],
    twitter: [],
  };
  for (let token: string | undefined = '', n = 0; token !== undefined && n < 10_000; n++) {
    const r = (await (
      await fetch(
        `${sbUrl}/google/mybusiness/v4/accounts/104772635510001234567/locations/${g.location.id}/localPosts?pageSize=100${token ? `&pageToken=${token}` : ''}`,
        { headers: { authorization: `Bearer ${gToken}` } },
      )
    ).json()) as { localPosts?: { summary?: string }[]; nextPageToken?: string };
    atSandbox.google_my_business.push(...(r.localPosts ?? []).map((p) => p.summary ?? ''));
    token = r.nextPageToken;
  }
  for (let after: string | undefined = '', n = 0; after !== undefined && n < 10_000; n++) {
    const r = (await (
      await fetch(
        `${sbUrl}/facebook/graph/v25.0/${f.page.id}/published_posts?fields=message&limit=100&access_token=${f.page.token}${after ? `&after=${after}` : ''}`,
      )
    ).json()) as {
      data?: { message?: string }[];
      paging?: { next?: string; cursors?: { after?: string } };
    };
    atSandbox.facebook.push(...(r.data ?? []).map((p) => p.message ?? ''));
    after = r.paging?.next ? r.paging.cursors?.after : undefined;
  }
  return atSandbox;
}

/** Prints, per channel, how many posts each target made at the sandbox, and the verdict. */
async function report(
  db: Db,
  atSandbox: Record<PublisherKey, string[]>,
  killedInFlight: number,
): Promise<void> {
  const targets = await db
    .selectFrom('post_targets')
    .innerJoin('posts', 'posts.id', 'post_targets.post_id')
    .select(['post_targets.publisher_key', 'post_targets.state', 'posts.content'])
    .execute();
  console.log(
    `\n${STORES} stores × ${CHANNELS.length} channels on ${PG_URL ? `PostgreSQL (${DRIVER})` : 'SQLite'}, ${WORKERS} worker(s), ${KILLS} SIGKILL(s) with ${killedInFlight} sends in flight in all`,
  );
  let bad = 0;
  for (const key of CHANNELS) {
    const made = new Map<string, number>();
    for (const text of atSandbox[key]) made.set(text, (made.get(text) ?? 0) + 1);
    const mine = targets.filter((t) => t.publisher_key === key);
    const tally = { published_once: 0, published_twice_or_more: 0, published_none: 0 };
    const held = { not_sent: 0, sent: 0 };
    const states: Record<string, number> = {};
    for (const t of mine) {
      states[t.state] = (states[t.state] ?? 0) + 1;
      const n = made.get(t.content) ?? 0;
      if (t.state === 'published') {
        if (n === 1) tally.published_once++;
        else if (n === 0) tally.published_none++;
        else tally.published_twice_or_more++;
      } else if (n === 0) held.not_sent++;
      else held.sent++;
    }
    const others = atSandbox[key].length;
    // A target not published whose post is live (failed after a resend was refused, say) is
    // as wrong as a post made twice.
    bad += tally.published_twice_or_more + tally.published_none + held.sent;
    console.log(
      `  ${key.padEnd(19)} targets ${JSON.stringify(states)}; at the sandbox: ${others} posts on the shared ${key === 'facebook' ? 'Page' : 'location'}`,
    );
    console.log(
      `  ${''.padEnd(19)} published: ${tally.published_once} exactly once, ${tally.published_twice_or_more} twice or more, ${tally.published_none} missing; not published: ${held.not_sent} with no post, ${held.sent} with a post`,
    );
  }
  console.log(bad === 0 ? '\nexactly once: yes' : `\nexactly once: NO (${bad} targets)`);
}

async function main(): Promise<void> {
  const { sandbox, sbUrl } = await startSandboxProcess();
  // Tenpo's database: migrated, the demo seeded, STORES copies of the demo shop, a post each.
  const { env, config, database, drop } = await openTenpo(sbUrl);
  const app = await buildApp(config, { database, logger: false, mail: { send: async () => {} } });
  const db = database.db;
  const stores = await copyDemoShop(db);
  await postForEveryStore(app, config, db, stores);
  await app.close();

  const killedInFlight = await runWorkersWithKills(env, db);
  const atSandbox = await postsAtSandbox(sbUrl);
  await report(db, atSandbox, killedInFlight);
  await database.close();
  await drop();
  sandbox.kill('SIGTERM');
}

const cleanup = (): void => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
};
main().then(
  () => {
    cleanup();
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    cleanup();
    process.exit(1);
  },
);
