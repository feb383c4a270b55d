import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE, tokyoDay, type AuditRow } from '@tenpo/domain';
import { decrypt } from '../src/lib/tokens';
import {
  addOtherTenant,
  buildTestApp,
  call,
  json,
  login,
  multipart,
  storedCredentials,
  type TestApp,
} from './helpers';
import { photoJpeg } from './posts-harness';
import { consent, startSandbox, type RunningSandbox } from './sandbox';

/**
 * The audit log (issue 12, ADR 0047): each kind of change is recorded with who, what and the
 * values before and after, never a secret; `GET /audit-log` reads it within the caller's scope.
 */
let sb: RunningSandbox;
let t: TestApp;
const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};
type List = {
  data: AuditRow[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
};

const tokenOf = async (email: string) => (tokens[email] ??= await login(t.app, email));
const read = async (email: string, query: Record<string, string | number> = {}) => {
  const qs = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return call(t.app, { method: 'GET', url: `/api/audit-log?${qs}`, token: await tokenOf(email) });
};
const list = async (email: string, query: Record<string, string | number> = {}): Promise<List> => {
  const res = await read(email, query);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: List }>(res).data;
};
/** Every row the manager reads for these filters (one big page). */
const all = async (query: Record<string, string | number> = {}) =>
  (await list('manager@tenpo.example', { per_page: 100, ...query })).data;

beforeAll(async () => {
  sb = await startSandbox();
  t = await buildTestApp({ SANDBOX_URL: sb.url });
  Object.assign(ids, (await addOtherTenant(t)).ids);
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

const id = (email: string) => ids[email] as number;

describe('every kind of change is recorded: store information, account, registration', () => {
  it('store information: the changed fields before and after, by the shop', async () => {
    const shop = id('shop@tenpo.example');
    const res = await call(t.app, {
      method: 'PUT',
      url: '/api/entity/contact-websites-apps',
      token: await tokenOf('shop@tenpo.example'),
      payload: {
        user_id: shop,
        email: ['info@cafe.example'],
        website_url: 'https://cafe.example/',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await all({ store_id: shop, entity: 'store', action: 'update' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor: { id: shop, email: 'shop@tenpo.example', role: ROLE.shop },
      store: { id: shop },
      entity: 'store',
      entity_id: String(shop),
      summary: '連絡先・ウェブサイトを変更',
      after: { 'website_url.url': 'https://cafe.example/', email: ['info@cafe.example'] },
    });
    expect(rows[0]?.before).toHaveProperty('website_url.url');
    expect(rows[0]?.before?.['website_url.url']).not.toBe('https://cafe.example/');
  });

  it('account: information with values, the password as a fact only, the terms', async () => {
    const email = 'store02@tenpo.example';
    const store = id(email);
    const token = await tokenOf(email);
    const info = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/information',
      token,
      ...multipart({ name: '鈴木 次郎', company_name: '', store_name: '', email, phone: '' }),
    });
    expect(info.statusCode, info.body).toBe(200);
    const pw = await call(t.app, {
      method: 'PUT',
      url: '/api/account-setting/password',
      token,
      payload: {
        current_password: 'tenpo-demo-1',
        password: 'secret-pass-42',
        password_confirmation: 'secret-pass-42',
      },
    });
    expect(pw.statusCode, pw.body).toBe(200);
    await t.database.db
      .updateTable('users')
      .set({ agreed_terms: 0 })
      .where('id', '=', store)
      .execute();
    const term = await call(t.app, {
      method: 'POST',
      url: '/api/confirm-term',
      token,
      payload: { email, agreed_terms: true },
    });
    expect(term.statusCode, term.body).toBe(200);

    const rows = await all({ store_id: store, entity: 'account' });
    expect(rows.map((r) => r.summary)).toEqual([
      '利用規約に同意',
      'パスワードを変更',
      'アカウント情報を変更',
    ]);
    expect(rows[1]).toMatchObject({ before: null, after: null, actor: { id: store } });
    expect(rows[2]).toMatchObject({
      before: { name: '鈴木 一郎' },
      after: { name: '鈴木 次郎' },
    });
    expect(rows[0]).toMatchObject({ before: { agreed_terms: 0 }, after: { agreed_terms: 1 } });
  });

  it('registration: the new account, created by itself', async () => {
    const email = 'yamada@tenpo.example';
    const form = await call(t.app, {
      method: 'POST',
      url: '/api/registration-form',
      payload: {
        full_name: '山田 太郎',
        company_name: '山田商店',
        store_name: '山田商店 本店',
        email,
        phone: '',
        knowledge: 'search',
        agent_code: '',
        client_company_name: '',
        agency_name: '',
        register_type: 0,
        agreed_terms: true,
      },
    });
    expect(form.statusCode, form.body).toBe(200);
    await t.app.queue.drain();
    const mail = t.mailbox.list({ to: email })[0];
    const token = new URL(
      /https?:\/\/\S+/.exec(mail?.text ?? '')?.[0] ?? 'http://x',
    ).searchParams.get('token');
    const reg = await call(t.app, {
      method: 'POST',
      url: '/api/register',
      payload: {
        token,
        email,
        password: 'hanami-kouen-22',
        password_confirmation: 'hanami-kouen-22',
      },
    });
    expect(reg.statusCode, reg.body).toBe(200);
    const row = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    ids[email] = row.id;
    tokens[email] = await login(t.app, email, 'hanami-kouen-22');
    const rows = await list(email);
    expect(rows.data).toHaveLength(1);
    expect(rows.data[0]).toMatchObject({
      actor: { id: row.id, email, role: ROLE.freeTrial },
      entity: 'account',
      action: 'create',
      after: { email, store_name: '山田商店 本店' },
    });
  });
});

describe('every kind of change is recorded: connections and posts', () => {
  it('connections: connect, the location choice, a grant turned error (no actor), disconnect', async () => {
    const email = 'newshop@tenpo.example';
    const store = id(email);
    const token = await tokenOf(email);
    const connect = await call(t.app, {
      method: 'GET',
      url: `/api/publisher/connect?publisher_key=google_my_business&user_id=${store}`,
      token,
      headers: { host: 'tenpo.test' },
    });
    expect(connect.statusCode, connect.body).toBe(200);
    const urlAuth = json<{ data: { urlAuth: string } }>(connect).data.urlAuth;
    const back = await consent(urlAuth, { account: email, decision: 'allow' });
    const ret = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(ret.statusCode).toBe(302);
    const chosen = await call(t.app, {
      method: 'POST',
      url: '/api/entity/location',
      token,
      payload: { user_id: store, location_id: '6104729583316724501' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);

    // The grant is revoked at Google: the next call turns the row to error.
    const cred = await storedCredentials(t.database.db, store, 'google_my_business');
    const refresh = decrypt(t.config.secretKey, cred?.refresh_token as string);
    await fetch(`${sb.url}/google/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refresh }),
    });
    const failed = await call(t.app, {
      method: 'GET',
      url: `/api/entity/locations?user_id=${store}`,
      token,
    });
    expect(failed.statusCode).toBe(409);

    const off = await call(t.app, {
      method: 'PUT',
      url: '/api/publisher/disconnect',
      token,
      payload: { publisher_id: 1, user_id: store },
    });
    expect(off.statusCode, off.body).toBe(200);

    const rows = await all({ store_id: store, entity: 'connection' });
    expect(rows.map((r) => [r.action, r.actor?.id ?? null])).toEqual([
      ['disconnect', store],
      ['update', null],
      ['update', store],
      ['connect', store],
    ]);
    expect(rows[1]).toMatchObject({ before: { status: 1 }, after: { status: 4 } });
    expect(rows[2]?.summary).toContain('を選択');
  });

  it('the Facebook page choice', async () => {
    const shop = id('shop@tenpo.example');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/publisher/facebook/connect-page',
      token: await tokenOf('shop@tenpo.example'),
      payload: { user_id: shop, page_id: '104857392017465' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await all({ store_id: shop, entity: 'connection' });
    expect(rows[0]).toMatchObject({
      entity_id: 'facebook',
      action: 'update',
      summary: expect.stringContaining('Facebook ページ') as string,
    });
  });

  it('posts: made, edited and deleted, each by id', async () => {
    const shop = id('shop@tenpo.example');
    const token = await tokenOf('shop@tenpo.example');
    const made = await call(t.app, {
      method: 'POST',
      url: '/api/posts/news',
      token,
      ...multipart({ user_id: String(shop), content: '新メニューのお知らせ' }),
    });
    expect(made.statusCode, made.body).toBe(200);
    const postId = json<{ data: { posts: { id: number }[] } }>(made).data.posts[0]?.id as number;
    const edit = await call(t.app, {
      method: 'POST',
      url: `/api/posts/news/${postId}`,
      token,
      ...multipart({ user_id: String(shop), content: '新メニュー（季節限定）のお知らせ' }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const del = await call(t.app, {
      method: 'DELETE',
      url: `/api/posts/news/${postId}?user_id=${shop}`,
      token,
    });
    expect(del.statusCode, del.body).toBe(200);
    const rows = await all({ store_id: shop, entity: 'post' });
    expect(rows.map((r) => [r.action, r.entity_id])).toEqual([
      ['delete', String(postId)],
      ['update', String(postId)],
      ['create', String(postId)],
    ]);
    expect(rows[1]).toMatchObject({
      before: { content: '新メニューのお知らせ' },
      after: { content: '新メニュー（季節限定）のお知らせ' },
    });
  });
});

describe('every kind of change is recorded: photos, products, the knowledge tag; never a secret', () => {
  it('photos, products and the knowledge tag: changes to the store with a summary', async () => {
    const shop = id('shop@tenpo.example');
    const token = await tokenOf('shop@tenpo.example');
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
    const photo = json<{ data: { id: number }[] }>(up).data[0]?.id as number;
    const gone = await call(t.app, {
      method: 'DELETE',
      url: `/api/photos/${photo}?user_id=${shop}`,
      token,
    });
    expect(gone.statusCode, gone.body).toBe(200);

    const form = {
      user_id: String(shop),
      productName: 'ケーキセット',
      category: '0',
      productCategory: 'ケーキ',
      priceRange: '0',
      productPrice: '800',
    };
    const made = await call(t.app, {
      method: 'POST',
      url: '/api/posts/products',
      token,
      ...multipart(form),
    });
    expect(made.statusCode, made.body).toBe(200);
    const product = json<{ data: { id: number; category_id: number }[] }>(made).data[0];
    const edit = await call(t.app, {
      method: 'POST',
      url: `/api/posts/products/${product?.id}`,
      token,
      ...multipart({ ...form, category: String(product?.category_id), productPrice: '900' }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const del = await call(t.app, {
      method: 'DELETE',
      url: `/api/posts/products/${product?.id}?user_id=${shop}`,
      token,
    });
    expect(del.statusCode, del.body).toBe(200);

    const tag = await call(t.app, {
      method: 'PUT',
      url: '/api/knowledge-tag/settings',
      token,
      payload: { user_id: shop, analytics_option: 1 },
    });
    expect(tag.statusCode, tag.body).toBe(200);

    const rows = await all({ store_id: shop, entity: 'store' });
    const summaries = rows.map((r) => r.summary);
    expect(summaries.slice(0, 6)).toEqual([
      'ナレッジタグの解析設定を変更',
      '商品「ケーキセット」を削除',
      '商品「ケーキセット」を変更',
      '商品「ケーキセット」を追加',
      '写真を削除',
      '写真を1件追加',
    ]);
    expect(rows[2]).toMatchObject({ before: { productPrice: 800 }, after: { productPrice: 900 } });
    expect(rows[0]).toMatchObject({
      before: { analytics_option: null },
      after: { analytics_option: 1 },
    });
  });

  it('never stores a secret: no password, hash or token, whatever the change', async () => {
    const raw = await t.database.db.selectFrom('audit_log').selectAll().execute();
    expect(raw.length).toBeGreaterThan(10);
    const hashes = await t.database.db.selectFrom('users').select('password_hash').execute();
    const creds = await t.database.db
      .selectFrom('channel_credentials')
      .select(['access_token', 'refresh_token'])
      .execute();
    for (const r of raw) {
      const text = `${r.before ?? ''}${r.after ?? ''}`;
      expect(text).not.toMatch(/password|token|secret|hash/i);
      expect(text).not.toContain('secret-pass-42');
      expect(text).not.toContain('hanami-kouen-22');
      for (const h of hashes) expect(text).not.toContain(h.password_hash);
      for (const c of creds) {
        expect(text).not.toContain(c.access_token);
        if (c.refresh_token) expect(text).not.toContain(c.refresh_token);
      }
    }
  });
});

describe('reading: filters and paging', () => {
  it('pages newest first with meta, 20 by default', async () => {
    const first = await list('manager@tenpo.example');
    expect(first.meta).toMatchObject({ current_page: 1, per_page: 20 });
    const total = first.meta.total;
    const small = await list('manager@tenpo.example', { per_page: 2, page: 2 });
    expect(small.meta).toEqual({
      current_page: 2,
      last_page: Math.ceil(total / 2),
      per_page: 2,
      total,
    });
    const ids = (await all()).map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(small.data.map((r) => r.id)).toEqual(ids.slice(2, 4));
    const beyond = await list('manager@tenpo.example', { page: 999 });
    expect(beyond.data).toEqual([]);
  });

  it('filters by action, by actor (e-mail part or id) and by Tokyo days', async () => {
    expect((await all({ action: 'disconnect' })).every((r) => r.action === 'disconnect')).toBe(
      true,
    );
    const byMail = await all({ actor: 'STORE02@' });
    expect(byMail.length).toBe(3);
    expect(byMail.every((r) => r.actor?.email === 'store02@tenpo.example')).toBe(true);
    expect((await all({ actor: String(id('store02@tenpo.example')) })).length).toBe(3);
    const today = tokyoDay(t.clock.now());
    const total = (await list('manager@tenpo.example')).meta.total;
    expect((await list('manager@tenpo.example', { from: today, to: today })).meta.total).toBe(
      total,
    );
    expect((await list('manager@tenpo.example', { to: '2000-01-01' })).meta.total).toBe(0);
    const bad = await read('manager@tenpo.example', { from: '2026-02-01', to: '2026-01-01' });
    expect(bad.statusCode).toBe(422);
    expect((await read('manager@tenpo.example', { entity: 'invoice' })).statusCode).toBe(422);
  });
});

describe('cross-tenant', () => {
  beforeAll(async () => {
    // One change in each tenant the agency does not own: the other agency's store, and the
    // agency itself on one of its stores (leader's).
    const other = id('other-store@tenpo.example');
    const res = await call(t.app, {
      method: 'PUT',
      url: '/api/knowledge-tag/settings',
      token: await tokenOf('other-store@tenpo.example'),
      payload: { user_id: other, analytics_option: 2 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const leader = id('leader@tenpo.example');
    const mine = await call(t.app, {
      method: 'PUT',
      url: '/api/knowledge-tag/settings',
      token: await tokenOf('agency@tenpo.example'),
      payload: { user_id: leader, analytics_option: 2 },
    });
    expect(mine.statusCode, mine.body).toBe(200);
  });

  it('needs a session', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/audit-log' });
    expect(res.statusCode).toBe(401);
  });

  it('only the manager reads every row', async () => {
    const count = await t.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect((await list('manager@tenpo.example')).meta.total).toBe(Number(count.n));
    for (const email of ['agency@tenpo.example', 'shop@tenpo.example', 'leader@tenpo.example'])
      expect((await list(email)).meta.total).toBeLessThan(Number(count.n));
  });

  it('an agency reads its stores’ rows, never another agency’s or a customer’s', async () => {
    const rows = (await list('agency@tenpo.example', { per_page: 100 })).data;
    const agency = id('agency@tenpo.example');
    const stores = new Set(
      (
        await t.database.db
          .selectFrom('users')
          .select('id')
          .where('agency_id', '=', agency)
          .execute()
      ).map((r) => r.id),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.store?.id === id('store02@tenpo.example'))).toBe(true);
    expect(
      rows.some((r) => r.actor?.id === agency && r.store?.id === id('leader@tenpo.example')),
    ).toBe(true);
    for (const r of rows) expect(r.store ? stores.has(r.store.id) : true).toBe(true);
    const others = (await list('other-agency@tenpo.example', { per_page: 100 })).data;
    expect(others.map((r) => r.store?.id)).toEqual([id('other-store@tenpo.example')]);
  });

  it('a shop reads its own rows only; a leader too, not its group’s stores', async () => {
    for (const email of [
      'shop@tenpo.example',
      'leader@tenpo.example',
      'other-store@tenpo.example',
    ]) {
      const rows = (await list(email, { per_page: 100 })).data;
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.store?.id).toBe(id(email));
    }
  });

  it('a store_id filter of a store the caller may not read is 404', async () => {
    const cases: [string, string][] = [
      ['agency@tenpo.example', 'shop@tenpo.example'],
      ['agency@tenpo.example', 'other-store@tenpo.example'],
      ['other-agency@tenpo.example', 'leader@tenpo.example'],
      ['shop@tenpo.example', 'leader@tenpo.example'],
      ['leader@tenpo.example', 'store02@tenpo.example'],
      ['other-store@tenpo.example', 'shop@tenpo.example'],
    ];
    for (const [who, whose] of cases) {
      const res = await read(who, { store_id: id(whose) });
      expect(res.statusCode, `${who} → ${whose}`).toBe(404);
    }
    expect(
      (await read('agency@tenpo.example', { store_id: id('store02@tenpo.example') })).statusCode,
    ).toBe(200);
    expect(
      (await read('manager@tenpo.example', { store_id: id('other-store@tenpo.example') }))
        .statusCode,
    ).toBe(200);
  });
});
