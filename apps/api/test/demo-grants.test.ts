import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BasicInformation } from '@tenpo/domain';
import { sandboxDemoGrants } from '@tenpo/sandbox';
import { demoSeedFor } from '../src/compose';
import { seedDemo } from '../src/db/seed';
import { decrypt } from '../src/lib/tokens';
import { PULL_AFTER_MS } from '../src/modules/store-info/store-info.service';
import {
  buildTestApp,
  call,
  json,
  login,
  SBPS_LIVE_ENV,
  storedCredentials,
  type TestApp,
} from './helpers';
import { startSandbox, type RunningSandbox } from './sandbox';

/**
 * DESIGN §8 in sandbox mode: every demo store shown connected holds the emulators' seeded
 * grants, so every call that needs the provider works from the first start, without a consent.
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

/** The agency's stores shown connected to Google (store04, store09 and store12 are not). */
const AGENCY_CONNECTED = [
  'leader@tenpo.example',
  'store02@tenpo.example',
  'store03@tenpo.example',
  'store05@tenpo.example',
  'store06@tenpo.example',
  'store07@tenpo.example',
  'store08@tenpo.example',
  'store10@tenpo.example',
  'store11@tenpo.example',
];
/** Stores shown connected that act for themselves. */
const OWN_STORES = ['expired@tenpo.example', 'payfail@tenpo.example'];
const MINATO_USER = 'gbp@minato-foods.example';

type Page<T> = { data: { data: T[]; total: number } };
const googleOf = (store: string) => {
  const g = sandboxDemoGrants.google.find((x) => x.store === store);
  if (!g) throw new Error(`no grant for ${store}`);
  return g;
};

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

/** The sandbox-mode app with the demo data, shared by the four blocks of the first describe. */
let sb: RunningSandbox;
let t: TestApp;
let ids: Record<string, number>;

const credentials = async (userId: number, key: string) => {
  const row = await storedCredentials(t.database.db, userId, key);
  if (!row) throw new Error(`no ${key} credentials for store ${userId}`);
  return row;
};
const open = (v: string | null) => decrypt(t.config.secretKey, v as string);

/** The shop's grants: Google, Facebook and Instagram, its locations and its pages. */
const theShop = () => {
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
};

/** The trial's Google listing, and a store without one. */
const theTrial = () => {
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

  it("reads the trial's basic information from its Google listing, main phone included", async () => {
    const trial = ids['trial@tenpo.example'] as number;
    const token = await login(t.app, 'trial@tenpo.example');
    const read = async () => {
      const res = await call(t.app, {
        method: 'GET',
        url: `/api/entity/basic-information?user_id=${trial}`,
        token,
      });
      expect(res.statusCode, res.body).toBe(200);
      return json<{ data: BasicInformation }>(res).data;
    };
    const first = await read();
    expect(first.core_information).toMatchObject({
      id: '5930178246613098001',
      name: 'ヘアサロン はな 下北沢',
      main_phone: '03-3466-7781',
      address: { postalCode: '155-0031', address1: '北沢2-14-7', address2: 'シモキタビル 2F' },
    });
    expect(first.contact_website_apps.website_url.url).toBe('https://hana-salon.example');

    // A phone changed at Google is read back into Tenpo's copy once the copy is older than
    // PULL_AFTER_MS (ADR 0041): not before, and without a save of Tenpo's own on its way.
    const g = await credentials(trial, 'google_my_business');
    const edit = (phone: string) =>
      fetch(
        `${sb.url}/google/mybusinessbusinessinformation/v1/locations/5930178246613098001?updateMask=phoneNumbers`,
        {
          method: 'PATCH',
          headers: {
            authorization: `Bearer ${open(g.access_token)}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ phoneNumbers: { primaryPhone: phone } }),
        },
      );
    expect((await edit('03-3466-0000')).status).toBe(200);
    try {
      expect((await read()).core_information.main_phone).toBe('03-3466-7781');
      t.clock.advance(PULL_AFTER_MS + 1000);
      expect((await read()).core_information.main_phone).toBe('03-3466-0000');
    } finally {
      expect((await edit('03-3466-7781')).status).toBe(200);
    }
  });

  it('answers 409 in Japanese for basic information of a store not connected to Google', async () => {
    const token = await login(t.app, 'agency@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/entity/basic-information?user_id=${ids['store04@tenpo.example'] as number}`,
      token,
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.body).toContain('Google');
  });
};

/** The agency's connected stores, and the Minato stores' shared Google user. */
const theAgencyStores = () => {
  it("shows exactly the agency's nine stores connected, and login says so for each", async () => {
    const agency = await login(t.app, 'agency@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/agency/stores?per_page=50',
      token: agency,
    });
    expect(res.statusCode, res.body).toBe(200);
    const stores = json<Page<{ email: string; google_status: number }>>(res).data.data;
    expect(stores).toHaveLength(12);
    expect(stores.filter((s) => s.google_status === 1).map((s) => s.email)).toEqual(
      AGENCY_CONNECTED,
    );
    for (const email of [...OWN_STORES, ...AGENCY_CONNECTED]) {
      const r = await call(t.app, {
        method: 'POST',
        url: '/api/login',
        payload: { email, password: 'tenpo-demo-1' },
      });
      expect(json<{ data: { connect_GMB: boolean } }>(r).data.connect_GMB, email).toBe(true);
    }
  });

  it.each([
    ...AGENCY_CONNECTED.map((store) => [store, 'agency@tenpo.example'] as const),
    ...OWN_STORES.map((store) => [store, store] as const),
  ])(
    '%s: lists its locations from the sandbox and syncs its listing (as %s)',
    async (store, actor) => {
      const grant = googleOf(store);
      const userId = ids[store] as number;
      const token = await login(t.app, actor);
      const row = (await publishers(t, token, userId)).google_my_business;
      expect(row).toMatchObject({
        status: 1,
        entity_id: grant.location.id,
        location_name: grant.location.title,
        postal_code: grant.location.postalCode,
        address_lines: grant.location.addressLines,
        store_code: grant.location.storeCode,
      });
      const creds = await credentials(userId, 'google_my_business');
      expect(creds.provider_user_id).toBe(grant.email);
      expect(open(creds.refresh_token)).toBe(grant.refreshToken);

      const res = await call(t.app, {
        method: 'GET',
        url: `/api/entity/locations?user_id=${userId}`,
        token,
      });
      expect(res.statusCode, res.body).toBe(200);
      const found = json<Page<{ id: string; title: string }>>(res).data.data;
      expect(found).toContainEqual(
        expect.objectContaining({ id: grant.location.id, title: grant.location.title }),
      );

      const sync = await call(t.app, {
        method: 'POST',
        url: '/api/publisher/google-my-business/sync',
        token,
        payload: { user_id: userId },
      });
      expect(sync.statusCode, sync.body).toBe(200);
      expect(json<{ data: Row }>(sync).data).toMatchObject({
        status: 2,
        entity_id: grant.location.id,
        location_name: grant.location.title,
      });
    },
  );

  it("lets the Minato stores share their company's Google user and its four listings", async () => {
    const agency = await login(t.app, 'agency@tenpo.example');
    const minato = AGENCY_CONNECTED.slice(0, 3);
    for (const store of minato) {
      expect(googleOf(store).email).toBe(MINATO_USER);
      const res = await call(t.app, {
        method: 'GET',
        url: `/api/entity/locations?user_id=${ids[store]}`,
        token: agency,
      });
      expect(json<Page<{ title: string }>>(res).data.data.map((l) => l.title)).toEqual([
        'カフェ・ミナト 渋谷店',
        'カフェ・ミナト 新宿店',
        'カフェ・ミナト 池袋店',
        'カフェ・ミナト 品川店',
      ]);
    }
    // store04 (品川店) is not connected: nothing of Google stands behind it yet.
    const store04 = ids['store04@tenpo.example'] as number;
    expect((await publishers(t, agency, store04)).google_my_business?.status).toBe(0);
    const none = await call(t.app, {
      method: 'GET',
      url: `/api/entity/locations?user_id=${store04}`,
      token: agency,
    });
    expect(none.statusCode).toBe(409);
  });
};

/** Every demo store's names match the providers'; seeding twice adds nothing. */
const namesAndReseeding = () => {
  it('links each demo store to a Google listing and a Facebook page of its own name', async () => {
    const linked = await t.database.db
      .selectFrom('publisher_connections as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['u.email', 'u.store_name', 'c.publisher_key', 'c.location_name', 'c.entity_id'])
      .where('c.publisher_key', 'in', ['google_my_business', 'facebook'])
      .where('c.status', '<>', 0)
      .orderBy('c.id')
      .execute();
    // The shop's Google and Facebook, the trial's, the two own stores' and the agency's nine.
    expect(linked).toHaveLength(2 + 1 + OWN_STORES.length + AGENCY_CONNECTED.length);
    expect(linked.filter((r) => r.location_name !== r.store_name)).toEqual([]);

    // And at the providers themselves: the listing's title and the page's name, as the sandbox's
    // own APIs answer them with the stores' grants.
    const atProvider = async (r: (typeof linked)[number]): Promise<string> => {
      if (r.publisher_key === 'facebook') {
        const grant = sandboxDemoGrants.facebook.find((g) => g.page.id === r.entity_id);
        const res = await fetch(
          `${sb.url}/facebook/graph/v25.0/${r.entity_id}?fields=name&access_token=${grant?.page.token}`,
        );
        expect(res.status, r.email).toBe(200);
        return ((await res.json()) as { name: string }).name;
      }
      const token = await fetch(`${sb.url}/google/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: googleOf(r.email).refreshToken,
          client_id: 'tenpo-sandbox',
          client_secret: 'tenpo-sandbox-secret',
        }),
      });
      const { access_token } = (await token.json()) as { access_token: string };
      const res = await fetch(
        `${sb.url}/google/mybusinessbusinessinformation/v1/locations/${r.entity_id}?readMask=title`,
        { headers: { authorization: `Bearer ${access_token}` } },
      );
      expect(res.status, r.email).toBe(200);
      return ((await res.json()) as { title: string }).title;
    };
    const mismatched: string[] = [];
    for (const r of linked) {
      const name = await atProvider(r);
      if (name !== r.store_name) mismatched.push(`${r.email} ${r.publisher_key}: ${name}`);
    }
    expect(mismatched).toEqual([]);
  });

  it('seeding again changes nothing', async () => {
    const before = await snapshot(t);
    expect(await seedDemo(t.database.db, t.clock, demoSeedFor(t.config))).toEqual({ created: 0 });
    expect(await snapshot(t)).toEqual(before);
  });
};

describe('sandbox mode: the demo stores hold real grants', () => {
  beforeAll(async () => {
    sb = await startSandbox();
    t = await buildTestApp({ SANDBOX_URL: sb.url });
    ids = await userIds(t);
  });
  afterAll(async () => {
    await t?.close();
    await sb?.close();
  });

  describe('the shop', theShop);
  describe('the trial', theTrial);
  describe("the agency's stores", theAgencyStores);
  describe('names at the providers, and seeding again', namesAndReseeding);
});

describe("disconnecting one of an agency client's stores (ADR 0011: revocation skipped when shared)", () => {
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

  /** Asks the sandbox itself whether the company's grant still refreshes. */
  const grantAlive = async (refreshToken: string): Promise<boolean> => {
    const res = await fetch(`${sb.url}/google/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: 'tenpo-sandbox',
        client_secret: 'tenpo-sandbox-secret',
      }),
    });
    return res.status === 200;
  };
  const disconnect = (token: string, store: string) =>
    call(t.app, {
      method: 'PUT',
      url: '/api/publisher/disconnect',
      token,
      payload: { publisher_id: 1, entity_id: null, user_id: ids[store] },
    });
  const locations = (token: string, store: string) =>
    call(t.app, { method: 'GET', url: `/api/entity/locations?user_id=${ids[store]}`, token });

  it("leaves the sibling stores' grant working until the last one lets it go", async () => {
    const agency = await login(t.app, 'agency@tenpo.example');
    const grant = googleOf('store02@tenpo.example');
    expect(googleOf('leader@tenpo.example').refreshToken).toBe(grant.refreshToken);

    const off = await disconnect(agency, 'store02@tenpo.example');
    expect(off.statusCode, off.body).toBe(200);
    const rows = json<{ data: Row[] }>(off).data;
    expect(rows.find((r) => r.publisher_key === 'google_my_business')).toMatchObject({
      status: 0,
      entity_id: null,
    });
    expect((await locations(agency, 'store02@tenpo.example')).statusCode).toBe(409);

    // The company's grant was not revoked: the leader's store still reads Google through it,
    // refreshing its token at the sandbox first (nothing was fetched for it before).
    expect(await grantAlive(grant.refreshToken)).toBe(true);
    const sibling = await locations(agency, 'leader@tenpo.example');
    expect(sibling.statusCode, sibling.body).toBe(200);
    expect(json<Page<{ id: string }>>(sibling).data.data.map((l) => l.id)).toContain(
      googleOf('leader@tenpo.example').location.id,
    );

    // Once no other store holds it, disconnecting ends the grant at Google.
    expect((await disconnect(agency, 'leader@tenpo.example')).statusCode).toBe(200);
    expect(await grantAlive(grant.refreshToken)).toBe(true);
    expect((await locations(agency, 'store03@tenpo.example')).statusCode).toBe(200);
    expect((await disconnect(agency, 'store03@tenpo.example')).statusCode).toBe(200);
    expect(await grantAlive(grant.refreshToken)).toBe(false);
    // Other companies' grants are theirs alone and untouched.
    expect(await grantAlive(googleOf('store05@tenpo.example').refreshToken)).toBe(true);
    expect((await locations(agency, 'store05@tenpo.example')).statusCode).toBe(200);
  });
});

describe('live mode: no provider holds a grant for the demo stores', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      TENPO_PROVIDERS: 'live',
      // Live providers are production: a secret key of its own, real mail and an https address
      // are required (config.ts, ADR 0051).
      TENPO_SECRET_KEY: 'ef'.repeat(32),
      SMTP_URL: 'smtp://127.0.0.1:9',
      PUBLIC_URL: 'https://tenpo.test',
      GOOGLE_CLIENT_ID: 'live-google-id',
      GOOGLE_CLIENT_SECRET: 'live-google-secret',
      FACEBOOK_APP_ID: 'live-facebook-id',
      FACEBOOK_APP_SECRET: 'live-facebook-secret',
      X_CLIENT_ID: 'live-x-id',
      X_CLIENT_SECRET: 'live-x-secret',
      ...SBPS_LIVE_ENV,
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
    const agency = await login(t.app, 'agency@tenpo.example');
    const stores = await call(t.app, {
      method: 'GET',
      url: '/api/agency/stores?per_page=50',
      token: agency,
    });
    expect(
      json<Page<{ google_status: number }>>(stores).data.data.every((s) => s.google_status === 0),
    ).toBe(true);
    for (const email of ['expired@tenpo.example', 'payfail@tenpo.example']) {
      const token = await login(t.app, email);
      const row = (await publishers(t, token, ids[email] as number)).google_my_business;
      expect(row, email).toMatchObject({ status: 0, entity_id: null });
    }
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
