import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, login, multipart, png, type TestApp } from './helpers';

/**
 * Issue 22 item 8: an id is a whole number or a string of digits, on every operation that takes
 * one; `[2]`, `"0x2"`, `"2.0"` and `true` (which became store 1) answer 422, never a store.
 */
let t: TestApp;
let shop = '';
let manager = '';
let shopId = 0;
let agencyId = 0;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const byEmail = async (e: string) =>
    (await db.selectFrom('users').select('id').where('email', '=', e).executeTakeFirstOrThrow()).id;
  shopId = await byEmail('shop@tenpo.example');
  agencyId = await byEmail('agency@tenpo.example');
  shop = await login(t.app, 'shop@tenpo.example');
  manager = await login(t.app, 'manager@tenpo.example');
});
afterAll(async () => {
  await t.close();
});

/** What an id may not be: each a way `Number()` or `z.coerce` turned into the id. */
const forged = (id: number): unknown[] => [
  [id],
  `0x${id.toString(16)}`,
  `${id}.0`,
  true,
  `${id}e0`,
];

type Op = {
  name: string;
  token: () => string;
  call: (id: unknown) => {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    payload?: object;
  };
  /** The id the operation is called with when it must work. */
  good: () => number;
};

const q = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));

const ops: Op[] = [
  {
    name: 'GET /posts (query user_id)',
    token: () => shop,
    good: () => shopId,
    call: (id) => ({ method: 'GET', url: `/api/posts?user_id=${q(id)}` }),
  },
  {
    name: 'GET /photos (query user_id)',
    token: () => shop,
    good: () => shopId,
    call: (id) => ({ method: 'GET', url: `/api/photos?user_id=${q(id)}` }),
  },
  {
    name: 'GET /posts/products (query user_id)',
    token: () => shop,
    good: () => shopId,
    call: (id) => ({ method: 'GET', url: `/api/posts/products?user_id=${q(id)}` }),
  },
  {
    name: 'POST /dashboard/box-data (JSON user_id)',
    token: () => shop,
    good: () => shopId,
    call: (id) => ({
      method: 'POST',
      url: '/api/dashboard/box-data',
      payload: { user_id: id, range: '7' },
    }),
  },
  {
    name: 'PUT /knowledge-tag/settings (JSON user_id)',
    token: () => shop,
    good: () => shopId,
    call: (id) => ({
      method: 'PUT',
      url: '/api/knowledge-tag/settings',
      payload: { user_id: id, analytics_option: 0 },
    }),
  },
  {
    name: 'GET /admin/agencies/{id} (path id)',
    token: () => manager,
    good: () => agencyId,
    call: (id) => ({ method: 'GET', url: `/api/admin/agencies/${q(id)}` }),
  },
  {
    name: 'GET /admin/stores (query agency_id)',
    token: () => manager,
    good: () => agencyId,
    call: (id) => ({ method: 'GET', url: `/api/admin/stores?agency_id=${q(id)}` }),
  },
];

describe('ids are integers (issue 22 item 8)', () => {
  it.each(ops.map((o) => [o.name, o] as const))('%s: a forged id is 422', async (_n, op) => {
    const ok = await call(t.app, { ...op.call(op.good()), token: op.token() });
    expect([op.call(op.good()).url, ok.statusCode]).toEqual([op.call(op.good()).url, 200]);
    for (const v of forged(op.good())) {
      const res = await call(t.app, { ...op.call(v), token: op.token() });
      expect([v, res.statusCode]).toEqual([v, 422]);
      expect(res.json()).toMatchObject({ status_code: 422, message: expect.any(String) });
    }
  });

  it("a post's form user_id takes digits only: 0x1 and 1.0 are no store", async () => {
    for (const v of ['0x1', '1.0', '1e0', `${shopId},0x2`]) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/posts',
        token: shop,
        ...multipart({
          user_id: v,
          content: `お知らせ ${v}`,
          shared_sns_type: 'google_my_business',
        }),
      });
      expect([v, res.statusCode]).toEqual([v, 422]);
      expect(Object.keys((res.json() as { errors: object }).errors)).toContain('user_id');
    }
  });

  it("a photo upload's user_id takes digits only: 0x1 and 1.0 store nothing", async () => {
    const before = await t.database.db
      .selectFrom('photos')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const v of ['0x1', '1.0', '1e0']) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/photos/upload',
        token: shop,
        ...multipart(
          { user_id: v },
          { photos: { filename: 'p.png', type: 'image/png', data: png() } },
        ),
      });
      expect([v, res.statusCode]).toEqual([v, 404]);
    }
    const after = await t.database.db
      .selectFrom('photos')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('true is not store 1, and a number past the largest id is 422, not a database error', async () => {
    expect(shopId).toBe(1); // the demo's shop is store 1: `true` was its id
    for (const v of [true, '2147483648', 2147483648, '99999999999999999999']) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/dashboard/box-data',
        token: shop,
        payload: { user_id: v, range: '7' },
      });
      expect([v, res.statusCode]).toEqual([v, 422]);
    }
  });
});
