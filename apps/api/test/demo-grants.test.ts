import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxDemoGrants } from '@tenpo/sandbox';
import { seedDemo } from '../src/db/seed';
import { decrypt } from '../src/lib/tokens';
import { buildTestApp, call, json, login, type TestApp } from './helpers';
import { startSandbox, type RunningSandbox } from './sandbox';

/**
 * DESIGN §8 in sandbox mode: the demo shop and the trial hold the emulators' seeded grants, so
 * every call that needs the provider works from the first start, without a consent.
 */
type Row = {
  publisher_key: string;
  status: number;
  entity_id: string | null;
  location_name: string | null;
  postal_code: string | null;
  address_lines: string[];
  store_code: string | null;
  log: string[];
};

const SHIBUYA = '4821390157204861230';
const SHOP_LOCATIONS = [SHIBUYA, '4821390157204861231', '4821390157204861232'];

const userIds = async (t: TestApp) =>
  Object.fromEntries(
    (await t.database.db.selectFrom('users').select(['id', 'email']).execute()).map((u) => [
      u.email,
      u.id,
    ]),
  ) as Record<string, number>;

const publishers = async (t: TestApp, token: string, userId: number) => {
  const res = await call(t.app, { method: 'GET', url: `/api/publisher?user_id=${userId}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(json<{ data: Row[] }>(res).data.map((r) => [r.publisher_key, r]));
};

const snapshot = (t: TestApp) =>
  Promise.all([
    t.database.db.selectFrom('publisher_connections').selectAll().orderBy('id').execute(),
    t.database.db.selectFrom('channel_credentials').selectAll().orderBy('id').execute(),
  ]);

describe('sandbox mode: the demo stores hold real grants', () => {
  let sb: RunningSandbox;
  let t: TestApp;
  let ids: Record<string, number>;
  beforeAll(async () => {
    sb = await startSandbox();
    t = await buildTestApp({ SANDBOX_URL: sb.url });
    ids = await userIds(t);
  });
  afterAll(async () => {
    await t?.close();
    await sb?.close();
  });

  const credentials = (userId: number, key: string) =>
    t.database.db
      .selectFrom('channel_credentials')
      .selectAll()
      .where('user_id', '=', userId)
      .where('publisher_key', '=', key)
      .executeTakeFirstOrThrow();
  const open = (v: string | null) => decrypt(t.config.secretKey, v as string);

  it('shows Google, Facebook and Instagram connected for the shop, as a connect flow leaves them', async () => {
    const shop = ids['shop@tenpo.example'] as number;
    const token = await login(t.app, 'shop@tenpo.example');
    const rows = await publishers(t, token, shop);
    expect(rows.google_my_business).toMatchObject({
      status: 1,
      entity_id: SHIBUYA,
      location_name: 'カフェ テンポ 渋谷店',
      postal_code: '150-0002',
      address_lines: ['渋谷2-21-1', '渋谷ヒカリエ 6F'],
      store_code: 'TENPO-001',
      log: [],
    });
    expect(rows.facebook).toMatchObject({
      status: 1,
      entity_id: '104857392017465',
      location_name: 'カフェ テンポ 渋谷店',
    });
    expect(rows.instagram).toMatchObject({
      status: 1,
      entity_id: '17841400000000101',
      location_name: '@cafe_tenpo_shibuya',
    });
    expect(rows.twitter?.status).toBe(0);

    // Tokens are sealed at rest, as publisher.service and facebook-pages.service store them.
    const google = await credentials(shop, 'google_my_business');
    const grant = sandboxDemoGrants.google.find((g) => g.email === 'shop@tenpo.example');
    expect(google.refresh_token).not.toContain('1//');
    expect(open(google.refresh_token)).toBe(grant?.refreshToken);
    expect(open(google.access_token)).toBe('');
    expect(google.provider_user_id).toBe('shop@tenpo.example');
    const fb = await credentials(shop, 'facebook');
    const fbGrant = sandboxDemoGrants.facebook[0];
    expect(open(fb.access_token)).toBe(fbGrant?.userToken);
    expect(open(fb.page_token)).toBe(fbGrant?.page.token);
    expect(fb).toMatchObject({
      page_id: '104857392017465',
      provider_user_id: '122104567890123456',
    });
    const ig = await credentials(shop, 'instagram');
    expect(open(ig.access_token)).toBe(fbGrant?.page.token);
    expect(ig).toMatchObject({ page_id: '104857392017465', ig_user_id: '17841400000000101' });
  });

  it("lists the shop's three locations from the sandbox, refreshing the token first, and syncs", async () => {
    const shop = ids['shop@tenpo.example'] as number;
    const token = await login(t.app, 'shop@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/entity/locations?user_id=${shop}&page=1`,
      token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = json<{ data: { data: { id: string; title: string }[]; total: number } }>(res).data;
    expect(page.total).toBe(3);
    expect(page.data.map((l) => l.id).sort()).toEqual([...SHOP_LOCATIONS].sort());

    const after = await credentials(shop, 'google_my_business');
    expect(open(after.access_token)).toMatch(/^ya29\./);
    expect(Date.parse(after.expires_at as string)).toBeGreaterThan(t.clock.now().getTime());

    const sync = await call(t.app, {
      method: 'POST',
      url: '/api/publisher/google-my-business/sync',
      token,
      payload: { user_id: shop },
    });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(json<{ data: Row }>(sync).data).toMatchObject({
      status: 2,
      entity_id: SHIBUYA,
      location_name: 'カフェ テンポ 渋谷店',
    });
  });

  it("lists the shop's Facebook pages with the seeded user token", async () => {
    const shop = ids['shop@tenpo.example'] as number;
    const token = await login(t.app, 'shop@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/publisher/facebook/pages?user_id=${shop}`,
      token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const pages = json<{ data: { id: string; is_connected_instagram: boolean }[] }>(res).data;
    expect(pages).toHaveLength(4);
    expect(pages.find((p) => p.id === '104857392017465')?.is_connected_instagram).toBe(true);
  });

  it("connects the trial's Google listing and reads it from the sandbox", async () => {
    const trial = ids['trial@tenpo.example'] as number;
    const token = await login(t.app, 'trial@tenpo.example');
    expect((await publishers(t, token, trial)).google_my_business).toMatchObject({
      status: 1,
      entity_id: '5930178246613098001',
      location_name: 'ヘアサロン はな 下北沢',
    });
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/entity/locations?user_id=${trial}`,
      token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ data: { data: { id: string }[] } }>(res).data.data.map((l) => l.id)).toEqual([
      '5930178246613098001',
    ]);
  });

  it('seeding again changes nothing', async () => {
    const before = await snapshot(t);
    expect(
      await seedDemo(t.database.db, t.clock, {
        grants: sandboxDemoGrants,
        secretKey: t.config.secretKey,
      }),
    ).toEqual({ created: 0 });
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('live mode: no provider holds a grant for the demo stores', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      TENPO_PROVIDERS: 'live',
      GOOGLE_CLIENT_ID: 'live-google-id',
      GOOGLE_CLIENT_SECRET: 'live-google-secret',
      FACEBOOK_APP_ID: 'live-facebook-id',
      FACEBOOK_APP_SECRET: 'live-facebook-secret',
      X_CLIENT_ID: 'live-x-id',
      X_CLIENT_SECRET: 'live-x-secret',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('seeds the shop and the trial disconnected, without credentials', async () => {
    const ids = await userIds(t);
    const shop = ids['shop@tenpo.example'] as number;
    const token = await login(t.app, 'shop@tenpo.example');
    const rows = await publishers(t, token, shop);
    for (const key of ['google_my_business', 'facebook', 'instagram'])
      expect(rows[key], key).toMatchObject({ status: 0, entity_id: null, location_name: null });
    const trial = ids['trial@tenpo.example'] as number;
    const trialToken = await login(t.app, 'trial@tenpo.example');
    expect((await publishers(t, trialToken, trial)).google_my_business?.status).toBe(0);
    expect(await t.database.db.selectFrom('channel_credentials').selectAll().execute()).toEqual([]);
    const again = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      payload: { email: 'shop@tenpo.example', password: 'tenpo-demo-1' },
    });
    expect(json<{ data: { connect_GMB: boolean } }>(again).data.connect_GMB).toBe(false);

    const before = await snapshot(t);
    expect(await seedDemo(t.database.db, t.clock)).toEqual({ created: 0 });
    expect(await snapshot(t)).toEqual(before);
  });
});
