// Issue 26 P9, scale mode: "the same post to 1,000 stores on PostgreSQL + pg-boss with 2 API
// processes and 2 workers runs at 0.50× the single-process SQLite rate before the Google
// limiter". Goal: ≥ 0.8×. Measured here on this machine, both layouts in the same run, each
// against a fresh sandbox in a process of its own (bench/support/scale-sandbox.ts, which records
// when each provider call reached it):
//
// - single: one Tenpo process (apps/api/src/server.ts with its in-process worker, the table job
//   driver) on SQLite, the embedded default;
// - scale: BENCH_API (2) API processes (server.ts, TENPO_WORKER=false) and BENCH_WORKERS (2)
//   workers (apps/api/src/worker.ts) on PostgreSQL (a database of the bench's own, dropped at
//   the end) with TENPO_JOB_DRIVER=pg-boss, as docs/deploy.md §4 runs them.
//
// Every Tenpo process is a separate OS process run from the TypeScript sources with tsx (no
// build needed). The same burst on both: BENCH_STORES (1,000) stores of the demo agency, each
// with the demo shop's four connections, get one text post to Google, Facebook and X and one
// photo post to Instagram, each made by ONE `POST /api/posts` to every store, as the agency
// (timed: the "answers in X s" figure), for an hour ahead; then every publish job is made due
// at the same instant T (as bench/delivery.ts does). The stores share the demo shop's provider
// accounts at the sandbox, so as in delivery.ts each post gets a text of its own (Facebook and X
// refuse duplicates) and each target and job an account of its own store (Tenpo's per-account
// limits count per store, as for 1,000 real stores); the sandbox's own limits are raised.
// Tenpo's limiters stay as they are: Google's 300 calls a minute for the app holds the 301st
// Google target for a minute, so the rate is read over the first BENCH_RATE_FIRST (600)
// publish calls at the sandbox, before it can hold (the bench says how many of those went to
// Google): targets per second from T, and from the first publish call.
//
// The stores are added once the processes are up (so their start-time catch-up — the metrics
// backfill and the first reviews round of every connected store — is not in the burst), the
// demo stores' metrics backfill is marked done and the shop's Google token fresh before the
// stores copy it (no refresh in either burst), and the reviews round is hourly
// (REVIEWS_SYNC_MINUTES=60); reviews reads that fall in the window are said.
//
// The layouts run in turn, BENCH_ROUNDS (2) times each; the best rate of each is compared (the
// machine is shared: a busy moment must not decide the ratio). Prints each run's rate, POST
// times and the CPU seconds each process (and PostgreSQL's backends, and the sandbox) spent in
// the window; then the ratio scale / single against the goal (≥ 0.8), the CPU per publish of
// each layout (the ratio the rates tend to where the cores are the limit) and the POST times.
// A run killed before it cleans up leaves a folder and a database named with its pid: the next
// run drops them; its processes end themselves (support/scale-leash.ts).
// Run: node_modules/.bin/node --import tsx bench/scale.ts (bench/run-all.mjs runs it too; about
// 80 s for 1,000 stores on 2 cores).
// Env: BENCH_STORES (1000), BENCH_ROUNDS (2), BENCH_RATE_FIRST (600), BENCH_DEADLINE_S (60),
// BENCH_API (2), BENCH_WORKERS (2), BENCH_LAYOUTS (single,scale), BENCH_DATABASE_URL (an admin
// URL of the PostgreSQL server, default postgres://postgres@127.0.0.1:5432/postgres; the scale
// layout is skipped when it cannot be reached), BENCH_PROF=<dir> (--cpu-prof of every Tenpo
// process into <dir>/<layout>-<process>, written as each stops), BENCH_DEBUG=1 (the sandbox's
// calls by path, publishes per 500 ms, the statements each layout sent to its database in the
// window by kind with their mean time (support/scale-count.ts), and on PostgreSQL what its
// backends were doing, sampled every 20 ms).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import { formatPostDate, type PublisherKey } from '@tenpo/domain';
import { sandboxDemoGrants } from '@tenpo/sandbox';
import { buildApp } from '../apps/api/src/app';
import { demoSeedFor } from '../apps/api/src/compose';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase, type Db, type DbHandle } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import { iso, systemClock } from '../apps/api/src/lib/clock';
import { encrypt } from '../apps/api/src/lib/tokens';
import { PUBLISH_QUEUE } from '../apps/api/src/modules/posts/posts.jobs';
import { API_KEY, DEMO_PASSWORD, login } from '../apps/api/test/helpers';
import { connectThroughConsent, freePort, X_USER } from '../apps/api/test/sandbox';
import {
  answers200,
  cpuSeconds,
  killAll,
  liveProcs,
  machine,
  startNode,
  stopProcs,
  waitReady,
  type Proc,
} from './support/scale-procs';
import { addAgencyStores } from './support/stores';

const STORES = Number(process.env.BENCH_STORES ?? 1000);
const RATE_FIRST = Number(process.env.BENCH_RATE_FIRST ?? 600);
const DEADLINE_S = Number(process.env.BENCH_DEADLINE_S ?? 60);
const API_PROCS = Number(process.env.BENCH_API ?? 2);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'single,scale').split(',');
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const PROF = process.env.BENCH_PROF ? path.resolve(process.env.BENCH_PROF) : null;
const DEBUG = !!process.env.BENCH_DEBUG;
if (!(API_PROCS >= 1 && WORKERS >= 1 && STORES >= 1))
  throw new Error('BENCH_API, BENCH_WORKERS and BENCH_STORES must be at least 1');
const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GOAL = 0.8;
const ALL: PublisherKey[] = ['google_my_business', 'facebook', 'instagram', 'twitter'];
const TEXT_CHANNELS: PublisherKey[] = ['google_my_business', 'facebook', 'twitter'];
/** The call that makes the post at each provider (bench/delivery.ts's CREATE). */
const CREATE: Record<PublisherKey, RegExp> = {
  google_my_business: /\/localPosts$/,
  facebook: /\/(feed|photos|videos)$/,
  instagram: /\/media_publish$/,
  twitter: /\/2\/tweets$/,
};
/** The sandbox's limits that 1,000 stores on one demo account would hit, raised. */
const RAISED = {
  google: { queriesPerMinute: 10_000_000, editsPerMinutePerProfile: 10_000_000 },
  facebook: { pageCallsPerHour: 10_000_000, userCallsPerHour: 10_000_000 },
  instagram: { quotaTotal: 10_000_000 },
  x: { tweetsPer15MinPerUser: 10_000_000, tweetsPer24hPerApp: 10_000_000 },
};

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const apiDir = path.join(root, 'apps', 'api');
/** Named with this process's id, so that a later run can sweep what a killed one left. */
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), `tenpo-bench-scale-${process.pid}-`));
const run = Date.now().toString(36);
const SECRET = randomBytes(32).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, d = 0): string => (Number.isFinite(n) ? n.toFixed(d) : '—');
/** Databases to drop on the way out (also after an error). */
const dropLater: (() => Promise<void>)[] = [];

/** A photo every channel takes (a square JPEG of some 40 KB), as delivery.ts makes it. */
const photo = await sharp({
  create: {
    width: 640,
    height: 640,
    channels: 3,
    background: { r: 200, g: 160, b: 120 },
    noise: { type: 'gaussian', mean: 128, sigma: 12 },
  },
})
  .jpeg({ quality: 60 })
  .toBuffer();

// ---------------------------------------------------------------------------------------------
// The sandbox, in a process of its own (a fresh one per layout: its state grows with the posts).

type SandboxCall = { at: number; ms: number; method: string; path: string; status: number };
type Sandbox = {
  proc: Proc;
  url: string;
  count: (since: number) => Promise<number>;
  calls: (since: number) => Promise<SandboxCall[]>;
};

async function startSandbox(name: string): Promise<Sandbox> {
  const dir = path.join(tmpRoot, `sandbox-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const proc = startNode(
    `sandbox (${name})`,
    path.join(here, 'support', 'scale-sandbox.ts'),
    { PORT: String(port), DATA_DIR: dir },
    { cwd: root },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(proc, () => answers200(`${origin}/bench/count`));
  const url = `${origin}/sandbox`;
  const res = await fetch(`${url}/control/settings`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(RAISED),
  });
  if (!res.ok) throw new Error(`sandbox settings: ${res.status}`);
  const get = async <T>(p: string): Promise<T> =>
    ((await (await fetch(`${origin}${p}`)).json()) as { data: T }).data;
  return {
    proc,
    url,
    count: (since) => get<number>(`/bench/count?since=${since}`),
    calls: (since) => get<SandboxCall[]>(`/bench/calls?since=${since}`),
  };
}

const channelOf = (c: SandboxCall): PublisherKey | null => {
  if (c.method !== 'POST' || c.status >= 300) return null;
  return ALL.find((k) => CREATE[k].test(c.path)) ?? null;
};

// ---------------------------------------------------------------------------------------------
// Tenpo's database: migrated, the demo seeded, the shop's X connected (in this process, before
// any Tenpo process starts); the bench's stores are added later (addStores).

type Layout = {
  name: 'single' | 'scale';
  round: number;
  label: string;
  databaseUrl: string;
  driver: 'table' | 'pg-boss';
};

/** Whether the PostgreSQL server answers (the scale layout is skipped, and said, if not). */
async function pgReachable(): Promise<boolean> {
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  try {
    await admin.connect();
    await admin.end();
    return true;
  } catch (err) {
    console.log(`scale layout skipped: ${PG_ADMIN} unreachable (${(err as Error).message})`);
    return false;
  }
}

/** Whether a process of this machine has the id `pid`. */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * What runs killed before they could clean up left (their processes end themselves, see
 * support/scale-leash.ts): the folders and databases named with the id of a process that is gone.
 */
async function sweep(withPg: boolean): Promise<void> {
  for (const f of fs.readdirSync(os.tmpdir())) {
    const m = /^tenpo-bench-scale-(\d+)-/.exec(f);
    if (m && !alive(Number(m[1])))
      fs.rmSync(path.join(os.tmpdir(), f), { recursive: true, force: true });
  }
  if (!withPg) return;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  try {
    const r = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like 'bench\\_scale\\_%'`,
    );
    for (const { datname } of r.rows) {
      const m = /^bench_scale_[a-z0-9]+_(\d+)_\d+$/.exec(datname);
      if (m && !alive(Number(m[1])))
        await admin.query(`drop database if exists ${datname} with (force)`);
    }
  } finally {
    await admin.end();
  }
}

/** A PostgreSQL database of the bench's own, and how to drop it (also done on the way out). */
async function scratchDatabase(round: number): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_scale_${run}_${process.pid}_${round}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    const c = new pg.Client({ connectionString: PG_ADMIN });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
  dropLater.push(drop);
  const u = new URL(PG_ADMIN);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop };
}

/** What every Tenpo process of a layout reads (docs/deploy.md: the same everywhere). */
function tenpoEnv(layout: Layout, dataDir: string, sbUrl: string, publicPort: number) {
  // The daily jobs' hours, half a day away (Tokyo time) from now: none fires in the run.
  const away = String((new Date().getUTCHours() + 9 + 12) % 24);
  return {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    DATABASE_URL: layout.databaseUrl,
    TENPO_JOB_DRIVER: layout.driver,
    TENPO_SECRET_KEY: SECRET,
    TENPO_API_KEY: API_KEY,
    PUBLIC_URL: `http://127.0.0.1:${publicPort}`,
    SANDBOX_URL: sbUrl,
    // A process given SANDBOX_URL needs an SMTP door; delivery sends no mail, so none listens.
    SMTP_URL: 'smtp://127.0.0.1:9',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TENPO_SEED_DEMO: 'false',
    RATE_LIMIT_AUTH_PER_MINUTE: '10000',
    REVIEWS_SYNC_MINUTES: '60',
    METRICS_SYNC_HOUR: away,
    BILLING_HOUR: away,
  };
}

async function seedTenpo(env: Record<string, string>): Promise<void> {
  const config = loadConfig({
    ...env,
    LOG_LEVEL: 'silent',
    TENPO_WORKER: 'false',
    TENPO_SEED_DEMO: 'true',
  });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedDemo(database.db, systemClock, demoSeedFor(config));
  const app = await buildApp(config, { database, logger: false, mail: { send: async () => {} } });
  try {
    const shop = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'shop@tenpo.example')
      .executeTakeFirstOrThrow();
    // X is left to connect in the demo data: the shop connects it as the browser does.
    const token = await login(app, 'shop@tenpo.example');
    await connectThroughConsent(app, token, shop.id, 'twitter', {
      user_id: X_USER,
      decision: 'allow',
    });
    // The shop's Google grant is seeded without an access token (the first call refreshes it):
    // refreshed here, before the stores copy it, so that no refresh (which rewrites every copy
    // of the grant) falls in one layout's burst and not the other's.
    const g = sandboxDemoGrants.google.find((x) => x.store === 'shop@tenpo.example');
    if (!g) throw new Error('the sandbox has no Google grant for the demo shop');
    const res = await fetch(`${env.SANDBOX_URL}/google/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: g.refreshToken,
        client_id: 'tenpo-sandbox',
        client_secret: 'tenpo-sandbox-secret',
      }),
    });
    const tok = (await res.json()) as { access_token: string; expires_in: number };
    await database.db
      .updateTable('channel_credentials')
      .set({
        access_token: encrypt(config.secretKey, tok.access_token),
        expires_at: iso(new Date(Date.now() + tok.expires_in * 1000)),
      })
      .where('user_id', '=', shop.id)
      .where('publisher_key', '=', 'google_my_business')
      .execute();
    // The demo stores' metrics backfill, which a process that runs jobs starts with, marked
    // done: its Google reads would otherwise fall in the burst of one layout and not the other.
    const now = iso(new Date());
    const google = await database.db
      .selectFrom('publisher_connections as p')
      .leftJoin('metric_syncs as s', 's.store_id', 'p.user_id')
      .select('p.user_id')
      .where('p.publisher_key', '=', 'google_my_business')
      .where('s.store_id', 'is', null)
      .execute();
    if (google.length)
      await database.db
        .insertInto('metric_syncs')
        .values(
          google.map((g) => ({
            store_id: g.user_id,
            location_id: null,
            state: 'done' as const,
            first_day: null,
            last_day: null,
            keywords_final_month: null,
            backfilled_at: now,
            synced_at: now,
            error: null,
            updated_at: now,
          })),
        )
        .execute();
  } finally {
    await app.close();
    await database.close();
  }
}

/** `n` stores of the demo agency, each with the demo shop's four connections and grants. */
async function addStores(db: Db, n: number): Promise<number[]> {
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
    .execute();
  const grants = await db
    .selectFrom('channel_credentials')
    .selectAll()
    .where('user_id', '=', shop)
    .execute();
  for (const key of ALL)
    if (
      !connections.some((c) => c.publisher_key === key) ||
      !grants.some((g) => g.publisher_key === key)
    )
      throw new Error(`the demo shop has no ${key} connection to copy`);
  const ids = await addAgencyStores(db, n);
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
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Tenpo's processes.

type Tenpo = { apis: { proc: Proc; base: string }[]; workers: Proc[]; all: Proc[] };

const profArgs = (layout: string, name: string): string[] =>
  PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROF, `${layout}-${name}`)}`] : [];
/** BENCH_DEBUG: each Tenpo process counts its statements (support/scale-count.ts). */
const countFile = (layout: string, name: string): string =>
  path.join(tmpRoot, `count-${layout}-${name}`);
const counting = (
  layout: string,
  name: string,
): { env: Record<string, string>; preload: string[] } =>
  DEBUG
    ? {
        env: { BENCH_COUNT_FILE: countFile(layout, name) },
        preload: [path.join(here, 'support', 'scale-count.ts')],
      }
    : { env: {}, preload: [] };

async function startTenpo(
  layout: Layout,
  env: Record<string, string>,
  apiPorts: number[],
): Promise<Tenpo> {
  const apis = apiPorts.map((port, i) => {
    const name = layout.name === 'single' ? 'server' : `api${i + 1}`;
    const c = counting(layout.name, name);
    const proc = startNode(
      name,
      'src/server.ts',
      {
        ...env,
        ...c.env,
        PORT: String(port),
        TENPO_WORKER: layout.name === 'single' ? 'true' : 'false',
      },
      { cwd: apiDir, nodeArgs: profArgs(layout.name, name), preload: c.preload },
    );
    return { proc, base: `http://127.0.0.1:${port}` };
  });
  const workers: Proc[] = [];
  if (layout.name === 'scale')
    for (let i = 0; i < WORKERS; i++) {
      const port = await freePort();
      const name = `worker${i + 1}`;
      const c = counting(layout.name, name);
      const proc = startNode(
        name,
        'src/worker.ts',
        { ...env, ...c.env, WORKER_HEALTH_PORT: String(port) },
        { cwd: apiDir, nodeArgs: profArgs(layout.name, name), preload: c.preload },
      );
      workers.push(proc);
      // Ready once its queue runs (its probe answers 200 after the jobs are started).
      await waitReady(proc, () => answers200(`http://127.0.0.1:${port}/api/health/ready`));
    }
  for (const a of apis)
    await waitReady(a.proc, () => answers200(`${a.base}/api/health/ready`), 120_000);
  return { apis, workers, all: [...apis.map((a) => a.proc), ...workers] };
}

async function httpLogin(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** One POST /api/posts to every store of `ids`, due in an hour; its time and submission id. */
async function postToAll(
  base: string,
  token: string,
  ids: number[],
  content: string,
  channels: PublisherKey[],
  withPhoto: boolean,
): Promise<{ ms: number; submission: string }> {
  const form = new FormData();
  form.set('user_id', ids.join(','));
  form.set('content', content);
  form.set('shared_sns_type', channels.join(','));
  form.set('publish_date', formatPostDate(new Date(Date.now() + 3600_000)));
  if (withPhoto)
    form.set('medias[0]', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  const t0 = performance.now();
  const res = await fetch(`${base}/api/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-api-key': API_KEY },
    body: form,
  });
  const body = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`POST /api/posts ${res.status}: ${body.slice(0, 500)}`);
  const data = (JSON.parse(body) as { data: { submission_id: string; held_count: number } }).data;
  if (data.held_count) throw new Error(`${data.held_count} posts held for approval`);
  return { ms, submission: data.submission_id };
}

// ---------------------------------------------------------------------------------------------
// The burst.

/**
 * Each post a text of its own and each target and job an account of its store's (see the top),
 * and every publish job due at T: the posts' publish time, and the jobs of the layout's driver.
 */
async function makeDue(h: DbHandle, driver: Layout['driver'], subs: string[], T: Date) {
  const db = h.db;
  const posts = db.selectFrom('posts').select('id').where('submission_id', 'in', subs);
  await db
    .updateTable('post_targets')
    .set({ account: sql<string>`account || '#' || store_id` })
    .where('account', 'is not', null)
    .where('post_id', 'in', posts)
    .execute();
  await db
    .updateTable('posts')
    .set({ content: sql<string>`content || ' #' || store_id`, publish_at: iso(T) })
    .where('submission_id', 'in', subs)
    .execute();
  if (driver === 'table') {
    await sql`
      update jobs set run_at = ${iso(T)},
        payload = case when json_extract(payload, '$.account') is null then payload
          else json_set(payload, '$.account',
            json_extract(payload, '$.account') || '#' || json_extract(payload, '$.storeId')) end
      where queue = ${PUBLISH_QUEUE} and status = 'queued'`.execute(db);
  } else {
    // pg-boss keeps its own jobs (schema pgboss of the bench's database).
    await sql`
      update pgboss.job set start_after = ${iso(T)}::timestamptz,
        data = case when data #>> '{payload,account}' is null then data
          else jsonb_set(data, '{payload,account}', to_jsonb(
            (data #>> '{payload,account}') || '#' || (data #>> '{payload,storeId}'))) end
      where name = ${PUBLISH_QUEUE} and state = 'created'`.execute(db);
  }
}

/** The publish jobs due at T, as the layout's driver keeps them (the check that all are). */
async function dueJobs(h: DbHandle, driver: Layout['driver'], T: Date): Promise<number> {
  const r =
    driver === 'table'
      ? await sql<{
          n: number;
        }>`select count(*) as n from jobs where queue = ${PUBLISH_QUEUE} and run_at = ${iso(T)}`.execute(
          h.db,
        )
      : await sql<{
          n: number;
        }>`select count(*) as n from pgboss.job where name = ${PUBLISH_QUEUE} and start_after = ${iso(T)}::timestamptz`.execute(
          h.db,
        );
  return Number(r.rows[0]?.n ?? 0);
}

/** CPU seconds of every process of the run: Tenpo's, the sandbox, PostgreSQL's backends. */
async function readCpu(procs: Proc[], h: DbHandle): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const p of procs) out.set(p.name, cpuSeconds(p.child.pid));
  if (h.dialect === 'postgres') {
    const r = await sql<{
      pid: number;
    }>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(
      h.db,
    );
    for (const { pid } of r.rows) out.set(`pg:${pid}`, cpuSeconds(pid));
  }
  return out;
}

/**
 * BENCH_DEBUG on PostgreSQL: what the bench database's backends are doing, sampled every 20 ms
 * through the window (state, wait event, the statement's start), printed as a tally.
 */
function sampleBackends(h: DbHandle): { stop: () => Promise<void> } {
  const tally = new Map<string, number>();
  let samples = 0;
  let on = true;
  const loop = (async () => {
    while (on) {
      const r = await sql<{
        s: string;
      }>`select coalesce(state, '-') || ' | ' || coalesce(wait_event_type || ':' || wait_event, 'cpu') || ' | ' || regexp_replace(left(query, 70), '[[:space:]]+', ' ', 'g') as s
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
           and state <> 'idle'`.execute(h.db);
      samples += 1;
      for (const { s } of r.rows) tally.set(s, (tally.get(s) ?? 0) + 1);
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      on = false;
      await loop;
      console.log(
        `  PostgreSQL backends not idle, mean over ${samples} samples (state | wait | query):`,
      );
      for (const [k, n] of [...tally].sort((a, b) => b[1] - a[1]).slice(0, 25))
        console.log(`    ${(n / samples).toFixed(2).padStart(6)}  ${k}`);
    },
  };
}

type Burst = {
  T: number;
  k: number;
  creates: { at: number; channel: PublisherKey }[];
  calls: SandboxCall[];
  windowMs: number;
  cpu: { name: string; s: number }[];
  states: Record<string, number>;
  /** BENCH_DEBUG: the statements each Tenpo process sent in the window, by kind. */
  statements: Map<string, [number, number]> | null;
};

/** What support/scale-count.ts wrote at the window's end, summed over the processes. */
async function readCounts(layout: string, procs: Proc[]): Promise<Map<string, [number, number]>> {
  const all = new Map<string, [number, number]>();
  for (const p of procs) {
    const file = `${countFile(layout, p.name)}.2.json`;
    for (let i = 0; i < 50 && !fs.existsSync(file); i++) await sleep(50);
    if (!fs.existsSync(file)) continue;
    const counts = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, [number, number]>;
    for (const [k, [n, ms]] of Object.entries(counts)) {
      all.set(`${p.name}\t${k}`, [n, ms]);
      const sum = all.get(`*\t${k}`) ?? [0, 0];
      all.set(`*\t${k}`, [sum[0] + n, sum[1] + ms]);
    }
  }
  return all;
}

async function burst(
  sb: Sandbox,
  h: DbHandle,
  layout: Layout,
  subs: string[],
  procs: Proc[],
): Promise<Burst> {
  const targets = STORES * 4;
  const k = Math.max(1, Math.min(RATE_FIRST, Math.floor(targets * 0.75)));
  const T = Date.now() + 2500;
  await makeDue(h, layout.driver, subs, new Date(T));
  const due = await dueJobs(h, layout.driver, new Date(T));
  if (due !== targets) throw new Error(`${due} publish jobs due at T, expected ${targets}`);
  if (Date.now() > T - 300) throw new Error('making the jobs due took longer than T allows');
  await sleep(T - Date.now());
  const cpu0 = await readCpu([sb.proc, ...procs], h);
  if (DEBUG) for (const p of procs) p.child.kill('SIGUSR2');
  const deadline = T + DEADLINE_S * 1000;
  const sampling = DEBUG && h.dialect === 'postgres' ? sampleBackends(h) : null;
  while (Date.now() < deadline && (await sb.count(T)) < k) await sleep(200);
  const windowMs = Date.now() - T;
  const cpu1 = await readCpu([sb.proc, ...procs], h);
  if (DEBUG) for (const p of procs) p.child.kill('SIGUSR2');
  if (sampling) await sampling.stop();
  const statements = DEBUG ? await readCounts(layout.name, procs) : null;
  // A backend that connected during the window spent all its CPU in it.
  const cpu = [...cpu1].map(([name, s]) => ({
    name,
    s: s - (cpu0.get(name) ?? (name.startsWith('pg:') ? 0 : NaN)),
  }));
  const calls = await sb.calls(T - 1000);
  const creates = calls
    .map((c) => ({ at: c.at, channel: channelOf(c) }))
    .filter((c): c is { at: number; channel: PublisherKey } => c.channel !== null)
    .sort((a, b) => a.at - b.at);
  const early = creates.filter((c) => c.at < T).length;
  if (early > 0) throw new Error(`${early} publish calls reached the sandbox before T`);
  const rows = await h.db.selectFrom('post_targets').select('state').execute();
  const states: Record<string, number> = {};
  for (const r of rows) states[r.state] = (states[r.state] ?? 0) + 1;
  return { T, k, creates, calls, windowMs, cpu, states, statements };
}

// ---------------------------------------------------------------------------------------------

type Result = {
  layout: Layout;
  postTextMs: number;
  postPhotoMs: number;
  burst: Burst;
  /** Targets per second over the first k publish calls, from T and from the first call. */
  rate: number;
  rateFromFirst: number;
  load: string;
};

/** One layout's run, from a fresh sandbox and database to every process stopped. */
async function measure(name: Layout['name'], round: number): Promise<Result> {
  let drop = async (): Promise<void> => {};
  let layout: Layout;
  if (name === 'single')
    layout = {
      name,
      round,
      label: '1 process (server.ts with its worker), SQLite, table job driver',
      databaseUrl: `sqlite:${path.join(tmpRoot, `single-${round}.sqlite`)}`,
      driver: 'table',
    };
  else {
    const db = await scratchDatabase(round);
    drop = db.drop;
    layout = {
      name,
      round,
      label: `${API_PROCS} API processes (server.ts, TENPO_WORKER=false) + ${WORKERS} workers (worker.ts), PostgreSQL (database ${new URL(db.url).pathname.slice(1)}), pg-boss`,
      databaseUrl: db.url,
      driver: 'pg-boss',
    };
  }
  try {
    return await measureLayout(layout);
  } finally {
    await drop();
  }
}

async function measureLayout(layout: Layout): Promise<Result> {
  const dir = path.join(tmpRoot, `tenpo-${layout.name}-${layout.round}`);
  fs.mkdirSync(dir, { recursive: true });
  let h: DbHandle | null = null;
  try {
    const sb = await startSandbox(`${layout.name}-${layout.round}`);
    const apiPorts = await Promise.all(
      Array.from({ length: layout.name === 'single' ? 1 : API_PROCS }, () => freePort()),
    );
    const env = tenpoEnv(layout, dir, sb.url, apiPorts[0] as number);
    await seedTenpo(env);
    h = openDatabase(layout.databaseUrl);
    const tenpo = await startTenpo(layout, env, apiPorts);
    const ids = await addStores(h.db, STORES);
    // The posts, through the API (the first API process; the photo post through the last).
    const first = tenpo.apis[0] as Tenpo['apis'][number];
    const last = tenpo.apis[tenpo.apis.length - 1] as Tenpo['apis'][number];
    const token = await httpLogin(first.base, 'agency@tenpo.example');
    const text = await postToAll(
      first.base,
      token,
      ids,
      `規模 ${run} ${layout.name} 本日のおすすめランチ`,
      TEXT_CHANNELS,
      false,
    );
    const ig = await postToAll(
      last.base,
      token,
      ids,
      `規模 ${run} ${layout.name} 写真 本日のおすすめ`,
      ['instagram'],
      true,
    );
    const b = await burst(sb, h, layout, [text.submission, ig.submission], [...tenpo.all]);
    const load = machine();
    const kth = b.creates[b.k - 1];
    const firstAt = b.creates[0]?.at ?? NaN;
    return {
      layout,
      postTextMs: text.ms,
      postPhotoMs: ig.ms,
      burst: b,
      rate: kth ? b.k / ((kth.at - b.T) / 1000) : NaN,
      rateFromFirst: kth ? (b.k - 1) / ((kth.at - firstAt) / 1000) : NaN,
      load,
    };
  } finally {
    // Every process this layout started: Tenpo's first (with profiles asked for, each gets the
    // time to stop and write its own), then the sandbox.
    const procs = liveProcs();
    await stopProcs(
      procs.filter((p) => !p.name.startsWith('sandbox')),
      PROF ? 20_000 : 3000,
    );
    await h?.close();
    await stopProcs(procs, 3000);
  }
}

function debugCalls(calls: SandboxCall[]): void {
  const by = new Map<string, number[]>();
  for (const c of calls) {
    const k = `${c.method} ${c.path.replace(/\d{5,}/g, ':id')}`;
    by.set(k, [...(by.get(k) ?? []), c.ms]);
  }
  for (const [k, v] of by)
    console.log(
      `    ${k.padEnd(70)} n ${v.length} median ${[...v].sort((a, b) => a - b)[v.length >> 1]} ms`,
    );
}

/** BENCH_DEBUG: the statements of the window by kind, per publish, with their mean time. */
function printStatements(b: Burst, statements: Map<string, [number, number]>): void {
  const rows = [...statements];
  const sum = rows.filter(([k]) => k.startsWith('*\t') && !k.includes('(pool connect)'));
  const total = sum.reduce((a, [, [n]]) => a + n, 0);
  const per = (n: number) => fmt(n / b.k, 2);
  const byProc = new Map<string, number>();
  for (const [k, [n]] of rows)
    if (!k.startsWith('*\t') && !k.includes('(pool connect)')) {
      const name = k.slice(0, k.indexOf('\t'));
      byProc.set(name, (byProc.get(name) ?? 0) + n);
    }
  console.log(
    `    statements to the database in the window: ${total} = ${per(total)} per publish; by process: ${[...byProc].map(([p, n]) => `${p} ${n}`).join(', ')}`,
  );
  console.log('    per publish   count   mean ms  total ms  statement');
  const all = rows.filter(([k]) => k.startsWith('*\t'));
  for (const [k, [n, ms]] of all.sort((x, y) => y[1][1] - x[1][1]).slice(0, 30))
    console.log(
      `    ${per(n).padStart(11)} ${String(n).padStart(7)} ${fmt(ms / n, 2).padStart(9)} ${fmt(ms).padStart(9)}  ${k.slice(2)}`,
    );
}

function print(r: Result): void {
  const b = r.burst;
  const inK = b.creates.slice(0, b.k);
  const mix = ALL.map((key) => `${key} ${inK.filter((c) => c.channel === key).length}`).join(', ');
  const google = inK.filter((c) => c.channel === 'google_my_business').length;
  const reviews = b.calls.filter((c) => c.method === 'GET' && /\/reviews$/.test(c.path)).length;
  const kth = inK[b.k - 1];
  console.log(`\n${r.layout.name}, round ${r.layout.round}: ${r.layout.label}`);
  console.log(
    `  POST /api/posts to ${STORES.toLocaleString('en')} stores: text to Google, Facebook and X ${fmt(r.postTextMs / 1000, 2)} s; photo to Instagram ${fmt(r.postPhotoMs / 1000, 2)} s`,
  );
  if (!kth) {
    console.log(
      `  only ${b.creates.length} of the first ${b.k} publish calls reached the sandbox by T+${DEADLINE_S} s; targets ${JSON.stringify(b.states)}`,
    );
    return;
  }
  console.log(
    `  first ${b.k} publish calls (${mix}): the first at T+${fmt((b.creates[0]?.at ?? NaN) - b.T)} ms, the ${b.k}th at T+${fmt(kth.at - b.T)} ms`,
  );
  console.log(
    `  ${fmt(r.rate, 1)} targets/s from T (${fmt(r.rateFromFirst, 1)} from the first call); ${google} of them Google (its limiter holds from the 301st)${google > 300 ? ' — OVER 300: the window includes Google hand-backs' : ''}`,
  );
  const cpu = b.cpu
    .filter((c) => !c.name.startsWith('pg:'))
    .map((c) => `${c.name} ${fmt(c.s, 1)}`)
    .join(', ');
  const pgCpu = b.cpu.filter((c) => c.name.startsWith('pg:')).reduce((a, c) => a + c.s, 0);
  console.log(
    `  CPU seconds in the ${fmt(b.windowMs / 1000, 1)} s window: ${cpu}${r.layout.driver === 'pg-boss' ? `, PostgreSQL backends ${fmt(pgCpu, 1)}` : ''} (${r.load})`,
  );
  if (reviews > 0)
    console.log(
      `  note: ${reviews} reviews reads fell in the window (the demo stores' round at start, or an hourly one)`,
    );
  if (DEBUG) {
    debugCalls(b.calls.filter((c) => c.at <= kth.at));
    // Publish calls per 500 ms from T: steady, or in waves.
    const per: number[] = [];
    for (const c of inK) {
      const i = Math.floor((c.at - b.T) / 500);
      per[i] = (per[i] ?? 0) + 1;
    }
    console.log(`    per 500 ms from T: ${Array.from(per, (n) => n ?? 0).join(' ')}`);
    if (b.statements) printStatements(b, b.statements);
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
};
/** CPU milliseconds per publish of the window: every process of the layout, the sandbox and PostgreSQL's backends. */
const cpuPerPublish = (r: Result): number =>
  (r.burst.cpu.reduce((a, c) => a + (Number.isFinite(c.s) ? c.s : 0), 0) * 1000) / r.burst.k;

function summary(results: Result[]): void {
  const of = (name: Layout['name']) => results.filter((r) => r.layout.name === name);
  const single = of('single');
  const scale = of('scale');
  if (!single.length || !scale.length) return;
  const best = (rs: Result[]) => Math.max(...rs.map((r) => (Number.isFinite(r.rate) ? r.rate : 0)));
  const k = single[0]?.burst.k ?? RATE_FIRST;
  const ratio = best(scale) / best(single);
  console.log(
    `\nscale / single, targets/s over the first ${k} publishes from T, the best of ${ROUNDS} round(s) each (${single.map((r) => fmt(r.rate, 1)).join(', ')} single; ${scale.map((r) => fmt(r.rate, 1)).join(', ')} scale): ${fmt(best(scale), 1)} / ${fmt(best(single), 1)} = ${fmt(ratio, 2)}× (goal ≥ ${GOAL}: ${ratio >= GOAL ? 'met' : 'short'})`,
  );
  const cs = median(single.map(cpuPerPublish));
  const cx = median(scale.map(cpuPerPublish));
  console.log(
    `CPU per publish in the window (every process of the layout, the sandbox and PostgreSQL's backends; median of the rounds): single ${fmt(cs, 1)} ms, scale ${fmt(cx, 1)} ms: single / scale ${fmt(cs / cx, 2)}, the ratio the rates tend to where the cores are the limit (${machine()})`,
  );
  console.log(
    `POST /api/posts to ${STORES.toLocaleString('en')} stores (median of the rounds) answers in ${fmt(median(scale.map((r) => r.postTextMs)) / 1000, 2)} s on scale against ${fmt(median(single.map((r) => r.postTextMs)) / 1000, 2)} s on single (text, 3 channels: ${(STORES * 3).toLocaleString('en')} targets), ${fmt(median(scale.map((r) => r.postPhotoMs)) / 1000, 2)} s against ${fmt(median(single.map((r) => r.postPhotoMs)) / 1000, 2)} s (photo, Instagram)`,
  );
}

async function main(): Promise<void> {
  console.log(
    `Scale mode (issue 26 P9), Node ${process.version}, ${machine()}: ${STORES.toLocaleString('en')} stores × 4 channels (one POST /api/posts of a text to Google, Facebook and X, one of a photo to Instagram, every store in each), every publish job due at T; each layout against a fresh sandbox in its own process; ${ROUNDS} round(s), the layouts in turn`,
  );
  const withScale = LAYOUTS.includes('scale') && (await pgReachable());
  await sweep(withScale);
  const results: Result[] = [];
  for (let round = 1; round <= ROUNDS; round++)
    for (const name of ['single', 'scale'] as const) {
      if (!LAYOUTS.includes(name) || (name === 'scale' && !withScale)) continue;
      const r = await measure(name, round);
      results.push(r);
      print(r);
    }
  summary(results);
}

const cleanup = async (): Promise<void> => {
  killAll();
  for (const drop of dropLater) await drop().catch((err: unknown) => console.error(err));
  fs.rmSync(tmpRoot, { recursive: true, force: true });
};
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    void cleanup().finally(() => process.exit(1));
  });
process.once('exit', killAll);
main().then(
  async () => {
    await cleanup();
    process.exit(0);
  },
  async (err: unknown) => {
    console.error(err);
    await cleanup();
    process.exit(1);
  },
);
