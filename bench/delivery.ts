// Issue 9, "Measure" (delivery): the real delivery path — posts with their targets and
// `post.publish` jobs, the job engine's worker loop, the channels — against the sandbox on a port
// of its own, in a process of its own (bench/support/sandbox-server.ts records when each call
// reached it). SQLite; PostgreSQL with BENCH_DATABASE_URL or TEST_DATABASE_URL set.
//
// 1. 1,000 stores × 4 channels due at the same instant T: the time from T to the last publish
//    call that reached the sandbox, and targets per second, against the sandbox's own accept
//    rate measured alone in this run: the same provider calls made straight to a fresh sandbox by
//    a plain HTTP client, BENCH_REF_CONCURRENCY in flight, no Tenpo (run before and after
//    Tenpo's, the faster kept). Target: ≥ 25 %. The rate is
//    read over the whole run and over the first BENCH_RATE_FIRST publishes of each side, which
//    come before any of Tenpo's own limiters holds a target.
// 2. A lone scheduled post (a photo to the four channels): due → its first provider call, p99
//    over BENCH_LONE samples (target ≤ 2 s), against the job engine's own lone-job due → start
//    p99 measured the same way in the same world.
//
// What is timed: only delivery. The stores (copies of the demo shop's connections and sealed
// grants, written to the database as the seed writes the demo's) and their posts (made by the
// posts service as POST /api/posts makes them: per store a text post to Google, Facebook and X,
// and a photo post to Instagram, which needs one) are made first, an hour ahead; then every
// publish job is made due at T while the worker runs. The stores share the demo shop's provider
// accounts (one location, one Page and its Instagram account, one X user) at the sandbox, though
// each target names an account of its own store for Tenpo's per-account limits; each post with a text
// of its own (Facebook and X refuse duplicates), so the sandbox's per-account limits and its
// Google QPM are raised on both sides. Tenpo's own limiters (CHANNEL_LIMITS in packages/domain)
// are left as they are: once what is left is held past BENCH_DEADLINE_S, the bench stops and
// says which targets are held and until when.
// Run: node_modules/.bin/node --import tsx bench/delivery.ts (bench/run-all.mjs runs it too).
// BENCH_DEBUG=1 prints the sandbox's time per call path; BENCH_SANDBOX_PROF=<dir> profiles it;
// BENCH_PHASES=ref,burst,lone picks the parts.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { POST_BUTTON, type PublisherKey } from '@tenpo/domain';
import { sandboxDemoGrants } from '@tenpo/sandbox';
import { buildApp } from '../apps/api/src/app';
import { demoSeedFor } from '../apps/api/src/compose';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase, type DbHandle } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import type { UserRow } from '../apps/api/src/db/types';
import { iso, systemClock } from '../apps/api/src/lib/clock';
import type { ResolvedMedium } from '../apps/api/src/modules/posts/posts.create';
import { PUBLISH_QUEUE } from '../apps/api/src/modules/posts/posts.jobs';
import { API_KEY, login } from '../apps/api/test/helpers';
import { connectThroughConsent, consent, freePort, X_USER } from '../apps/api/test/sandbox';
import { scratchSchema } from './support/pg-schema';
import { postsServiceOf } from './support/posts-service';

const STORES = Number(process.env.BENCH_STORES ?? 1000);
const LONE = Number(process.env.BENCH_LONE ?? 40);
// BENCH_DEADLINE_S=240 waits out Google's default 300 a minute per project for all 1,000 (about 3 minutes).
const DEADLINE_S = Number(process.env.BENCH_DEADLINE_S ?? 45);
const REF_CONCURRENCY = Number(process.env.BENCH_REF_CONCURRENCY ?? 16);
/** PostgreSQL instead of SQLite (a schema of its own, dropped at the end), when set. */
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? null;
/** The rate is also read over the first this many publishes (see main). */
const RATE_FIRST = Number(process.env.BENCH_RATE_FIRST ?? 600);
/** Which parts run (for profiling one alone): ref, burst, lone. */
const PHASES = (process.env.BENCH_PHASES ?? 'ref,burst,lone').split(',');
const ALL: PublisherKey[] = ['google_my_business', 'facebook', 'instagram', 'twitter'];
const TEXT_CHANNELS: PublisherKey[] = ['google_my_business', 'facebook', 'twitter'];
/** The call that makes the post at each provider (what "a publish call" means below). */
const CREATE: Record<PublisherKey, RegExp> = {
  google_my_business: /\/localPosts$/,
  facebook: /\/(feed|photos|videos)$/,
  instagram: /\/media_publish$/,
  twitter: /\/2\/tweets$/,
};
/** The sandbox's limits that 1,000 stores on one demo account would hit, raised (see above). */
const RAISED = {
  google: { queriesPerMinute: 10_000_000 },
  facebook: { pageCallsPerHour: 10_000_000, userCallsPerHour: 10_000_000 },
  instagram: { quotaTotal: 10_000_000 },
  x: { tweetsPer15MinPerUser: 10_000_000, tweetsPer24hPerApp: 10_000_000 },
};

const here = path.dirname(fileURLToPath(import.meta.url));
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-delivery-'));
const children = new Set<ChildProcess>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p99 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] ?? NaN;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const fmt = (n: number, d = 0): string => (Number.isFinite(n) ? n.toFixed(d) : '—');
const run = Date.now().toString(36);

// ---------------------------------------------------------------------------------------------
// The sandbox, in a process of its own.

type SandboxCall = { at: number; ms: number; method: string; path: string; status: number };
type Sandbox = {
  /** The base URL as Tenpo's SANDBOX_URL takes it (…/sandbox). */
  url: string;
  calls: (since?: number) => Promise<SandboxCall[]>;
  clearCalls: () => Promise<void>;
  stop: () => Promise<void>;
};

async function startSandbox(name: string): Promise<Sandbox> {
  const dir = path.join(tmpRoot, `sandbox-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SANDBOX_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SANDBOX_PROF}`]
        : []),
      '--import',
      'tsx',
      path.join(here, 'support', 'sandbox-server.ts'),
    ],
    {
      env: { ...process.env, PORT: String(port), DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('sandbox ready')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out.slice(-2000)}`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  const url = `${origin}/sandbox`;
  const res = await fetch(`${url}/control/settings`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(RAISED),
  });
  if (!res.ok) throw new Error(`sandbox settings: ${res.status}`);
  return {
    url,
    calls: async (since = 0) =>
      (
        (await (await fetch(`${origin}/bench/calls?since=${since}`)).json()) as {
          data: SandboxCall[];
        }
      ).data,
    clearCalls: async () => {
      await fetch(`${origin}/bench/calls`, { method: 'DELETE' });
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5000)]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const channelOf = (c: SandboxCall): PublisherKey | null => {
  if (c.method !== 'POST' || c.status >= 300) return null;
  if (CREATE.instagram.test(c.path)) return 'instagram';
  if (CREATE.google_my_business.test(c.path)) return 'google_my_business';
  if (CREATE.facebook.test(c.path)) return 'facebook';
  if (CREATE.twitter.test(c.path)) return 'twitter';
  return null;
};

/** A photo every channel takes (a square JPEG of some 40 KB). */
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

function debugCalls(calls: SandboxCall[]): void {
  const by = new Map<string, number[]>();
  for (const c of calls) {
    const k = `${c.method} ${c.path.replace(/\d{5,}/g, ':id')}`;
    by.set(k, [...(by.get(k) ?? []), c.ms]);
  }
  for (const [k, v] of by)
    console.log(
      `    ${k.padEnd(70)} n ${v.length} median ${median(v)} ms max ${Math.max(...v)} ms`,
    );
}

// ---------------------------------------------------------------------------------------------
// 1a. The reference: the same publish calls, straight to a fresh sandbox.

/** A phase's outcome; `creates`: when each accepted publish call arrived, in ms from the start. */
type Phase = {
  lastMs: number;
  published: number;
  calls: number;
  errors: number;
  creates: number[];
};

/** Targets per second over the first `k` publish calls (NaN when fewer were made). */
const rateOver = (p: Phase, k: number): number =>
  p.creates.length >= k ? k / ((p.creates[k - 1] as number) / 1000) : NaN;

async function reference(): Promise<Phase> {
  const sb = await startSandbox('reference');
  // The photo's host (Tenpo's media URL in the other phase): a bare node:http server.
  const media = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length });
    res.end(photo);
  });
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  const photoUrl = `http://127.0.0.1:${(media.address() as { port: number }).port}/photo.jpg`;
  try {
    const g = sandboxDemoGrants.google.find((x) => x.store === 'shop@tenpo.example');
    const f = sandboxDemoGrants.facebook.find((x) => x.email === 'shop@tenpo.example');
    if (!g || !f?.instagram) throw new Error('the demo shop has no seeded Google/Facebook grant');
    const account = '104772635510001234567';
    const graph = `${sb.url}/facebook/graph/v21.0`;
    const form = (o: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(o).toString(),
    });
    const ok = async (r: Response, what: string) => {
      if (r.status >= 300) throw new Error(`${what}: ${r.status} ${await r.text()}`);
      return (await r.json()) as Record<string, unknown>;
    };
    // X: an access token as the consent and the code exchange give it (PKCE plain).
    const verifier = 'bench-verifier-0123456789-0123456789-0123456789';
    const redirect = 'http://127.0.0.1/callback';
    const back = await consent(
      `${sb.url}/x/i/oauth2/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'tenpo-sandbox',
        redirect_uri: redirect,
        scope: 'tweet.read tweet.write users.read offline.access media.write',
        state: 'bench',
        code_challenge: verifier,
        code_challenge_method: 'plain',
      })}`,
      { user_id: X_USER, decision: 'allow' },
    );
    const xToken = (
      await ok(
        await fetch(`${sb.url}/x/api/2/oauth2/token`, {
          ...form({
            code: back.searchParams.get('code') ?? '',
            grant_type: 'authorization_code',
            redirect_uri: redirect,
            code_verifier: verifier,
            client_id: 'tenpo-sandbox',
          }),
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from('tenpo-sandbox:tenpo-sandbox-secret').toString('base64')}`,
          },
        }),
        'x token',
      )
    ).access_token as string;

    // One task per store × channel, in the order Tenpo's jobs are claimed (store by store).
    const tasks: (() => Promise<void>)[] = [];
    for (let i = 0; i < STORES; i++) {
      const text = (k: string) => `基準 ${run} 店${i} ${k} 本日のおすすめ`;
      tasks.push(async () => {
        // Each store holds a grant of its own: a refresh, then the local post.
        const tok = (
          await ok(
            await fetch(
              `${sb.url}/google/oauth2/token`,
              form({
                grant_type: 'refresh_token',
                refresh_token: g.refreshToken,
                client_id: 'tenpo-sandbox',
                client_secret: 'tenpo-sandbox-secret',
              }),
            ),
            'google token',
          )
        ).access_token as string;
        await ok(
          await fetch(
            `${sb.url}/google/mybusiness/v4/accounts/${account}/locations/${g.location.id}/localPosts`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${tok}` },
              body: JSON.stringify({
                languageCode: 'ja',
                summary: text('G'),
                topicType: 'STANDARD',
              }),
            },
          ),
          'google local post',
        );
      });
      tasks.push(async () => {
        await ok(
          await fetch(
            `${graph}/${f.page.id}/feed`,
            form({ message: text('F'), access_token: f.page.token }),
          ),
          'facebook feed',
        );
      });
      tasks.push(async () => {
        await ok(
          await fetch(`${sb.url}/x/api/2/tweets`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${xToken}` },
            body: JSON.stringify({ text: text('X') }),
          }),
          'x tweet',
        );
      });
      tasks.push(async () => {
        const ig = f.instagram?.id as string;
        const c = await ok(
          await fetch(
            `${graph}/${ig}/media`,
            form({ image_url: photoUrl, caption: text('I'), access_token: f.page.token }),
          ),
          'instagram container',
        );
        await ok(
          await fetch(
            `${graph}/${c.id as string}?fields=status_code,status&access_token=${f.page.token}`,
          ),
          'instagram status',
        );
        await ok(
          await fetch(
            `${graph}/${ig}/media_publish`,
            form({ creation_id: c.id as string, access_token: f.page.token }),
          ),
          'instagram publish',
        );
      });
    }
    await sb.clearCalls();
    let next = 0;
    let errors = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: REF_CONCURRENCY }, async () => {
        while (next < tasks.length) {
          const task = tasks[next++] as () => Promise<void>;
          await task().catch((err: unknown) => {
            errors += 1;
            if (errors <= 3) console.error(`reference: ${String(err)}`);
          });
        }
      }),
    );
    const calls = await sb.calls(t0);
    if (process.env.BENCH_DEBUG) debugCalls(calls);
    const creates = calls.filter((c) => channelOf(c) !== null);
    const last = Math.max(...creates.map((c) => c.at));
    return {
      lastMs: last - t0,
      published: creates.length,
      calls: calls.length,
      errors,
      creates: creates.map((c) => c.at - t0).sort((a, b) => a - b),
    };
  } finally {
    await new Promise((r) => media.close(r));
    await sb.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Tenpo: the API (its media served on a port, as providers fetch them) and its job engine.

type World = {
  sb: Sandbox;
  app: FastifyInstance;
  database: DbHandle;
  shop: UserRow;
  createPost: (
    store: UserRow,
    text: string,
    channels: PublisherKey[],
    at: Date,
    withPhoto: boolean,
  ) => Promise<void>;
  close: () => Promise<void>;
};

async function startWorld(name: string): Promise<World> {
  const sb = await startSandbox(name);
  const dir = path.join(tmpRoot, `tenpo-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  let dropSchema = async (): Promise<void> => {};
  const dbEnv: Record<string, string> = {};
  if (PG_URL) {
    const scratch = await scratchSchema(PG_URL);
    dbEnv.DATABASE_URL = scratch.url;
    // The figures of issue 9 were the table driver's; pg-boss is the default on PostgreSQL now.
    dbEnv.TENPO_JOB_DRIVER = process.env.BENCH_JOB_DRIVER ?? 'table';
    dropSchema = scratch.drop;
  }
  const config = loadConfig({
    ...dbEnv,
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    TENPO_API_KEY: API_KEY,
    TENPO_WORKER: 'false',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SANDBOX_URL: sb.url,
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
  });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedDemo(database.db, systemClock, demoSeedFor(config));
  const app = await buildApp(config, { database, logger: false, mail: { send: async () => {} } });
  await app.listen({ port, host: '127.0.0.1' });
  const db = database.db;
  const shop = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', 'shop@tenpo.example')
    .executeTakeFirstOrThrow();
  // X is left to connect in the demo data: the shop connects it as the browser does.
  const token = await login(app, 'shop@tenpo.example');
  await connectThroughConsent(app, token, shop.id, 'twitter', {
    user_id: X_USER,
    decision: 'allow',
  });
  const posts = postsServiceOf(app, config, db);
  const stored = await app.storage.put(Readable.from(photo), {
    folder: 'media/posts',
    ext: 'jpg',
    contentType: 'image/jpeg',
  });
  const medium: ResolvedMedium = {
    storage_key: stored.key,
    kind: 'photo',
    mime: 'image/jpeg',
    bytes: stored.size,
    width: 640,
    height: 640,
    duration_ms: null,
  };
  return {
    sb,
    app,
    database,
    shop,
    createPost: async (store, text, channels, at, withPhoto) => {
      await posts.create(
        store,
        [store],
        {
          storeIds: [store.id],
          content: text,
          buttonType: POST_BUTTON.none,
          buttonLink: null,
          phoneNumber: null,
          channels,
          publishAt: at,
          deleteAt: null,
          media: [],
        },
        withPhoto ? [medium] : [],
      );
    },
    close: async () => {
      await app.close();
      await database.close();
      await dropSchema();
      await sb.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stores 2…n: the demo shop's row, connections and sealed grants, under a login of their own. */
async function seedStores(w: World, n: number): Promise<UserRow[]> {
  const db = w.database.db;
  const { id: _id, ...shopRow } = w.shop;
  const connections = await db
    .selectFrom('publisher_connections')
    .selectAll()
    .where('user_id', '=', w.shop.id)
    .execute();
  const credentials = await db
    .selectFrom('channel_credentials')
    .selectAll()
    .where('user_id', '=', w.shop.id)
    .execute();
  for (const key of ALL) {
    if (
      !connections.some((c) => c.publisher_key === key) ||
      !credentials.some((c) => c.publisher_key === key)
    )
      throw new Error(`the demo shop has no ${key} connection to copy`);
  }
  const stores: UserRow[] = [w.shop];
  await db.transaction().execute(async (trx) => {
    for (let i = 1; i < n; i++) {
      const user = await trx
        .insertInto('users')
        .values({
          ...shopRow,
          email: `bench-store-${i}@tenpo.example`,
          store_name: `ベンチ店 ${i}`,
        })
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

// ---------------------------------------------------------------------------------------------
// 1b. Tenpo: 1,000 stores × 4 channels due at T.

type Burst = Phase & {
  seedS: number;
  byChannel: Record<string, { published: number; lastMs: number; states: Record<string, number> }>;
  held: { publisher: string; n: number; untilS: number }[];
  complete: boolean;
  /** Stopped because what was left waits past the deadline (else: the deadline passed). */
  heldOnly: boolean;
};

async function burst(): Promise<Burst> {
  const w = await startWorld('burst');
  try {
    const db = w.database.db;
    const s0 = performance.now();
    const stores = await seedStores(w, STORES);
    const later = new Date(Date.now() + 3600_000);
    for (const [i, store] of stores.entries()) {
      const text = (k: string) => `負荷 ${run} 店${i} ${k} 本日のおすすめ`;
      await w.createPost(store, text('GFX'), TEXT_CHANNELS, later, false);
      await w.createPost(store, text('I'), ['instagram'], later, true);
    }
    // The stores share the demo's provider accounts at the sandbox (its limits raised, above),
    // but 1,000 real stores have 1,000 accounts of their own: each target and its job name an
    // account of their store's, so Tenpo's per-account limits (Instagram's 25 a day, X's
    // windows) count per store as they would, while its per-app limits (Google's 300 a minute)
    // stay shared.
    await db
      .updateTable('post_targets')
      .set({ account: sql<string>`account || '#' || store_id` })
      .where('account', 'is not', null)
      .execute();
    const jobRows = await db
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('queue', '=', PUBLISH_QUEUE)
      .execute();
    await db.transaction().execute(async (trx) => {
      for (const j of jobRows) {
        const p = JSON.parse(j.payload) as { account?: string | null; storeId: number };
        if (!p.account) continue;
        p.account = `${p.account}#${p.storeId}`;
        await trx
          .updateTable('jobs')
          .set({ payload: JSON.stringify(p) })
          .where('id', '=', j.id)
          .execute();
      }
    });
    const seedS = (performance.now() - s0) / 1000;
    const total = await db
      .selectFrom('post_targets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(total.n) !== STORES * 4)
      throw new Error(`expected ${STORES * 4} targets, got ${total.n}`);

    // The worker runs; at T every publish job falls due at once.
    await w.app.queue.start();
    const T = Date.now() + 1500;
    await db
      .updateTable('posts')
      .set({ publish_at: iso(new Date(T)) })
      .execute();
    await db
      .updateTable('jobs')
      .set({ run_at: iso(new Date(T)) })
      .where('queue', '=', PUBLISH_QUEUE)
      .where('status', '=', 'queued')
      .execute();
    await w.sb.clearCalls();
    let complete = false;
    let held = false;
    const deadline = T + DEADLINE_S * 1000;
    while (Date.now() < deadline) {
      await sleep(250);
      const open = await db
        .selectFrom('post_targets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', 'not in', ['published', 'failed'])
        .executeTakeFirstOrThrow();
      if (Number(open.n) === 0) {
        complete = true;
        break;
      }
      // What is left waits past the deadline (a limiter's hand-back): no use waiting for it.
      const later = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('queue', '=', PUBLISH_QUEUE)
        .where('status', '=', 'queued')
        .where('run_at', '>', iso(new Date(deadline)))
        .executeTakeFirstOrThrow();
      if (Number(later.n) === Number(open.n)) {
        held = true;
        break;
      }
    }
    const calls = await w.sb.calls(T - 1000);
    if (process.env.BENCH_DEBUG) debugCalls(calls);
    const rows = await db.selectFrom('post_targets').select(['publisher_key', 'state']).execute();
    // Publish jobs waiting for a later time: a limiter's or a back-off's hand-back.
    const queued = await db
      .selectFrom('jobs')
      .select(['payload', 'run_at'])
      .where('queue', '=', PUBLISH_QUEUE)
      .where('status', '=', 'queued')
      .where('run_at', '>', iso(new Date()))
      .execute();
    await w.app.queue.stop({ graceMs: 2000 });
    const byChannel: Burst['byChannel'] = {};
    for (const key of ALL) {
      const mine = calls.filter((c) => channelOf(c) === key);
      const states: Record<string, number> = {};
      for (const r of rows.filter((x) => x.publisher_key === key))
        states[r.state] = (states[r.state] ?? 0) + 1;
      byChannel[key] = {
        published: mine.length,
        lastMs: mine.length ? Math.max(...mine.map((c) => c.at)) - T : NaN,
        states,
      };
    }
    const heldBy = new Map<string, { n: number; until: number }>();
    for (const j of queued) {
      const p = JSON.parse(j.payload) as { publisher: string };
      const h = heldBy.get(p.publisher) ?? { n: 0, until: 0 };
      h.n += 1;
      h.until = Math.max(h.until, new Date(j.run_at).getTime());
      heldBy.set(p.publisher, h);
    }
    const creates = calls.filter((c) => channelOf(c) !== null);
    const early = creates.filter((c) => c.at < T).length;
    if (early > 0)
      throw new Error(`${early} publish calls reached the sandbox before they were due`);
    return {
      seedS,
      lastMs: creates.length ? Math.max(...creates.map((c) => c.at)) - T : NaN,
      published: creates.length,
      calls: calls.length,
      errors: rows.filter((r) => r.state === 'failed').length,
      creates: creates.map((c) => c.at - T).sort((a, b) => a - b),
      byChannel,
      held: [...heldBy].map(([publisher, h]) => ({
        publisher,
        n: h.n,
        untilS: (h.until - T) / 1000,
      })),
      complete,
      heldOnly: held,
    };
  } finally {
    await w.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. A lone scheduled post, and the engine's lone job, in a world of their own.

async function lone(): Promise<{ post: number[]; job: number[] }> {
  const w = await startWorld('lone');
  try {
    const db = w.database.db;
    let started: ((at: number) => void) | null = null;
    w.app.queue.work('bench.lone', async () => {
      started?.(Date.now());
    });
    // Posts rotate over a few stores: Tenpo holds a store's Instagram posts past 25 a day.
    const stores = await seedStores(w, Math.ceil(LONE / 20));
    await w.app.queue.start();
    const post: number[] = [];
    const job: number[] = [];
    for (let i = 0; i < LONE; i++) {
      // A scheduled post, due a moment after it is made, at a random phase against the poll.
      await w.sb.clearCalls();
      const due = Date.now() + 500 + Math.random() * 300;
      await w.createPost(
        stores[i % stores.length] as UserRow,
        `単発 ${run} 第${i + 1}便 本日のおすすめ`,
        ALL,
        new Date(due),
        true,
      );
      for (let k = 0; k < 300; k++) {
        const open = await db
          .selectFrom('post_targets')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', 'not in', ['published', 'failed'])
          .executeTakeFirstOrThrow();
        if (Number(open.n) === 0) break;
        await sleep(50);
      }
      const calls = await w.sb.calls();
      if (calls.length === 0) throw new Error(`lone post ${i + 1}: no provider call`);
      const first = Math.min(...calls.map((c) => c.at));
      if (first < due)
        throw new Error(`lone post ${i + 1}: a provider call ${due - first} ms before due`);
      post.push(first - due);
      // The engine's own lone job, scheduled the same way.
      const jobDue = Date.now() + 500 + Math.random() * 300;
      const at = new Promise<number>((r) => (started = r));
      await w.app.queue.enqueue('bench.lone', {}, { runAt: new Date(jobDue) });
      job.push((await at) - jobDue);
    }
    const failed = await db
      .selectFrom('post_targets')
      .select(['publisher_key', 'error_lines'])
      .where('state', '=', 'failed')
      .execute();
    if (failed.length)
      throw new Error(`lone posts: ${failed.length} targets failed: ${JSON.stringify(failed[0])}`);
    await w.app.queue.stop({ graceMs: 2000 });
    return { post, job };
  } finally {
    await w.close();
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  console.log(
    `Delivery on ${PG_URL ? `PostgreSQL (${process.env.BENCH_JOB_DRIVER ?? 'table'} driver)` : 'SQLite'}, Node ${process.version}: ${STORES} stores × 4 channels (text to Google, Facebook, X; a photo to Instagram), sandbox in its own process`,
  );
  // The reference runs before and after Tenpo's burst, and the faster is kept: on a machine
  // shared with other work, a busy moment must not make the sandbox look slow.
  const none: Phase = { lastMs: NaN, published: 0, calls: 0, errors: 0, creates: [] };
  const refs = [PHASES.includes('ref') ? await reference() : none];
  const b = PHASES.includes('burst') ? await burst() : null;
  if (PHASES.includes('ref')) refs.push(await reference());
  const ref = refs.reduce((x, y) => (y.lastMs < x.lastMs ? y : x));
  if (!b) {
    console.log(refs);
    return;
  }
  const targets = STORES * 4;
  const refRate = ref.published / (ref.lastMs / 1000);
  console.log(
    `\nreference: the same publish calls straight to the sandbox, ${REF_CONCURRENCY} in flight; the faster of ${refs.length} runs (${refs.map((r) => `${fmt(r.lastMs)} ms`).join(', ')})`,
  );
  console.log(
    `  ${ref.published} of ${targets} accepted, last at ${fmt(ref.lastMs)} ms: ${fmt(refRate, 1)} targets/s (${ref.calls} calls, ${fmt(ref.calls / Math.max(1, ref.published), 2)} per target, ${ref.errors} errors)`,
  );
  console.log(`\nTenpo: every publish job due at T (seeding, not timed: ${fmt(b.seedS, 1)} s)`);
  for (const key of ALL) {
    const c = b.byChannel[key];
    if (!c) continue;
    console.log(
      `  ${key.padEnd(19)} ${String(c.published).padStart(4)} published, last at T+${fmt(c.lastMs)} ms   ${JSON.stringify(c.states)}`,
    );
  }
  const rate = b.published / (b.lastMs / 1000);
  const cut = b.complete
    ? ''
    : b.heldOnly
      ? `before what was left was held past T+${DEADLINE_S} s`
      : `by the deadline, T+${DEADLINE_S} s`;
  console.log(
    `  ${b.published} of ${targets} published ${cut}; last publish call at T+${fmt(b.lastMs)} ms: ${fmt(rate, 1)} targets/s (${b.calls} calls, ${fmt(b.calls / Math.max(1, b.published), 2)} per target, ${b.errors} failed)`,
  );
  for (const h of b.held)
    console.log(
      `  held by Tenpo's limiter: ${h.n} ${h.publisher} targets, the last due again at T+${fmt(h.untilS)} s`,
    );
  console.log(
    `  due → last publish call: ${b.complete ? `${fmt(b.lastMs)} ms` : `not reached ${b.heldOnly ? '(held, above)' : `by T+${DEADLINE_S} s`}`}; reference ${fmt(ref.lastMs)} ms`,
  );
  console.log(
    `  targets/s, whole run: ${fmt(rate, 1)} = ${fmt((rate / refRate) * 100, 1)} % of the sandbox's ${fmt(refRate, 1)} (target ≥ 25 %)${b.complete ? '' : `, over the targets published ${cut}`}`,
  );
  // Tenpo's Facebook limit (200 an hour for the app) binds after ~200 stores: the first K
  // publishes measure delivery before any limiter of Tenpo's holds a target.
  const k = Math.min(RATE_FIRST, b.creates.length, ref.creates.length);
  const early = rateOver(b, k);
  const refEarly = Math.max(...refs.map((r) => rateOver(r, k)));
  console.log(
    `  targets/s over the first ${k} publishes (before a limiter holds): ${fmt(early, 1)} = ${fmt((early / refEarly) * 100, 1)} % of the sandbox's ${fmt(refEarly, 1)} over its first ${k} (target ≥ 25 %)`,
  );
  if (!PHASES.includes('lone')) return;
  const l = await lone();
  const postP99 = p99(l.post);
  const jobP99 = p99(l.job);
  console.log(`\nlone scheduled post (a photo to the four channels), ${l.post.length} samples`);
  console.log(
    `  due → first provider call  p50 ${fmt(median(l.post))} ms  p99 ${fmt(postP99)} ms (target ≤ 2000 ms: ${fmt(postP99 / 2000, 2)}×)`,
  );
  console.log(
    `  reference: the job engine's lone job due → start  p50 ${fmt(median(l.job))} ms  p99 ${fmt(jobP99)} ms (post / job ${fmt(postP99 / Math.max(1, jobP99), 2)}×)`,
  );
}

const cleanup = (): void => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(tmpRoot, { recursive: true, force: true });
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
