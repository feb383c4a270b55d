import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdministrativeArea, BusinessCategory, PostalCodeLookup } from '@tenpo/domain';
import { createGoogleClient } from '../src/channels/google/google.client';
import { decrypt } from '../src/lib/tokens';
import { coordinateCoverage, prefectureNames } from '../src/modules/store-lookups/postal-codes';
import { CATEGORIES_TTL_MS } from '../src/modules/store-lookups/store-lookups.service';
import { buildTestApp, call, json, login, storedCredentials, type TestApp } from './helpers';
import { startSandbox, type RunningSandbox } from './sandbox';

/** The lookups of the basic-information form (spec 2 §7; ADR 0044), against the sandbox. */
let sb: RunningSandbox;
let t: TestApp;
let ids: Record<string, number>;
let shopToken = '';

beforeAll(async () => {
  sb = await startSandbox();
  t = await buildTestApp({ SANDBOX_URL: sb.url });
  ids = Object.fromEntries(
    (await t.database.db.selectFrom('users').select(['id', 'email']).execute()).map((u) => [
      u.email,
      u.id,
    ]),
  );
  shopToken = await login(t.app, 'shop@tenpo.example');
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

const idOf = (email: string): number => {
  const v = ids[email];
  if (v === undefined) throw new Error(email);
  return v;
};

describe('GET /postal-code/{code}', () => {
  const lookup = (code: string, token: string | null = shopToken) =>
    call(t.app, { method: 'GET', url: `/api/postal-code/${encodeURIComponent(code)}`, token });

  it.each(['150-0002', '1500002', '１５０－０００２'])(
    '%s: 東京都 渋谷区 渋谷, at Shibuya',
    async (code) => {
      const res = await lookup(code);
      expect(res.statusCode, res.body).toBe(200);
      const body = json<{ status_code: number; data: { data: PostalCodeLookup } }>(res);
      expect(body.status_code).toBe(200);
      const d = body.data.data;
      expect(d).toMatchObject({
        postal_code: '150-0002',
        prefecture_code: '13',
        prefecture: '東京都',
        city_code: '13113',
        city: '渋谷区',
        town: '渋谷',
        coordinate_level: 'municipality',
      });
      // Shibuya ward lies within about 35.64–35.69 N, 139.66–139.72 E.
      expect(d.zip_lat).toBeGreaterThan(35.64);
      expect(d.zip_lat).toBeLessThan(35.69);
      expect(d.zip_lng).toBeGreaterThan(139.66);
      expect(d.zip_lng).toBeLessThan(139.72);
      expect(d.addresses).toHaveLength(1);
    },
  );

  it('060-0001: 北海道 札幌市中央区 北一条西, in central Sapporo (the city’s point)', async () => {
    const res = await lookup('060-0001');
    expect(res.statusCode, res.body).toBe(200);
    const d = json<{ data: { data: PostalCodeLookup } }>(res).data.data;
    expect(d).toMatchObject({
      postal_code: '060-0001',
      prefecture: '北海道',
      city: '札幌市中央区',
      town: '北一条西',
      coordinate_level: 'municipality',
    });
    expect(d.zip_lat).toBeGreaterThan(43.03);
    expect(d.zip_lat).toBeLessThan(43.09);
    expect(d.zip_lng).toBeGreaterThan(141.31);
    expect(d.zip_lng).toBeLessThan(141.39);
  });

  it('a code over two prefectures lists both; the first gives the coordinates', async () => {
    const res = await lookup('498-0000');
    expect(res.statusCode, res.body).toBe(200);
    const d = json<{ data: { data: PostalCodeLookup } }>(res).data.data;
    expect(d.addresses.map((a) => `${a.prefecture}${a.city}`)).toEqual([
      '愛知県弥富市',
      '三重県桑名郡木曽岬町',
    ]);
    expect(d.city).toBe('弥富市');
    expect(d.zip_lat).toBeGreaterThan(35.0);
    expect(d.zip_lat).toBeLessThan(35.2);
  });

  it('an unknown code: 404, said in Japanese', async () => {
    const res = await lookup('999-9999');
    expect(res.statusCode, res.body).toBe(404);
    expect(json<{ message: string }>(res).message).toBe(
      '郵便番号 999-9999 に該当する住所が見つかりません。',
    );
  });

  it.each(['12345', '150-00021', 'abc-defg', '150_0002'])(
    'a malformed code (%s): 422, said in Japanese',
    async (code) => {
      const res = await lookup(code);
      expect(res.statusCode, res.body).toBe(422);
      expect(json<{ message: string; errors: Record<string, string[]> }>(res)).toMatchObject({
        message: '郵便番号は7桁の数字（例: 150-0002）で入力してください。',
        errors: { code: ['郵便番号は7桁の数字（例: 150-0002）で入力してください。'] },
      });
    },
  );

  it('needs a session', async () => {
    expect((await lookup('150-0002', null)).statusCode).toBe(401);
  });

  it('gives almost every municipality its own point, and the rest their prefecture’s', () => {
    const c = coordinateCoverage();
    expect(c.municipality + c.prefecture).toBeGreaterThan(1850);
    expect(c.municipality).toBeGreaterThan(1800);
    expect(c.prefecture).toBeLessThan(100);
  });
});

describe('GET /entity/prefectures', () => {
  const read = (query: string, token = shopToken) =>
    call(t.app, { method: 'GET', url: `/api/entity/prefectures?${query}`, token });

  it('JP: the 47 prefectures in code order, named as the postal data names them', async () => {
    const res = await read(`user_id=${idOf('shop@tenpo.example')}&region_code=JP`);
    expect(res.statusCode, res.body).toBe(200);
    const jp = json<{ data: AdministrativeArea[] }>(res).data;
    // Two sources agree: the choice list and Japan Post's data.
    expect(jp.map((a) => a.name)).toEqual(prefectureNames());
    expect(jp.map((a) => a.code)).toEqual(
      Array.from({ length: 47 }, (_, i) => String(i + 1).padStart(2, '0')),
    );
  });

  it('without a region: JP then VN; VN alone: its 34 provinces', async () => {
    const all = json<{ data: AdministrativeArea[] }>(
      await read(`user_id=${idOf('shop@tenpo.example')}`),
    ).data;
    expect(all.filter((a) => a.region_code === 'JP')).toHaveLength(47);
    expect(all.filter((a) => a.region_code === 'VN')).toHaveLength(34);
    expect(all[0]?.name).toBe('北海道');
    const vn = json<{ data: AdministrativeArea[] }>(
      await read(`user_id=${idOf('shop@tenpo.example')}&region_code=vn`),
    ).data;
    expect(vn).toEqual(all.slice(47));
  });

  it('another region code: 422', async () => {
    const res = await read(`user_id=${idOf('shop@tenpo.example')}&region_code=US`);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.body).toContain('JP または VN');
  });
});

describe('GET /entity/categories', () => {
  const read = (query: string, token = shopToken) =>
    call(t.app, { method: 'GET', url: `/api/entity/categories?${query}`, token });
  const CATEGORIES_CALL = 'GET /google/mybusinessbusinessinformation/v1/categories';

  it("answers Google's own Japanese catalogue, read once and kept for a day", async () => {
    const shop = idOf('shop@tenpo.example');
    const res = await read(`user_id=${shop}`);
    expect(res.statusCode, res.body).toBe(200);
    const ours = json<{ data: BusinessCategory[] }>(res).data;

    // What Google itself answers for the shop's grant, every page followed.
    const creds = await storedCredentials(t.database.db, shop, 'google_my_business');
    const token = decrypt(t.config.secretKey, creds?.access_token as string);
    const theirs: BusinessCategory[] = [];
    let pageToken = '';
    do {
      const q = new URLSearchParams({ regionCode: 'JP', languageCode: 'ja', view: 'BASIC' });
      if (pageToken) q.set('pageToken', pageToken);
      const page = (await (
        await fetch(`${sb.url}/google/mybusinessbusinessinformation/v1/categories?${q}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { categories: BusinessCategory[]; nextPageToken?: string };
      theirs.push(...page.categories);
      pageToken = page.nextPageToken ?? '';
    } while (pageToken);
    expect(ours).toEqual(theirs);
    expect(ours.length).toBeGreaterThan(10);
    expect(ours).toContainEqual({ name: 'categories/gcid:cafe', displayName: 'カフェ' });

    // A second read, by another store, is served from the copy; a day later Google is asked again.
    const calls = async () => {
      const r = await fetch(`${sb.url}/control/calls`);
      return ((await r.json()) as { data: Record<string, number> }).data[CATEGORIES_CALL] ?? 0;
    };
    await sb.control('DELETE', '/control/calls');
    const agency = await login(t.app, 'agency@tenpo.example');
    const again = await read(`user_id=${idOf('store02@tenpo.example')}`, agency);
    expect(again.statusCode, again.body).toBe(200);
    expect(json<{ data: BusinessCategory[] }>(again).data).toEqual(ours);
    expect(await calls()).toBe(0);
    t.clock.advance(CATEGORIES_TTL_MS - 60_000);
    expect((await read(`user_id=${shop}`)).statusCode).toBe(200);
    expect(await calls()).toBe(0);
    t.clock.advance(61_000);
    expect((await read(`user_id=${shop}`)).statusCode).toBe(200);
    expect(await calls()).toBe(1);
  });

  it('the client follows every page of the catalogue', async () => {
    const creds = await storedCredentials(
      t.database.db,
      idOf('shop@tenpo.example'),
      'google_my_business',
    );
    const token = decrypt(t.config.secretKey, creds?.access_token as string);
    const client = createGoogleClient(t.config.channels.google, {
      fetch,
      maxWaitMs: 0,
      sleep: async () => {},
      now: () => Date.now(),
      timeoutMs: 10_000,
    });
    const whole = await client.listCategories(token, 'JP', 'ja');
    await sb.control('DELETE', '/control/calls');
    const paged = await client.listCategories(token, 'JP', 'ja', 10);
    expect(paged).toEqual(whole);
    expect(whole.length).toBeGreaterThan(30);
    const r = await fetch(`${sb.url}/control/calls`);
    const counts = ((await r.json()) as { data: Record<string, number> }).data;
    expect(counts[CATEGORIES_CALL]).toBe(Math.ceil(whole.length / 10));
  });

  it('search narrows by display name, full-width and half-width alike', async () => {
    const shop = idOf('shop@tenpo.example');
    const res = await read(`user_id=${shop}&search=${encodeURIComponent('ｶﾌｪ')}`);
    expect(res.statusCode, res.body).toBe(200);
    const found = json<{ data: BusinessCategory[] }>(res).data;
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((c) => c.displayName.includes('カフェ'))).toBe(true);
    const none = await read(`user_id=${shop}&search=${encodeURIComponent('存在しない業種')}`);
    expect(json<{ data: BusinessCategory[] }>(none).data).toEqual([]);
  });

  it('a store without a Google connection: 409, said in Japanese', async () => {
    const agency = await login(t.app, 'agency@tenpo.example');
    const res = await read(`user_id=${idOf('store04@tenpo.example')}`, agency);
    expect(res.statusCode, res.body).toBe(409);
    expect(json<{ message: string }>(res).message).toBe(
      'Googleが連携されていません。先に連携してください。',
    );
  });
});
