import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { ja } from '@tenpo/domain';
import { providerImageOrigins, securityHeadersFor } from '../src/plugins/security-headers';
import { API_KEY, buildTestApp, call, json, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('health', () => {
  it('reports the database and the job worker without an API key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const body = json<{
      data: {
        database: { status: string; dialect: string };
        worker: { expected: boolean; running: boolean };
      };
    }>(res);
    expect(body.data.database.status).toBe('ok');
    expect(body.data.database.dialect).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');
    // The test app starts no worker although the config expects one: health says so.
    expect(body.data.worker).toMatchObject({ expected: true, running: false });
    expect(res.statusCode).toBe(503);
    await t.app.queue.start();
    const again = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(again.statusCode).toBe(200);
    expect(json<{ data: { status: string } }>(again).data.status).toBe('ok');
    await t.app.queue.stop();
  });

  it('answers 503 without the database error text when the database is gone', async () => {
    const broken = await buildTestApp();
    try {
      await broken.database.close();
      const res = await broken.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      const body = json<{ data: { status: string; database: Record<string, unknown> } }>(res);
      expect(body.data.status).toBe('degraded');
      expect(body.data.database).toEqual({
        status: 'down',
        dialect: broken.config.databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite',
        latency_ms: 0,
      });
    } finally {
      await broken.close();
    }
  });
});

describe('API key', () => {
  it('refuses a call without the fixed key', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'shop@tenpo.example', password: 'tenpo-demo-1' },
    });
    expect(res.statusCode).toBe(401);
    expect(json(res)).toEqual({ status_code: 401, message: ja.invalidApiKey, errors: {} });
  });

  it('refuses a wrong key', async () => {
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/domain/demo/title',
      headers: { 'x-api-key': 'wrong-key-xx' },
    });
    expect(res.statusCode).toBe(401);
    // As long as the right one, one character off.
    const near = await call(t.app, {
      method: 'GET',
      url: '/api/domain/demo/title',
      headers: { 'x-api-key': `${API_KEY.slice(0, -1)}x` },
    });
    expect(near.statusCode).toBe(401);
  });
});

describe('error envelope', () => {
  it('answers an unknown path with the 404 envelope', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/no-such-call' });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ status_code: 404, message: ja.notFound, errors: {} });
  });

  it('answers malformed JSON with a 400 envelope, not a crash', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({ status_code: 400, errors: {} });
  });

  it('echoes a request id for the logs', async () => {
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/domain/demo/title',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers['x-request-id']).toBe('abc-123');
    const other = await call(t.app, { method: 'GET', url: '/api/domain/demo/title' });
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes the request id on errors too: 404, a refused API key, a bad body', async () => {
    const headers = { 'x-request-id': 'err-1' };
    const responses = [
      await call(t.app, { method: 'GET', url: '/api/no-such-call', headers }),
      await call(t.app, { method: 'GET', url: '/no-such-page', headers }),
      await t.app.inject({ method: 'GET', url: '/api/domain/demo/title', headers }),
      await call(t.app, {
        method: 'POST',
        url: '/api/login',
        payload: '{"email":',
        headers: { ...headers, 'content-type': 'application/json' },
      }),
      await call(t.app, {
        method: 'POST',
        url: '/api/login',
        payload: 'x',
        headers: { ...headers, 'content-type': 'text/x-unknown' },
      }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([404, 404, 401, 400, 415]);
    for (const res of responses) expect(res.headers['x-request-id']).toBe('err-1');
  });

  it('sets the security headers', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/domain/demo/title' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
  });

  it('sets exactly the headers @fastify/helmet sets, on successes, errors and 404s', async () => {
    // The reference: the plugin itself, per request, with the same options.
    const reference = Fastify({ logger: false });
    await reference.register(
      helmet,
      securityHeadersFor(null, undefined, providerImageOrigins(t.config)),
    );
    reference.get('/', async () => ({}));
    const expected = (await reference.inject({ method: 'GET', url: '/' })).headers;
    await reference.close();
    const helmetNames = Object.keys(expected).filter(
      (k) => !['content-type', 'content-length', 'date', 'connection'].includes(k),
    );
    expect(helmetNames).toContain('strict-transport-security');
    const responses = [
      await call(t.app, { method: 'GET', url: '/api/domain/demo/title' }),
      await t.app.inject({ method: 'GET', url: '/api/domain/demo/title' }), // no API key: 401
      await call(t.app, { method: 'GET', url: '/api/no-such-route' }),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 401, 404]);
    for (const res of responses)
      for (const name of helmetNames)
        expect([name, res.headers[name]]).toEqual([name, expected[name]]);
  });
});

describe('OpenAPI', () => {
  it('is generated from the zod schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = json<{
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<string, { schema: { properties: Record<string, unknown> } }>;
            };
          }
        >
      >;
    }>(res);
    for (const p of [
      '/api/login',
      '/api/refresh-token',
      '/api/register',
      '/api/account-setting/email/confirm',
      '/api/agency/stores',
      '/api/group-leader/stores',
      '/api/domain/{prefix}/title',
      '/api/posts',
      '/api/posts/{id}',
      '/api/posts/{id}/targets/{targetId}/retry',
      ...['offers', 'events', 'news'].flatMap((type) => [
        `/api/posts/${type}`,
        `/api/posts/${type}/{id}`,
      ]),
      '/api/entity/basic-information',
      '/api/entity/business-details',
      '/api/entity/contact-websites-apps',
      '/api/entity/prefectures',
      '/api/entity/categories',
      '/api/postal-code/{code}',
      '/api/posts/products',
      '/api/posts/products/categories',
      '/api/posts/products/{id}',
      '/api/dashboard/box-data',
      ...['customer-search/{range}', 'customer-call/{range}'].map((p) => `/api/dashboard/${p}`),
      ...['customer-view', 'reactions-graph', 'search-keywords', 'impressions-graph'].map(
        (p) => `/api/dashboard/${p}/{timeRange}`,
      ),
      '/api/report/single-store/fixed-period',
      '/api/report/single-store/adjustment-period',
      '/api/report/multiple-store/adjustment-period',
      '/api/report/single-store/csv',
      '/api/report/multiple-store/csv',
      '/api/report/csv',
      '/api/knowledge-tag',
      '/api/knowledge-tag/settings',
      '/api/knowledge-tag/schema-markup',
      '/api/knowledge-tag/embed',
      '/api/knowledge-tag/view',
      '/api/photos',
      '/api/photos/upload',
      '/api/photos/{id}',
    ]) {
      expect(doc.paths).toHaveProperty([p]);
    }
    for (const p of [
      '/api/entity/basic-information',
      '/api/entity/business-details',
      '/api/entity/contact-websites-apps',
    ])
      expect(doc.paths[p]).toHaveProperty('put');
    expect(Object.keys(doc.paths['/api/posts/products'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/posts/products/{id}'] ?? {}).sort()).toEqual([
      'delete',
      'get',
      'post',
    ]);
    const login =
      doc.paths['/api/login']?.post?.requestBody?.content['application/json']?.schema.properties;
    expect(Object.keys(login ?? {})).toEqual(['email', 'password']);
    // The photo library's three calls, each with its method (spec 2 §7, Media).
    expect(Object.keys(doc.paths['/api/photos'] ?? {})).toContain('get');
    expect(Object.keys(doc.paths['/api/photos/upload'] ?? {})).toContain('post');
    expect(Object.keys(doc.paths['/api/photos/{id}'] ?? {})).toContain('delete');
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});

describe('white-label domain', () => {
  it('gives the agency title by prefix', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/domain/demo/title' });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({
      status_code: 200,
      data: {
        prefix: 'demo',
        title: 'デモエージェンシー 店舗管理',
        favicon_url: null,
        logo_url: null,
      },
    });
  });

  it('answers 404 for an unknown prefix, so the browser uses the default', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/domain/nobody/title' });
    expect(res.statusCode).toBe(404);
  });

  it('validates the prefix', async () => {
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/domain/${encodeURIComponent('a b')}/title`,
    });
    expect(res.statusCode).toBe(422);
  });
});
