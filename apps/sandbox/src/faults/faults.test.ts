import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  auth,
  buildSandbox,
  facebookUserToken,
  FORM,
  form,
  googleTokens,
  pageToken,
  xTokens,
} from '../shared/testing';

const ACCOUNTS = '/sandbox/google/mybusinessaccountmanagement/v1/accounts';
let app: FastifyInstance;
let dataDir: string;
beforeEach(async () => {
  ({ app, dataDir } = await buildSandbox());
});
afterEach(async () => {
  await app.close();
});
const addFault = (body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/sandbox/faults', payload: body });

describe('fault switches', () => {
  it('fails the next N Google calls of one account with 401, then lets them through', async () => {
    const shop = await googleTokens(app);
    const trial = await googleTokens(app, 'trial@tenpo.example');
    const f = await addFault({
      provider: 'google',
      account: 'shop@tenpo.example',
      kind: 'expired_token',
      count: 2,
    });
    expect(f.statusCode).toBe(201);
    expect(
      (await app.inject({ url: ACCOUNTS, headers: auth(trial.access_token) })).statusCode,
    ).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await app.inject({ url: ACCOUNTS, headers: auth(shop.access_token) });
      expect(r.statusCode).toBe(401);
      expect(r.json().error.details[0].reason).toBe('ACCESS_TOKEN_EXPIRED');
    }
    expect((await app.inject({ url: ACCOUNTS, headers: auth(shop.access_token) })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ url: '/sandbox/faults?format=json' })).json().data).toEqual([]);
  });

  it('answers Google 429 and 503 in its envelope, for every account, until cleared', async () => {
    const shop = await googleTokens(app);
    const f = (
      await addFault({
        provider: 'google',
        kind: 'rate_limit',
        count: 'until_cleared',
        retry_after_seconds: 30,
      })
    ).json().data;
    for (let i = 0; i < 3; i++) {
      const r = await app.inject({ url: ACCOUNTS, headers: auth(shop.access_token) });
      expect(r.statusCode).toBe(429);
      expect(r.json().error.status).toBe('RESOURCE_EXHAUSTED');
      expect(r.json().error.details).toContainEqual({
        '@type': 'type.googleapis.com/google.rpc.RetryInfo',
        retryDelay: '30s',
      });
    }
    await app.inject({ method: 'DELETE', url: `/sandbox/faults/${f.id}` });
    await addFault({ provider: 'google', kind: 'server_error', status: 503 });
    const down = await app.inject({ url: ACCOUNTS, headers: auth(shop.access_token) });
    expect(down.statusCode).toBe(503);
    expect(down.json().error.status).toBe('UNAVAILABLE');
  });

  it('answers Facebook throttling as Graph does (HTTP 400, code 32, usage header)', async () => {
    const page = await pageToken(app, await facebookUserToken(app), '104857392017465');
    await addFault({
      provider: 'facebook',
      account: '104857392017465',
      kind: 'rate_limit',
      retry_after_seconds: 300,
    });
    const r = await app.inject({
      method: 'POST',
      url: '/sandbox/facebook/graph/v25.0/104857392017465/feed',
      headers: FORM,
      payload: form({ message: 'hi', access_token: page }),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatchObject({ code: 32, is_transient: true });
    const usage = JSON.parse(r.headers['x-business-use-case-usage'] as string);
    expect(usage['104857392017465'][0]).toMatchObject({
      type: 'pages',
      call_count: 100,
      estimated_time_to_regain_access: 5,
    });
    await addFault({ provider: 'facebook', account: 'shop@tenpo.example', kind: 'expired_token' });
    const e = await app.inject({
      url: `/sandbox/facebook/graph/v25.0/104857392017465/feed?access_token=${page}`,
    });
    expect(e.json().error).toMatchObject({ code: 190, error_subcode: 463 });
  });

  it('answers X 429 with x-rate-limit-reset and delays slow calls', async () => {
    const t = await xTokens(app);
    await addFault({
      provider: 'x',
      account: '@tenpo_demo',
      kind: 'rate_limit',
      retry_after_seconds: 120,
    });
    const r = await app.inject({
      method: 'POST',
      url: '/sandbox/x/api/2/tweets',
      headers: auth(t.access_token),
      payload: { text: 'x' },
    });
    expect(r.statusCode).toBe(429);
    expect(r.headers['x-rate-limit-remaining']).toBe('0');
    expect(Number(r.headers['x-rate-limit-reset'])).toBeGreaterThanOrEqual(
      Math.floor(Date.now() / 1000) + 119,
    );
    await addFault({ provider: 'x', kind: 'slow', delay_ms: 150 });
    const started = Date.now();
    expect(
      (await app.inject({ url: '/sandbox/x/api/2/users/me', headers: auth(t.access_token) }))
        .statusCode,
    ).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('limits a fault to a method and a path: a slow publish still creates the post', async () => {
    const t = await xTokens(app);
    expect((await addFault({ provider: 'x', kind: 'slow', method: 'FETCH' })).statusCode).toBe(400);
    await addFault({ provider: 'x', kind: 'slow', delay_ms: 150, method: 'POST', path: '/tweets' });
    // A read of the same account is not delayed, and does not use the fault up.
    const read = Date.now();
    await app.inject({ url: '/sandbox/x/api/2/users/me', headers: auth(t.access_token) });
    expect(Date.now() - read).toBeLessThan(140);
    const started = Date.now();
    const r = await app.inject({
      method: 'POST',
      url: '/sandbox/x/api/2/tweets',
      headers: auth(t.access_token),
      payload: { text: 'おそい投稿' },
    });
    expect(r.statusCode).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const list = await app.inject({
      url: '/sandbox/x/api/2/users/1701234567890123456/tweets?max_results=5&tweet.fields=created_at',
      headers: auth(t.access_token),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      data: [{ text: 'おそい投稿', created_at: expect.any(String) }],
      meta: { result_count: 1 },
    });
  });

  it('counts every provider call by method and path, until cleared or reset', async () => {
    const t = await xTokens(app);
    await app.inject({ url: '/sandbox/x/api/2/users/me', headers: auth(t.access_token) });
    await app.inject({ url: '/sandbox/x/api/2/users/me', headers: auth(t.access_token) });
    const counts = (await app.inject({ url: '/sandbox/control/calls' })).json() as {
      data: Record<string, number>;
    };
    expect(counts.data['GET /x/api/2/users/me']).toBe(2);
    expect(counts.data['POST /x/api/2/oauth2/token']).toBe(1);
    await app.inject({ method: 'DELETE', url: '/sandbox/control/calls' });
    expect((await app.inject({ url: '/sandbox/control/calls' })).json()).toEqual({
      data: { 'GET /control/calls': 1 },
    });
  });

  it('validates input, shows the page, persists, and resets everything', async () => {
    expect((await addFault({ provider: 'myspace', kind: 'slow' })).statusCode).toBe(400);
    expect((await addFault({ provider: 'x', kind: 'server_error', status: 404 })).statusCode).toBe(
      400,
    );
    await addFault({ provider: 'instagram', kind: 'server_error', status: 500, count: 3 });
    const html = await app.inject({ url: '/sandbox/faults' });
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.body).toContain('instagram');
    const viaForm = await app.inject({
      method: 'POST',
      url: '/sandbox/faults',
      headers: FORM,
      payload: form({ provider: 'google', kind: 'slow', count: '1', delay_ms: '10' }),
    });
    expect(viaForm.statusCode).toBe(303);
    await app.close();
    ({ app } = await buildSandbox(dataDir));
    expect(
      (await app.inject({ url: '/sandbox/faults', headers: { accept: 'application/json' } })).json()
        .data,
    ).toHaveLength(2);
    const shop = await googleTokens(app);
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/google/mybusinessbusinessinformation/v1/locations/4821390157204861230?updateMask=title',
      headers: auth(shop.access_token),
      payload: { title: '変更' },
    });
    const reset = await app.inject({ method: 'POST', url: '/sandbox/control/reset', payload: {} });
    expect(reset.json()).toEqual({ data: { reset: 'all' } });
    expect((await app.inject({ url: '/sandbox/faults?format=json' })).json().data).toEqual([]);
    const again = await googleTokens(app);
    const loc = await app.inject({
      url: '/sandbox/google/mybusinessbusinessinformation/v1/locations/4821390157204861230?readMask=title',
      headers: auth(again.access_token),
    });
    expect(loc.json().title).toBe('カフェ テンポ 渋谷店');
    expect((await app.inject({ url: ACCOUNTS, headers: auth(shop.access_token) })).statusCode).toBe(
      401,
    );
  });
});

/** The account faults answer the bodies recorded in fixtures/ (ADR 0063), fbtrace_id aside. */
const FIXTURES = path.join(import.meta.dirname, '..', '..', '..', '..', 'fixtures');
const fixture = (dir: string, name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, dir, name), 'utf8')) as Record<string, unknown>;
const withoutTrace = (b: { error: Record<string, unknown> }) => {
  const { fbtrace_id, ...rest } = b.error;
  expect(typeof fbtrace_id).toBe('string');
  return rest;
};

describe('account fault switches (Graph 368, 190/460, 190/458; X and Google suspended)', () => {
  it.each([
    ['policy_block', 'blocked-368.json'],
    ['password_changed', 'password-changed-190-460.json'],
    ['deauthorized', 'deauthorized-190-458.json'],
  ])('Facebook %s answers %s', async (kind, file) => {
    const page = await pageToken(app, await facebookUserToken(app), '104857392017465');
    expect((await addFault({ provider: 'facebook', kind, method: 'POST' })).statusCode).toBe(201);
    const r = await app.inject({
      method: 'POST',
      url: '/sandbox/facebook/graph/v25.0/104857392017465/feed',
      headers: FORM,
      payload: form({ message: 'hi', access_token: page }),
    });
    expect(r.statusCode).toBe(400);
    expect(withoutTrace(r.json())).toEqual(
      withoutTrace(fixture('meta-graph-errors', file) as { error: Record<string, unknown> }),
    );
  });

  it('X suspended answers the user-suspended problem', async () => {
    const t = await xTokens(app);
    await addFault({ provider: 'x', kind: 'suspended' });
    const r = await app.inject({
      method: 'POST',
      url: '/sandbox/x/api/2/tweets',
      headers: auth(t.access_token),
      payload: { text: 'x' },
    });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual(fixture('x-errors', '403-user-suspended.json'));
  });

  it("Google suspended answers PERMISSION_DENIED in Google's envelope", async () => {
    const shop = await googleTokens(app);
    await addFault({ provider: 'google', kind: 'suspended' });
    const r = await app.inject({ url: ACCOUNTS, headers: auth(shop.access_token) });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual(fixture('google-errors', 'permission-denied-location.json'));
  });

  it('an account kind needs a provider that has it', async () => {
    for (const body of [
      { kind: 'policy_block' },
      { provider: 'x', kind: 'policy_block' },
      { provider: 'sbps', kind: 'suspended' },
    ]) {
      const r = await addFault(body);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_fault');
    }
  });
});
