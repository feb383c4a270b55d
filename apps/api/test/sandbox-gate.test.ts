import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServer, composeWorker, demoSeedFor } from '../src/compose';
import { loadConfig, type Config } from '../src/config';
import { seedDemo } from '../src/db/seed';
import { systemClock } from '../src/lib/clock';
import { SANDBOX_COOKIE, fetchWithSandboxKey } from '../src/plugins/sandbox-gate';
import { API_KEY, call, json, login } from './helpers';
import { freePort } from './sandbox';

// A production staging demo (ADR 0051): the emulators mounted in-process answer only callers
// with the API key, as a header (our own clients) or a cookie (the browser).
let server: Awaited<ReturnType<typeof composeServer>>;
let config: Config;
let dir: string;
let base: string;

const staging = (port: number, dataDir: string, dist: string) => ({
  NODE_ENV: 'production',
  TENPO_PROVIDERS: 'sandbox',
  TENPO_ALLOW_SANDBOX_IN_PRODUCTION: 'true',
  TENPO_SECRET_KEY: 'ab'.repeat(32),
  TENPO_API_KEY: API_KEY,
  // Nothing is mailed here: no worker runs.
  SMTP_URL: 'smtp://127.0.0.1:9',
  TENPO_WORKER: 'false',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: dataDir,
  WEB_DIST: dist,
  LOG_LEVEL: 'silent',
  RATE_LIMIT_AUTH_PER_MINUTE: '1000',
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-sandbox-gate-'));
  const dist = path.join(dir, 'dist');
  fs.mkdirSync(dist, { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<html><head></head><body></body></html>');
  const port = await freePort();
  config = loadConfig(staging(port, path.join(dir, 'data'), dist));
  expect(config.sandboxMount).toBe('api-key');
  server = await composeServer(config);
  // The demo stores and their emulator grants, which production does not seed by itself.
  await seedDemo(server.database.db, systemClock, demoSeedFor(config));
  await server.app.listen({ port, host: '127.0.0.1' });
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server?.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const mail = (init: RequestInit = {}, query = '') =>
  fetch(`${base}/sandbox/mail?format=json${query}`, { redirect: 'manual', ...init });
const cookieOf = (res: Response): string => {
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0] ?? '';
};

describe('the emulators of a staging demo', () => {
  it('refuse a caller without the key, on every route', async () => {
    const res = await mail();
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      status_code: 401,
      message: 'APIキーが正しくありません。',
    });
    expect((await fetch(`${base}/sandbox/`)).status).toBe(401);
    expect((await fetch(`${base}/sandbox/faults`)).status).toBe(401);
    expect(
      (await fetch(`${base}/sandbox/google/oauth2/token`, { method: 'POST', body: 'a=b' })).status,
    ).toBe(401);
    expect((await mail({ headers: { 'x-api-key': 'not-the-key-1' } })).status).toBe(401);
  });

  it('answer the key as a header', async () => {
    const res = await mail({ headers: { 'x-api-key': API_KEY } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: [] });
  });

  it('take the key once as ?api_key=, leave it out of the address, and then the cookie', async () => {
    expect((await mail({}, '&api_key=not-the-key-1')).status).toBe(401);
    const res = await mail({}, '&api_key=' + API_KEY);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sandbox/mail?format=json');
    const set = res.headers.get('set-cookie') ?? '';
    expect(set).toMatch(
      new RegExp(`^${SANDBOX_COOKIE}=[A-Za-z0-9_-]{43}; Path=/sandbox; HttpOnly; SameSite=Lax$`),
    );
    // The cookie is not the key: it is no use as an X-Api-Key on /api.
    expect(set).not.toContain(API_KEY);
    expect((await mail({ headers: { cookie: cookieOf(res) } })).status).toBe(200);
    expect((await mail({ headers: { cookie: `${SANDBOX_COOKIE}=${API_KEY}` } })).status).toBe(401);
    // A POST does not trade the query for a cookie.
    expect(
      (await fetch(`${base}/sandbox/faults?api_key=${API_KEY}`, { method: 'POST' })).status,
    ).toBe(401);
  });

  it('hand the cookie to the browser with the web app page, which holds the key already', async () => {
    const page = await fetch(`${base}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`content="${API_KEY}"`);
    const cookie = cookieOf(page);
    expect(cookie.startsWith(`${SANDBOX_COOKIE}=`)).toBe(true);
    expect((await mail({ headers: { cookie } })).status).toBe(200);
  });

  it('answer our own clients: Google connects end to end through the gate', async () => {
    const cookie = cookieOf(await fetch(`${base}/`));
    const token = await login(server.app, 'newshop@tenpo.example');
    const user = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'newshop@tenpo.example')
      .executeTakeFirstOrThrow();
    const res = await call(server.app, {
      method: 'GET',
      url: `/api/publisher/connect?publisher_key=google_my_business&user_id=${user.id}`,
      token,
      headers: { host: new URL(base).host },
    });
    expect(res.statusCode, res.body).toBe(200);
    const urlAuth = new URL(json<{ data: { urlAuth: string } }>(res).data.urlAuth);
    expect(urlAuth.pathname).toBe('/sandbox/google/accounts/o/oauth2/v2/auth');
    // The browser: the consent page and its form, with the cookie.
    expect((await fetch(urlAuth)).status).toBe(401);
    expect((await fetch(urlAuth, { headers: { cookie } })).status).toBe(200);
    const form = new URLSearchParams(urlAuth.searchParams);
    form.append('account', 'newshop@tenpo.example');
    form.append('decision', 'allow');
    const allowed = await fetch(`${base}${urlAuth.pathname}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    expect(allowed.status, await allowed.text()).toBe(302);
    const back = new URL(allowed.headers.get('location') ?? '');
    // Our API: trading the code at the emulator's token endpoint needs the key it sends.
    const ret = await server.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(ret.statusCode, ret.body).toBe(302);
    expect(ret.headers.location).toBe('/connect-location');
    const locations = await call(server.app, {
      method: 'GET',
      url: `/api/entity/locations?user_id=${user.id}`,
      token,
    });
    expect(locations.statusCode, locations.body).toBe(200);
    expect(json<{ data: { total: number } }>(locations).data.total).toBe(2);
  });
});

describe('a worker process of a staging demo', () => {
  it('reaches the emulators the API process serves: a Google metrics sync goes through', async () => {
    const { app } = await composeWorker(config);
    try {
      const store = await server.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'shop@tenpo.example')
        .executeTakeFirstOrThrow();
      const outcome = await app.metrics.sync.syncStore(store.id);
      expect(outcome).toMatchObject({ state: 'done' });
    } finally {
      await app.close();
    }
  });
});

describe('fetchWithSandboxKey', () => {
  it('adds the key to calls under PUBLIC_URL/sandbox only, keeping their own headers', async () => {
    const seen: { url: string; headers: Headers }[] = [];
    const f = fetchWithSandboxKey(
      { apiKey: 'k-12345678', publicUrl: 'https://tenpo.example' },
      async (input, init) => {
        seen.push({ url: String(input), headers: new Headers(init?.headers) });
        return new Response('ok');
      },
    );
    await f('https://tenpo.example/sandbox/google/oauth2/token', {
      headers: { authorization: 'Basic x' },
    });
    await f('https://tenpo.example/sandboxes', {});
    await f('https://oauth2.googleapis.com/token', {});
    expect(seen.map((s) => s.headers.get('x-api-key'))).toEqual(['k-12345678', null, null]);
    expect(seen[0]?.headers.get('authorization')).toBe('Basic x');
  });
});

describe('the emulators elsewhere (SANDBOX_URL)', () => {
  it('are not mounted in-process', async () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-sandbox-elsewhere-'));
    const s = await composeServer(
      loadConfig({
        DATA_DIR: d,
        LOG_LEVEL: 'silent',
        TENPO_SEED_DEMO: 'false',
        TENPO_WORKER: 'false',
        SANDBOX_URL: 'http://127.0.0.1:4010/sandbox',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        WEB_DIST: path.join(d, 'none'),
      }),
    );
    try {
      expect((await s.app.inject({ method: 'GET', url: '/sandbox/mail' })).statusCode).toBe(404);
    } finally {
      await s.app.close();
      fs.rmSync(d, { recursive: true, force: true });
    }
  });
});
