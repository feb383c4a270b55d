import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createChannels } from '../src/channels';
import { meteredFetch } from '../src/channels/http';
import { loadConfig } from '../src/config';
import { systemClock } from '../src/lib/clock';
import { createLimiter } from '../src/jobs/limiter';
import { PermanentJobError } from '../src/jobs/queue';
import { registry } from '../src/lib/metrics';
import { buildTestApp, type TestApp } from './helpers';

// Probes and metrics (issue 20 §6, ADR 0052), through app.inject on a migrated database.
let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const probe = async (app: TestApp['app'], url: string) => {
  const res = await app.inject({ method: 'GET', url });
  return {
    status: res.statusCode,
    body: res.json() as { status_code: number; data: Record<string, unknown> },
  };
};

const t0dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-ops-'));

/** The value of one series in the text exposition, or 0 when it is absent. */
const series = (text: string, name: string, labels: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line ? Number(line.split(' ')[1]) : 0;
};

describe('GET /api/health/live and /api/health/ready', () => {
  it('answer without an API key, in the envelope, and are in the OpenAPI document', async () => {
    t = await buildTestApp();
    expect(await probe(t.app, '/api/health/live')).toEqual({
      status: 200,
      body: { status_code: 200, data: { status: 'ok' } },
    });
    expect(await probe(t.app, '/api/health/ready')).toEqual({
      status: 200,
      body: {
        status_code: 200,
        data: { status: 'ready', draining: false, database: 'ok', migrations: 'applied' },
      },
    });
    // The old combined endpoint is still there, as it was (503 here: no worker was started).
    expect((await probe(t.app, '/api/health')).body.data).toMatchObject({
      database: { status: 'ok' },
      worker: { expected: true, running: false },
    });
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/health/live', '/api/health/ready']),
    );
  });

  it('ready turns 503 while draining; live stays 200', async () => {
    t = await buildTestApp();
    t.app.readiness.startDraining();
    const ready = await probe(t.app, '/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      status_code: 503,
      data: { status: 'unready', draining: true },
    });
    expect((await probe(t.app, '/api/health/live')).status).toBe(200);
  });

  it('ready is 503 while a migration is pending, and remembers "applied" once seen', async () => {
    t = await buildTestApp();
    const { db } = t.database;
    const last = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from kysely_migration order by name desc limit 1`.execute(db);
    const row = last.rows[0];
    if (!row) throw new Error('no migration row');
    await sql`delete from kysely_migration where name = ${row.name}`.execute(db);
    const pending = await probe(t.app, '/api/health/ready');
    expect(pending.status).toBe(503);
    expect(pending.body.data).toMatchObject({ database: 'ok', migrations: 'pending' });
    await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(
      db,
    );
    expect((await probe(t.app, '/api/health/ready')).status).toBe(200);
    // Once applied, no probe reads the migrations again: only the ping is left per probe.
    await sql`delete from kysely_migration where name = ${row.name}`.execute(db);
    expect((await probe(t.app, '/api/health/ready')).status).toBe(200);
  });

  it('ready is 503 when the database is gone, without its error text; live stays 200', async () => {
    t = await buildTestApp();
    const { app, database } = t;
    // Ready once (so "applied" is remembered), then the database goes away.
    expect((await probe(app, '/api/health/ready')).status).toBe(200);
    await database.close();
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status_code: 503,
      data: { status: 'unready', draining: false, database: 'down', migrations: 'applied' },
    });
    expect((await probe(app, '/api/health/live')).status).toBe(200);
  });
});

describe('/metrics', () => {
  const TOKEN = 'metrics-token-0123456789';

  it('is not served on the main port without METRICS_TOKEN', async () => {
    t = await buildTestApp();
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it('refuses a missing or wrong token', async () => {
    t = await buildTestApp({ METRICS_TOKEN: TOKEN });
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.body).not.toContain('tenpo_');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
  });

  // Both job drivers on PostgreSQL (TEST_DATABASE_URL), the table driver on SQLite.
  const drivers = process.env.TEST_DATABASE_URL ? ['table', 'pg-boss'] : ['table'];
  it.each(drivers)(
    'counts requests by route pattern and status, and jobs by queue and outcome (%s)',
    async (driver) => {
      t = await buildTestApp({ METRICS_TOKEN: TOKEN, TENPO_JOB_DRIVER: driver });
      const q = `ops-test-${driver}`;
      const scrape = async () => {
        const res = await t!.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toContain('text/plain');
        return res.body;
      };
      const before = await scrape();
      const live = 'method="GET",route="/api/health/live",status_code="200"';
      const unmatched = 'method="GET",route="unmatched",status_code="404"';
      const count = 'tenpo_http_request_duration_seconds_count';
      for (let i = 0; i < 3; i += 1) await t.app.inject({ method: 'GET', url: '/api/health/live' });
      await t.app.inject({ method: 'GET', url: '/no/such/page-12345' });

      let failures = 0;
      t.app.queue.work(q, async (p: { fail?: boolean; later?: boolean }, ctx) => {
        if (p.later) ctx.retryAt(new Date(Date.now() + 3_600_000), 'quota');
        if (p.fail) {
          failures += 1;
          throw new PermanentJobError('no');
        }
      });
      await t.app.queue.enqueue(q, {});
      await t.app.queue.enqueue(q, { fail: true }, { maxAttempts: 1 });
      await t.app.queue.enqueue(q, { later: true });
      expect(await t.app.queue.drain()).toBe(3);
      expect(failures).toBe(1);

      const after = await scrape();
      expect(series(after, count, live) - series(before, count, live)).toBe(3);
      expect(series(after, count, unmatched) - series(before, count, unmatched)).toBe(1);
      // The raw URL of a request never becomes a label.
      expect(after).not.toContain('page-12345');
      const runs = 'tenpo_job_runs_total';
      expect(series(after, runs, `queue="${q}",outcome="completed"`)).toBe(1);
      expect(series(after, runs, `queue="${q}",outcome="failed"`)).toBe(1);
      expect(series(after, runs, `queue="${q}",outcome="deferred"`)).toBe(1);
      expect(series(after, runs, `queue="${q}",outcome="retry"`)).toBe(0);
      expect(series(after, 'tenpo_job_failures_total', `queue="${q}",final="true"`)).toBe(1);
      expect(series(after, 'tenpo_job_lag_seconds_count', `queue="${q}"`)).toBe(3);
      // The process's own metrics come with them.
      expect(after).toContain('process_cpu_user_seconds_total');
    },
  );
});

describe('the counted provider calls and rate-limit waits', () => {
  it('counts calls and errors by channel and kind of result', async () => {
    const answers = [200, 429, 503];
    const fetchStub = (async () =>
      new Response('{}', { status: answers.shift() ?? 200 })) as unknown as typeof fetch;
    const text0 = await registry.metrics();
    const f = meteredFetch('ops-channel', fetchStub);
    for (let i = 0; i < 3; i += 1) await f('http://provider.test/');
    const timeout = meteredFetch('ops-channel', (async () => {
      throw Object.assign(new Error('slow'), { name: 'TimeoutError' });
    }) as unknown as typeof fetch);
    await expect(timeout('http://provider.test/')).rejects.toThrow('slow');
    const text = await registry.metrics();
    const d = (name: string, labels: string) =>
      series(text, name, labels) - series(text0, name, labels);
    const calls = 'tenpo_provider_requests_total';
    const errors = 'tenpo_provider_errors_total';
    expect(d(calls, 'channel="ops-channel",result="ok"')).toBe(1);
    expect(d(calls, 'channel="ops-channel",result="rate_limited"')).toBe(1);
    expect(d(calls, 'channel="ops-channel",result="server_error"')).toBe(1);
    expect(d(calls, 'channel="ops-channel",result="timeout"')).toBe(1);
    expect(d(errors, 'channel="ops-channel",result="ok"')).toBe(0);
    expect(d(errors, 'channel="ops-channel",result="rate_limited"')).toBe(1);
    expect(d(errors, 'channel="ops-channel",result="timeout"')).toBe(1);
  });

  it('counts every channel client under its provider (createChannels wires the count)', async () => {
    const dataDir = t0dir();
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    fs.rmSync(dataDir, { recursive: true, force: true });
    const refused = (async () =>
      new Response('{"error":"invalid_grant"}', { status: 400 })) as unknown as typeof fetch;
    const channels = createChannels(config, systemClock, { fetch: refused });
    const label = (c: string) => `channel="${c}",result="client_error"`;
    const before = await registry.metrics();
    for (const key of ['google_my_business', 'facebook', 'twitter'] as const)
      await expect(
        channels.all[key].exchangeCode('code', 'http://cb', 'verifier'),
      ).rejects.toThrow();
    const after = await registry.metrics();
    for (const c of ['google', 'facebook', 'x'])
      expect(
        series(after, 'tenpo_provider_requests_total', label(c)) -
          series(before, 'tenpo_provider_requests_total', label(c)),
      ).toBe(1);
  });

  it('counts a start held back by a limit under the limit kind, not its account', async () => {
    t = await buildTestApp();
    const limiter = createLimiter(t.database.db, t.database.dialect, systemClock);
    const limit = { key: () => 'ops:test:account:42', max: 1, perMs: 60_000 };
    const label = 'limit="ops:test"';
    const n0 = series(await registry.metrics(), 'tenpo_rate_limit_waits_total', label);
    expect(await limiter.acquire([limit], {})).toBeNull();
    expect(await limiter.acquire([limit], {})).toBeInstanceOf(Date);
    const text = await registry.metrics();
    expect(series(text, 'tenpo_rate_limit_waits_total', label) - n0).toBe(1);
    expect(text).not.toContain('account:42');
  });
});
