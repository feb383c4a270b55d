// Times one store's 25-month metrics backfill (ADR 0035: the daily series in requests of three
// months, the 24 keyword months one by one, each request's rows and month rollups in one
// transaction) against the Google emulator, and as reference the same provider calls made bare
// with fetch in the same run (same ranges, same pages, answers parsed and dropped).
// Run: npx tsx bench/metrics-backfill.ts (or npm run bench) (BENCH_ROUNDS, default 5). Prints the ratio.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { googleMetricOf, METRIC_FIELDS, tokyoDay } from '@tenpo/domain';
import { createMailbox, sandboxPlugin } from '@tenpo/sandbox';
import { buildApp } from '../apps/api/src/app';
import { credentialHandle } from '../apps/api/src/channels/channel';
import { demoSeedFor } from '../apps/api/src/compose';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import { systemClock } from '../apps/api/src/lib/clock';
import { dayRequests, keywordMonths, windowOf } from '../apps/api/src/modules/metrics/metrics.sync';
import { createPublisherRepo } from '../apps/api/src/modules/publisher/publisher.repo';
import { createPublisherService } from '../apps/api/src/modules/publisher/publisher.service';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-metrics-'));
// The emulator on a port of its own, as the product mounts it.
const sandbox = Fastify({ logger: false });
await sandbox.register(
  async (scope) => {
    await scope.register(sandboxPlugin, {
      dataDir: path.join(dir, 'sandbox'),
      baseUrl: 'http://127.0.0.1:0/sandbox',
      mailbox: createMailbox(null),
    });
  },
  { prefix: '/sandbox' },
);
await sandbox.listen({ port: 0, host: '127.0.0.1' });
const sandboxUrl = `http://127.0.0.1:${(sandbox.server.address() as { port: number }).port}/sandbox`;
// Google's 300 queries a minute would make the rounds wait for it: both sides would wait alike.
await fetch(`${sandboxUrl}/control/settings`, {
  method: 'PATCH',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ google: { queriesPerMinute: 1_000_000 } }),
});

const config = loadConfig({
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  TENPO_WORKER: 'false',
  SANDBOX_URL: sandboxUrl,
});
const database = openDatabase(config.databaseUrl);
await migrateToLatest(database);
await seedDemo(database.db, systemClock, demoSeedFor(config));
const app = await buildApp(config, { database, logger: false, mail: { send: async () => {} } });
await app.ready();
const db = database.db;

const shop = await db
  .selectFrom('users')
  .innerJoin('publisher_connections as p', 'p.user_id', 'users.id')
  .select(['users.id', 'p.entity_id'])
  .where('users.email', '=', 'shop@tenpo.example')
  .where('p.publisher_key', '=', 'google_my_business')
  .executeTakeFirstOrThrow();
const location = shop.entity_id as string;
const publishers = createPublisherService({
  repo: createPublisherRepo(db),
  channels: (await import('../apps/api/src/channels')).createChannels(config, systemClock),
  clock: systemClock,
  secretKey: config.secretKey,
  publicUrl: config.publicUrl,
  isAgencyPrefix: async () => false,
  log: { warn: () => undefined },
});
const token = await publishers.grants.use(
  credentialHandle(shop.id, 'google_my_business'),
  async (g) => g.accessToken,
);

const today = tokyoDay(Date.now());
const ranges = dayRequests(today, new Set());
const months = keywordMonths(today, null);
const perf = `${sandboxUrl}/google/businessprofileperformance/v1/locations/${location}`;
const auth = { authorization: `Bearer ${token}` };

/** The same calls, bare: fetch and JSON.parse, nothing stored. */
async function bare(): Promise<number> {
  let calls = 0;
  for (const r of ranges) {
    const q = new URLSearchParams();
    for (const f of METRIC_FIELDS) q.append('dailyMetrics', googleMetricOf(f));
    for (const [k, d] of [
      ['startDate', r.start],
      ['endDate', r.end],
    ] as const) {
      const [y, m, dd] = d.split('-').map(Number);
      q.set(`dailyRange.${k}.year`, String(y));
      q.set(`dailyRange.${k}.month`, String(m));
      q.set(`dailyRange.${k}.day`, String(dd));
    }
    const res = await fetch(`${perf}:fetchMultiDailyMetricsTimeSeries?${q}`, { headers: auth });
    await res.json();
    calls += 1;
  }
  for (const month of months) {
    const [y, m] = month.split('-').map(Number);
    let pageToken = '';
    do {
      const q = new URLSearchParams({
        'monthlyRange.startMonth.year': String(y),
        'monthlyRange.startMonth.month': String(m),
        'monthlyRange.endMonth.year': String(y),
        'monthlyRange.endMonth.month': String(m),
        pageSize: '100',
        ...(pageToken ? { pageToken } : {}),
      });
      const res = await fetch(`${perf}/searchkeywords/impressions/monthly?${q}`, { headers: auth });
      pageToken = ((await res.json()) as { nextPageToken?: string }).nextPageToken ?? '';
      calls += 1;
    } while (pageToken);
  }
  return calls;
}

async function forget(): Promise<void> {
  for (const t of ['metric_days', 'metric_months', 'metric_keywords', 'metric_syncs'] as const)
    await db.deleteFrom(t).where('store_id', '=', shop.id).execute();
}

const time = async (fn: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

// One round of each first, unmeasured (connections, JIT, the first token refresh).
const calls = await bare();
await forget();
await app.metrics.sync.syncStore(shop.id);

const refs: number[] = [];
const ours: number[] = [];
let days = 0;
for (let i = 0; i < ROUNDS; i++) {
  refs.push(await time(bare));
  await forget();
  ours.push(
    await time(async () => {
      const out = await app.metrics.sync.syncStore(shop.id);
      if (out.state !== 'done') throw new Error(`backfill ended ${JSON.stringify(out)}`);
    }),
  );
  days = Number(
    (
      await db
        .selectFrom('metric_days')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('store_id', '=', shop.id)
        .executeTakeFirstOrThrow()
    ).n,
  );
}
const w = windowOf(today);
const ref = median(refs);
const tenpo = median(ours);
console.log(
  `metrics backfill of one store (${w.start}..${w.end}: ${days} days, ${ranges.length} daily requests, ${months.length} keyword months, ${calls} provider calls), median of ${ROUNDS} on SQLite`,
);
console.log(`  reference (the same calls, bare fetch): ${ref.toFixed(0)} ms`);
console.log(`  Tenpo backfill (client, token, upserts, rollups): ${tenpo.toFixed(0)} ms`);
console.log(`  ratio: ${(tenpo / ref).toFixed(2)}×`);

await app.close();
await database.close();
await sandbox.close();
fs.rmSync(dir, { recursive: true, force: true });
