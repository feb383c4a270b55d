import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SCHEMA_TEMPLATE_TEXT,
  templateMessages,
  type KnowledgeTag,
  type SchemaMarkup,
} from '@tenpo/domain';
import { decrypt } from '../src/lib/tokens';
import {
  EMBED_RATE_PER_MINUTE,
  VIEWS_PER_TAG_PER_MINUTE,
} from '../src/modules/knowledge-tag/knowledge-tag.routes';
import { PULL_AFTER_MS } from '../src/modules/store-info/store-info.service';
import {
  buildTestApp,
  call,
  json,
  login,
  multipart,
  storedCredentials,
  type TestApp,
} from './helpers';
import { photoJpeg } from './posts-harness';
import { startSandbox, type RunningSandbox } from './sandbox';

const SHIBUYA = '4821390157204861230';

type Payload = {
  ld: Record<string, unknown>;
  fields: Record<string, string>;
  analytics: number | null;
  attrs: string[];
};

/** The data the served script carries: the literal it passes to its function. */
const payloadOf = (script: string): Payload => {
  const m = /\}\)\((\{.*\})\);\n$/s.exec(script);
  if (!m?.[1]) throw new Error(`no payload in ${script.slice(0, 200)}`);
  return JSON.parse(m[1]) as Payload;
};

/** The app, the emulators and the shop's session, shared by every block below. */
let sb: RunningSandbox;
let t: TestApp;
let shop = 0;
let store04 = 0;
let token = '';
beforeAll(async () => {
  sb = await startSandbox();
  t = await buildTestApp({ SANDBOX_URL: sb.url });
  const users = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
  const idOf = (e: string) => users.find((u) => u.email === e)?.id ?? 0;
  shop = idOf('shop@tenpo.example');
  store04 = idOf('store04@tenpo.example');
});
// A fresh session each time: a test moves the clock past a session's life.
beforeEach(async () => {
  token = await login(t.app, 'shop@tenpo.example');
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

const tag = async (userId = shop, as = token) => {
  const res = await call(t.app, {
    method: 'GET',
    url: `/api/knowledge-tag?user_id=${userId}`,
    token: as,
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: KnowledgeTag }>(res).data;
};
/** The embed call as a shop's page makes it: no API key, no bearer, a Referer. */
const embed = (q: Record<string, string>, referer = 'https://cafe-tenpo.example/menu') =>
  t.app.inject({
    method: 'GET',
    url: `/api/knowledge-tag/embed?${new URLSearchParams(q).toString()}`,
    headers: { referer },
  });
const keysOf = (k: KnowledgeTag) => ({
  api_key: k.api_key,
  app_key: k.app_key,
  entity_id: k.entity_id ?? '',
});

describe('knowledge tag (issue 11 item 3): keys and the served script', () => {
  it('makes the store’s keys once, random, and names its Google location', async () => {
    const first = await tag();
    expect(first.api_key).toMatch(/^[\w-]{32}$/);
    expect(first.app_key).toMatch(/^[\w-]{32}$/);
    expect(first.api_key).not.toBe(first.app_key);
    expect(first.entity_id).toBe(SHIBUYA);
    expect(first.seen).toEqual({
      installed: false,
      first_seen_at: null,
      last_seen_at: null,
      page_origin: null,
      embed_count: 0,
      website_origin: 'https://cafe-tenpo.example',
      on_website: null,
    });
    expect(await tag()).toEqual(first);
    // Another store, other keys; a store without Google has no entity_id yet.
    const agency = await login(t.app, 'agency@tenpo.example');
    const other = await tag(store04, agency);
    expect(other.api_key).not.toBe(first.api_key);
    expect(other.entity_id).toBeNull();
    expect(other.seen).toMatchObject({ website_origin: null, on_website: null });
  });

  it('serves a script with the store’s LocalBusiness, read from Google, and records the call', async () => {
    const k = await tag();
    const res = await embed(keysOf(k));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.body).not.toMatch(/\beval\b|innerHTML|new Function/);
    const p = payloadOf(res.body);
    expect(p.ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      name: 'カフェ テンポ 渋谷店',
      address: { '@type': 'PostalAddress', postalCode: '150-0002' },
      sameAs: [
        'https://www.facebook.com/104857392017465',
        'https://www.instagram.com/cafe_tenpo_shibuya',
      ],
    });
    expect(p.fields.name).toBe('カフェ テンポ 渋谷店');
    expect(p.fields.address).toContain('〒150-0002');
    expect(p.attrs).toEqual(['data-tenpo-field', 'data-kt-field']);

    const seen = (await tag()).seen;
    expect(seen).toMatchObject({
      installed: true,
      page_origin: 'https://cafe-tenpo.example',
      embed_count: 1,
      on_website: true,
    });
    expect(seen.first_seen_at).toBe(seen.last_seen_at);

    // The phone changed at Google is the one served once the store's copy is read again from
    // Google (PULL_AFTER_MS, ADR 0041) and the tag's minute in memory is over.
    const g = await storedCredentials(t.database.db, shop, 'google_my_business');
    const edit = (phone: string) =>
      fetch(
        `${sb.url}/google/mybusinessbusinessinformation/v1/locations/${SHIBUYA}?updateMask=phoneNumbers`,
        {
          method: 'PATCH',
          headers: {
            authorization: `Bearer ${decrypt(t.config.secretKey, g?.access_token ?? '')}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ phoneNumbers: { primaryPhone: phone } }),
        },
      );
    const original = String(p.ld.telephone);
    expect((await edit('03-0000-1111')).status).toBe(200);
    try {
      expect(payloadOf((await embed(keysOf(k))).body).ld.telephone).not.toBe('03-0000-1111');
      t.clock.advance(PULL_AFTER_MS + 1000);
      const later = payloadOf((await embed(keysOf(k), 'https://other.example/')).body);
      expect(later.ld.telephone).toBe('03-0000-1111');
      expect(later.fields.telephone).toBe('03-0000-1111');
    } finally {
      await edit(original);
    }
    const after = (await tag()).seen;
    expect(after).toMatchObject({
      page_origin: 'https://other.example',
      embed_count: 3,
      on_website: false,
    });
    expect(after.first_seen_at).toBe(seen.first_seen_at);
    expect(after.last_seen_at).not.toBe(seen.first_seen_at);

    // Spec 2 §9's 30 days: a tag not seen since is no longer reported installed.
    t.clock.advance(31 * 24 * 3600_000);
    token = await login(t.app, 'shop@tenpo.example');
    expect((await tag()).seen.installed).toBe(false);
  });

  it('offers the store’s products and shows its photos (from the catalogue and the library)', async () => {
    const k = await tag();
    const made = await call(t.app, {
      method: 'POST',
      url: '/api/posts/products',
      token,
      ...multipart({
        user_id: String(shop),
        productName: '季節のケーキセット',
        category: '0',
        productCategory: 'ケーキ',
        priceRange: '1',
        minimumPrice: '800',
        maximumPrice: '1200',
        productDescription: 'ケーキとドリンクのセット',
      }),
    });
    expect(made.statusCode, made.body).toBe(200);
    const up = await call(t.app, {
      method: 'POST',
      url: '/api/photos/upload',
      token,
      ...multipart(
        { user_id: String(shop) },
        { photos: { filename: 'shop.jpg', type: 'image/jpeg', data: await photoJpeg() } },
      ),
    });
    expect(up.statusCode, up.body).toBe(200);
    t.clock.advance(61_000);
    const { ld } = payloadOf((await embed(keysOf(k))).body);
    expect(ld.makesOffer).toEqual([
      expect.objectContaining({
        '@type': 'Offer',
        priceSpecification: expect.objectContaining({
          minPrice: 800,
          maxPrice: 1200,
          priceCurrency: 'JPY',
        }),
      }),
    ]);
    expect(JSON.stringify(ld.makesOffer)).toContain('季節のケーキセット');
    const images = Array.isArray(ld.image) ? (ld.image as string[]) : [ld.image as string];
    expect(images.filter(Boolean)).toHaveLength(1);
    // Google's URL of the photo: the library sent it there.
    expect(String(images[0])).toMatch(/^https?:\/\//);
  });
});

describe('knowledge tag (issue 11 item 3): wrong keys, the markup template, analytics', () => {
  it('answers 404 to wrong keys, saying nothing of which', async () => {
    const k = keysOf(await tag());
    const before = (await tag()).seen.embed_count;
    for (const q of [
      { ...k, api_key: 'x'.repeat(32) },
      { ...k, app_key: `${k.app_key.slice(0, -1)}${k.app_key.endsWith('a') ? 'b' : 'a'}` },
      { ...k, entity_id: '4821390157204861231' },
      { ...k, api_key: k.app_key, app_key: k.api_key },
    ]) {
      const res = await embed(q);
      expect(res.statusCode, JSON.stringify(q)).toBe(404);
      expect(res.body).not.toContain(k.api_key);
      expect(json(res)).toMatchObject({ status_code: 404, message: '対象が見つかりません。' });
    }
    expect((await embed({ api_key: k.api_key })).statusCode).toBe(422);
    expect((await tag()).seen.embed_count).toBe(before);
  });

  it('keeps the markup template per store, serves it, refuses invalid JSON, and resets', async () => {
    const k = keysOf(await tag());
    const put = (template: string) =>
      call(t.app, {
        method: 'PUT',
        url: '/api/knowledge-tag/schema-markup',
        token,
        payload: { user_id: shop, template },
      });
    const get = async () =>
      json<{ data: SchemaMarkup }>(
        await call(t.app, {
          method: 'GET',
          url: `/api/knowledge-tag/schema-markup?user_id=${shop}`,
          token,
        }),
      ).data;
    expect(await get()).toEqual({
      template: DEFAULT_SCHEMA_TEMPLATE_TEXT,
      is_default: true,
      default_template: DEFAULT_SCHEMA_TEMPLATE_TEXT,
    });

    for (const [text, message] of [
      ['{"@type": "Cafe",', templateMessages.invalidJson],
      ['["{{name}}"]', templateMessages.notObject],
      ['{"a": "{{menu}}"}', templateMessages.unknownPlaceholder(['menu'])],
    ] as const) {
      const bad = await put(text);
      expect(bad.statusCode, bad.body).toBe(422);
      expect(json(bad)).toMatchObject({ message: message, errors: { template: [message] } });
    }
    expect((await get()).is_default).toBe(true);

    const mine = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'CafeOrCoffeeShop',
      name: '{{name}}（{{locality}}）',
      servesCuisine: 'コーヒー',
    });
    const saved = await put(mine);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await get()).toMatchObject({ template: mine, is_default: false });
    expect(payloadOf((await embed(k)).body).ld).toEqual({
      '@context': 'https://schema.org',
      '@type': 'CafeOrCoffeeShop',
      name: 'カフェ テンポ 渋谷店（渋谷区）',
      servesCuisine: 'コーヒー',
    });

    const reset = await call(t.app, {
      method: 'DELETE',
      url: `/api/knowledge-tag/schema-markup?user_id=${shop}`,
      token,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await get()).is_default).toBe(true);
    expect(payloadOf((await embed(k)).body).ld['@type']).toBe('LocalBusiness');
  });

  it('records the analytics option; the script carries it and views count as it says', async () => {
    const k = keysOf(await tag());
    const set = (analytics_option: unknown) =>
      call(t.app, {
        method: 'PUT',
        url: '/api/knowledge-tag/settings',
        token,
        payload: { user_id: shop, analytics_option },
      });
    // A beacon from the store's own website (its information names https://cafe-tenpo.example).
    const view = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/knowledge-tag/view?${new URLSearchParams(k).toString()}`,
        headers: { origin: 'https://www.cafe-tenpo.example' },
      });
    for (const bad of [3, -1, 'x', null]) {
      const res = await set(bad);
      expect(res.statusCode, String(bad)).toBe(422);
      expect(res.body).toContain('アクセス解析の設定を選択してください。');
    }
    // Never chosen: off.
    expect((await view()).statusCode).toBe(204);
    expect((await tag()).view_count).toBe(0);
    for (const [option, counted] of [
      [1, 0],
      [0, 1],
      [2, 1],
    ] as const) {
      const before = (await tag()).view_count;
      const res = await set(option);
      expect(res.statusCode, res.body).toBe(200);
      expect(json<{ data: KnowledgeTag }>(res).data.analytics_option).toBe(option);
      expect(payloadOf((await embed(k)).body).analytics).toBe(option);
      expect((await view()).statusCode).toBe(204);
      expect((await tag()).view_count - before).toBe(counted);
    }
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/api/knowledge-tag/view?${new URLSearchParams({ ...k, app_key: 'nope' }).toString()}`,
    });
    expect(wrong.statusCode).toBe(404);
  });
});

describe('knowledge tag (issue 11 item 3): which views count, and the rate limits', () => {
  it('counts only beacons from the store’s own website; a forged origin counts nothing (issue 22 item 10)', async () => {
    const k = keysOf(await tag());
    const set = await call(t.app, {
      method: 'PUT',
      url: '/api/knowledge-tag/settings',
      token,
      payload: { user_id: shop, analytics_option: 0 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const view = (headers: Record<string, string>, remoteAddress = '198.51.100.7') =>
      t.app.inject({
        method: 'POST',
        url: `/api/knowledge-tag/view?${new URLSearchParams(k).toString()}`,
        headers,
        remoteAddress,
      });
    const before = (await tag()).view_count;
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example' },
      { origin: 'https://evil.example', referer: 'https://cafe-tenpo.example/' },
      { origin: 'null' },
      { referer: 'https://cafe-tenpo.example.evil.example/' },
      {},
    ])
      for (let i = 0; i < 5; i++) expect((await view(headers)).statusCode).toBe(204);
    expect((await tag()).view_count).toBe(before);
    expect((await view({ origin: 'https://cafe-tenpo.example' })).statusCode).toBe(204);
    expect((await view({ referer: 'http://www.cafe-tenpo.example/menu' })).statusCode).toBe(204);
    expect((await tag()).view_count).toBe(before + 2);
  });

  it('a store with no website set counts no view (ADR 0066)', async () => {
    // The shop's copy of its information loses its website.
    const db = t.database.db;
    const row = await db
      .selectFrom('store_profiles')
      .select('contacts')
      .where('store_id', '=', shop)
      .executeTakeFirstOrThrow();
    const contacts = JSON.parse(row.contacts) as { website_url: { url: string | null } };
    await db
      .updateTable('store_profiles')
      .set({
        contacts: JSON.stringify({
          ...contacts,
          website_url: { ...contacts.website_url, url: null },
        }),
      })
      .where('store_id', '=', shop)
      .execute();
    try {
      const k = keysOf(await tag());
      const before = (await tag()).view_count;
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/knowledge-tag/view?${new URLSearchParams(k).toString()}`,
        headers: { origin: 'https://cafe-tenpo.example' },
      });
      expect(res.statusCode).toBe(204);
      expect((await tag()).view_count).toBe(before);
    } finally {
      await db
        .updateTable('store_profiles')
        .set({ contacts: row.contacts })
        .where('store_id', '=', shop)
        .execute();
    }
  });

  it(`limits one tag's views to ${VIEWS_PER_TAG_PER_MINUTE} a minute, from any number of addresses`, async () => {
    const k = keysOf(await tag());
    const hit = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/knowledge-tag/view?${new URLSearchParams(k).toString()}`,
        headers: { origin: 'https://cafe-tenpo.example' },
        remoteAddress: `192.0.2.${i % 250}`,
      });
    // The tests before this one reported views of this tag within the same minute: the 204s
    // stop within the limit, whatever is left of it, and 429s follow.
    const statuses: number[] = [];
    for (let i = 0; i <= VIEWS_PER_TAG_PER_MINUTE; i++) statuses.push((await hit(i)).statusCode);
    const first429 = statuses.indexOf(429);
    expect(first429).toBeGreaterThanOrEqual(0);
    expect(statuses.slice(0, first429).every((s) => s === 204)).toBe(true);
    expect(statuses.slice(first429).every((s) => s === 429)).toBe(true);
    const refused = await hit(1);
    expect(refused.json()).toMatchObject({ status_code: 429 });
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it(`limits the public calls to ${EMBED_RATE_PER_MINUTE} a minute per address`, async () => {
    const q = new URLSearchParams({ api_key: 'a', app_key: 'b', entity_id: 'c' }).toString();
    const hit = () =>
      t.app.inject({
        method: 'GET',
        url: `/api/knowledge-tag/embed?${q}`,
        remoteAddress: '203.0.113.9',
      });
    for (let i = 0; i < EMBED_RATE_PER_MINUTE; i++) expect((await hit()).statusCode).toBe(404);
    expect((await hit()).statusCode).toBe(429);
  });
});
