import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminJa, ja, ROLE } from '@tenpo/domain';
import { iso } from '../src/lib/clock';
import { buildTestApp, call, json, login, multipart, png, type TestApp } from './helpers';

type Meta = { current_page: number; last_page: number; per_page: number; total: number };
type List<T> = { data: { data: T[]; meta: Meta } };
type Agency = {
  id: number;
  email: string;
  company_name: string;
  prefix: string | null;
  title: string | null;
  favicon_url: string | null;
  logo_url: string | null;
  store_count: number;
  google_connected: number;
  payment_method: string;
  status: number;
};
type StoreRow = {
  id: number;
  email: string;
  agency_id: number | null;
  app_name: string | null;
  payment_method: string;
  google_status: number;
};

const idOf = async (t: TestApp, email: string): Promise<number> =>
  (
    await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  ).id;

const auditRows = (t: TestApp, entity: string, entityId: number) =>
  t.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity', '=', entity)
    .where('entity_id', '=', String(entityId))
    .orderBy('id')
    .execute();

const agencyForm = (over: Record<string, string> = {}) => ({
  email: 'owner@acme.example',
  name: '山田 太郎',
  company_name: 'ACME',
  password: 'acme-pass-123',
  prefix: 'acme',
  title: 'ACME 店舗ナビ',
  status: '1',
  ...over,
});

const storeBody = (over: Record<string, unknown> = {}) => ({
  email: 'new-store@example.jp',
  name: '佐藤 花子',
  company_name: '株式会社サトウ',
  store_name: 'サトウ 本店',
  password: 'store-pass-123',
  role: 1,
  status: 1,
  ...over,
});

describe('lists (meta paging, search)', () => {
  let t: TestApp;
  let manager = '';
  beforeAll(async () => {
    t = await buildTestApp();
    manager = await login(t.app, 'manager@tenpo.example');
  });
  afterAll(() => t.close());

  const get = async <T>(url: string) => {
    const res = await call(t.app, { method: 'GET', url, token: manager });
    expect(res.statusCode, res.body).toBe(200);
    return json<List<T>>(res).data;
  };

  it('lists agencies with their domain, store count, Google count and payment method', async () => {
    const l = await get<Agency>('/api/admin/agencies');
    expect(l.meta).toEqual({ current_page: 1, last_page: 1, per_page: 10, total: 1 });
    expect(l.data[0]).toMatchObject({
      email: 'agency@tenpo.example',
      prefix: 'demo',
      title: 'デモエージェンシー 店舗管理',
      store_count: 12,
      payment_method: 'agency_invoice',
    });
    expect(l.data[0]?.google_connected).toBeGreaterThan(0);
    expect((await get<Agency>('/api/admin/agencies?search=DEMO')).meta.total).toBe(1);
    expect((await get<Agency>('/api/admin/agencies?search=nothing-like-it')).data).toEqual([]);
  });

  it('customers are the stores of no agency; stores are every tenant’s', async () => {
    const c = await get<StoreRow>('/api/admin/customers');
    expect(c.meta).toEqual({ current_page: 1, last_page: 1, per_page: 10, total: 5 });
    expect(c.data.every((s) => s.agency_id === null && s.app_name === null)).toBe(true);
    expect(c.data.find((s) => s.email === 'shop@tenpo.example')).toMatchObject({
      google_status: 1,
      payment_method: 'credit_card',
    });
    const s = await get<StoreRow>('/api/admin/stores?per_page=5&page=4');
    expect(s.meta).toEqual({ current_page: 4, last_page: 4, per_page: 5, total: 17 });
    expect(s.data).toHaveLength(2);
    const agencyId = await idOf(t, 'agency@tenpo.example');
    const own = await get<StoreRow>(`/api/admin/stores?agency_id=${agencyId}&per_page=25`);
    expect(own.meta.total).toBe(12);
    expect(own.data.every((r) => r.app_name === 'デモエージェンシー 店舗管理')).toBe(true);
    expect((await get<StoreRow>('/api/admin/customers?search=はな')).meta.total).toBe(1);
  });

  it('shows the payment method a store chose; the agent code’s only until it has chosen', async () => {
    const storeId = await idOf(t, 'store05@tenpo.example');
    const row = async () =>
      (await get<StoreRow>('/api/admin/stores?search=store05')).data.find((s) => s.id === storeId);
    expect((await row())?.payment_method).toBe('agency_invoice');
    const token = await login(t.app, 'store05@tenpo.example');
    const chose = await call(t.app, {
      method: 'POST',
      url: '/api/payment-methods',
      token,
      payload: { payment_name: 'credit_card', user_id: storeId },
    });
    expect(chose.statusCode).toBe(200);
    expect((await row())?.payment_method).toBe('credit_card');
  });

  it('stores by group_id: the group’s stores, searched and paged like the rest', async () => {
    const agencyId = await idOf(t, 'agency@tenpo.example');
    const g = await t.database.db
      .selectFrom('store_groups')
      .select('id')
      .where('name', '=', 'ミナト 東京エリア')
      .executeTakeFirstOrThrow();
    const members = [
      'leader@tenpo.example',
      'store02@tenpo.example',
      'store03@tenpo.example',
      'store04@tenpo.example',
    ];
    for (const url of [
      `/api/admin/stores?agency_id=${agencyId}&group_id=${g.id}`,
      `/api/admin/stores?group_id=${g.id}`,
    ]) {
      const l = await get<StoreRow>(url);
      expect(l.meta, url).toEqual({ current_page: 1, last_page: 1, per_page: 10, total: 4 });
      expect(l.data.map((r) => r.email).sort(), url).toEqual(members);
    }
    const paged = await get<StoreRow>(`/api/admin/stores?group_id=${g.id}&per_page=3&page=2`);
    expect(paged.meta).toEqual({ current_page: 2, last_page: 2, per_page: 3, total: 4 });
    expect(paged.data).toHaveLength(1);
    const found = await get<StoreRow>(`/api/admin/stores?group_id=${g.id}&search=store03`);
    expect(found.data.map((r) => r.email)).toEqual(['store03@tenpo.example']);
    expect((await get<StoreRow>('/api/admin/stores?group_id=999999')).meta.total).toBe(0);
    const bad = await call(t.app, {
      method: 'GET',
      url: '/api/admin/stores?group_id=x',
      token: manager,
    });
    expect(bad.statusCode).toBe(422);
  });

  it('every admin route is in the OpenAPI document, tagged admin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = json<{
      paths: Record<
        string,
        Record<string, { tags?: string[]; summary?: string; parameters?: { name: string }[] }>
      >;
    }>(res);
    // The store list's filters, group_id among them (/overview/agencies/{id}).
    expect(doc.paths['/api/admin/stores']?.get?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['search', 'agency_id', 'group_id']),
    );
    for (const r of ['agencies', 'customers', 'stores']) {
      for (const [path, methods] of [
        [`/api/admin/${r}`, ['get', 'post']],
        [`/api/admin/${r}/{id}`, ['get', 'put', 'delete']],
      ] as const)
        for (const m of methods) {
          const op = doc.paths[path]?.[m];
          expect(op?.tags, `${m} ${path}`).toEqual(['admin']);
          expect(op?.summary, `${m} ${path}`).toBeTruthy();
        }
    }
  });

  it('a page beyond the last is a Japanese 422 naming the range', async () => {
    for (const url of [
      '/api/admin/agencies?page=2',
      '/api/admin/customers?page=2',
      '/api/admin/stores?page=3',
    ]) {
      const res = await call(t.app, { method: 'GET', url, token: manager });
      expect(res.statusCode, url).toBe(422);
      const last = url.includes('stores') ? 2 : 1;
      expect(res.json()).toMatchObject({ errors: { page: [adminJa.pageBeyondEnd(last)] } });
    }
    // An empty list still has its first page.
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/admin/customers?search=zzzz',
      token: manager,
    });
    expect(json<List<StoreRow>>(res).data.meta).toEqual({
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 0,
    });
  });
});

describe('agencies: create, change, white-label', () => {
  let t: TestApp;
  let manager = '';
  let acme = 0;
  beforeAll(async () => {
    t = await buildTestApp();
    manager = await login(t.app, 'manager@tenpo.example');
  });
  afterAll(() => t.close());

  const postAgency = (fields: Record<string, string>, files = {}) =>
    call(t.app, {
      method: 'POST',
      url: '/api/admin/agencies',
      token: manager,
      ...multipart(fields, files),
    });

  it('creates an agency with its prefix, title, logo and favicon; the lookup serves them', async () => {
    const res = await postAgency(agencyForm(), {
      logo: { filename: 'logo.png', type: 'image/png', data: png() },
      favicon: { filename: 'favicon.png', type: 'image/png', data: png() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const a = json<{ message: string; data: Agency }>(res);
    expect(a.message).toBe(adminJa.agencyCreated);
    expect(a.data).toMatchObject({
      email: 'owner@acme.example',
      prefix: 'acme',
      title: 'ACME 店舗ナビ',
      store_count: 0,
      status: 1,
    });
    expect(a.data.favicon_url).toMatch(/^\/uploads\/logos\/.+\.png$/);
    acme = a.data.id;

    const d = await call(t.app, { method: 'GET', url: '/api/domain/acme/title' });
    expect(d.json()).toMatchObject({
      data: { prefix: 'acme', title: 'ACME 店舗ナビ', favicon_url: a.data.favicon_url },
    });
    const icon = await t.app.inject({ method: 'GET', url: a.data.favicon_url ?? '' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    // The new agency signs in with the password the manager set.
    await login(t.app, 'owner@acme.example', 'acme-pass-123');

    const rows = await auditRows(t, 'agency', acme);
    expect(rows).toMatchObject([
      { action: 'create', summary: '代理店「ACME」を作成', agency_id: acme, actor_role: 99 },
    ]);
    expect(JSON.parse(rows[0]?.after ?? '{}')).toMatchObject({
      prefix: 'acme',
      title: 'ACME 店舗ナビ',
    });
    const account = await auditRows(t, 'account', acme);
    expect(account).toMatchObject([{ action: 'create' }]);
    for (const r of [...rows, ...account]) expect(`${r.before} ${r.after}`).not.toMatch(/pass/);
  });

  it.each([
    [{ prefix: 'ACME' }, 'prefix', adminJa.prefixTaken],
    [{ prefix: 'demo' }, 'prefix', adminJa.prefixTaken],
    [{ prefix: '-bad-' }, 'prefix', adminJa.prefixFormat],
    [{ prefix: 'www' }, 'prefix', adminJa.prefixReserved('www')],
    [{ email: 'agency@tenpo.example' }, 'email', adminJa.emailTaken],
    [{ email: 'SHOP@tenpo.example' }, 'email', adminJa.emailTaken],
    [{ password: '' }, 'password', 'パスワード を入力してください。'],
  ])('%o is refused (%s) and nothing is saved', async (over, field, message) => {
    const before = await t.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await postAgency(
      agencyForm({ email: 'second@acme.example', prefix: 'acme2', ...over }),
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ errors: { [field]: [message] } });
    const after = await t.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a favicon that is no image is refused from its bytes; nothing is saved', async () => {
    const res = await postAgency(agencyForm({ email: 'third@acme.example', prefix: 'acme3' }), {
      favicon: { filename: 'favicon.png', type: 'image/png', data: Buffer.from('<svg/>') },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: { favicon: [ja.imageOnly] } });
    expect((await call(t.app, { method: 'GET', url: '/api/domain/acme3/title' })).statusCode).toBe(
      404,
    );
    const u = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'third@acme.example')
      .executeTakeFirst();
    expect(u).toBeUndefined();
  });

  it('changes the prefix, title and password in one go; the old prefix stops answering', async () => {
    const agencyToken = await login(t.app, 'owner@acme.example', 'acme-pass-123');
    const res = await call(t.app, {
      method: 'PUT',
      url: `/api/admin/agencies/${acme}`,
      token: manager,
      ...multipart(
        agencyForm({ prefix: 'acme-jp', title: 'ACME ジャパン', password: 'new-pass-456' }),
      ),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ data: Agency }>(res).data).toMatchObject({
      prefix: 'acme-jp',
      title: 'ACME ジャパン',
    });
    // The favicon is kept when no file is sent.
    expect(json<{ data: Agency }>(res).data.favicon_url).toMatch(/^\/uploads\//);
    expect((await call(t.app, { method: 'GET', url: '/api/domain/acme/title' })).statusCode).toBe(
      404,
    );
    expect(
      (await call(t.app, { method: 'GET', url: '/api/domain/acme-jp/title' })).json(),
    ).toMatchObject({ data: { title: 'ACME ジャパン' } });
    // A new password ends the sessions of the old one.
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: '/api/account-setting/information',
          token: agencyToken,
        })
      ).statusCode,
    ).toBe(401);
    await login(t.app, 'owner@acme.example', 'new-pass-456');
    const rows = await auditRows(t, 'agency', acme);
    const update = rows.find((r) => r.action === 'update');
    expect(update?.summary).toBe('代理店「ACME」を更新');
    expect(JSON.parse(update?.before ?? '{}')).toEqual({ prefix: 'acme', title: 'ACME 店舗ナビ' });
    expect(JSON.parse(update?.after ?? '{}')).toEqual({
      prefix: 'acme-jp',
      title: 'ACME ジャパン',
    });
    const account = await auditRows(t, 'account', acme);
    expect(account.at(-1)).toMatchObject({
      action: 'update',
      summary: '「ACME」のログイン情報を変更（パスワード）',
    });
  });

  it('a PUT that takes another agency’s prefix changes nothing', async () => {
    const res = await call(t.app, {
      method: 'PUT',
      url: `/api/admin/agencies/${acme}`,
      token: manager,
      ...multipart(agencyForm({ prefix: 'demo', title: '変わらない' })),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: { prefix: [adminJa.prefixTaken] } });
    const a = json<{ data: Agency }>(
      await call(t.app, { method: 'GET', url: `/api/admin/agencies/${acme}`, token: manager }),
    ).data;
    expect(a).toMatchObject({ prefix: 'acme-jp', title: 'ACME ジャパン' });
  });

  it('an inactive agency’s domain does not answer', async () => {
    const res = await call(t.app, {
      method: 'PUT',
      url: `/api/admin/agencies/${acme}`,
      token: manager,
      ...multipart(
        agencyForm({ prefix: 'acme-jp', title: 'ACME ジャパン', status: '0', password: '' }),
      ),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await call(t.app, { method: 'GET', url: '/api/domain/acme-jp/title' })).statusCode,
    ).toBe(404);
  });
});

describe('customers and stores: create, change', () => {
  let t: TestApp;
  let manager = '';
  beforeAll(async () => {
    t = await buildTestApp();
    manager = await login(t.app, 'manager@tenpo.example');
  });
  afterAll(() => t.close());

  it('creates a customer (no agency, even if one is named), who signs in; audit written', async () => {
    const agencyId = await idOf(t, 'agency@tenpo.example');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/admin/customers',
      token: manager,
      payload: storeBody({ agency_id: agencyId, role: 0 }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = json<{
      message: string;
      data: { id: number; agency_id: number | null; in_trial: boolean };
    }>(res);
    expect(c.message).toBe(adminJa.customerCreated);
    expect(c.data).toMatchObject({ agency_id: null, in_trial: true });
    await login(t.app, 'new-store@example.jp', 'store-pass-123');
    const rows = await auditRows(t, 'store', c.data.id);
    expect(rows).toMatchObject([
      {
        action: 'create',
        summary: '顧客「サトウ 本店」を作成',
        store_id: c.data.id,
        agency_id: null,
      },
    ]);
    const list = json<List<StoreRow>>(
      await call(t.app, {
        method: 'GET',
        url: '/api/admin/customers?search=サトウ',
        token: manager,
      }),
    ).data;
    expect(list.data.map((s) => s.id)).toEqual([c.data.id]);
  });

  it.each([
    [{ email: 'NEW-STORE@example.jp' }, 'email', adminJa.emailTaken],
    [{ email: 'manager@tenpo.example' }, 'email', adminJa.emailTaken],
    [{ email: 'x' }, 'email', ja.email],
    [{ role: 11 }, 'role', 'プランの値が正しくありません。'],
    [{ store_name: '' }, 'store_name', '店舗名 を入力してください。'],
  ])('%o is refused on %s', async (over, field, message) => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/admin/stores',
      token: manager,
      payload: storeBody({ email: 'other-new@example.jp', ...over }),
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ errors: { [field]: [message] } });
  });

  it('a store needs an agency that exists', async () => {
    const shopId = await idOf(t, 'shop@tenpo.example');
    for (const agency_id of [999999, shopId]) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/admin/stores',
        token: manager,
        payload: storeBody({ email: 'agency-store@example.jp', agency_id }),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ errors: { agency_id: [adminJa.agencyUnknown] } });
    }
  });

  it('creates a store of an agency; the agency sees it', async () => {
    const agencyId = await idOf(t, 'agency@tenpo.example');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/admin/stores',
      token: manager,
      payload: storeBody({
        email: 'agency-store@example.jp',
        agency_id: agencyId,
        store_name: '新店舗',
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const agency = await login(t.app, 'agency@tenpo.example');
    const l = json<{ data: { data: { email: string }[] } }>(
      await call(t.app, { method: 'GET', url: '/api/agency/stores?search=新店舗', token: agency }),
    ).data;
    expect(l.data.map((s) => s.email)).toEqual(['agency-store@example.jp']);
  });

  it('a store that leaves its agency leaves its groups, and its leader flag follows', async () => {
    const leader = await idOf(t, 'leader@tenpo.example');
    const res = await call(t.app, {
      method: 'PUT',
      url: `/api/admin/stores/${leader}`,
      token: manager,
      payload: storeBody({
        email: 'leader@tenpo.example',
        store_name: 'ミナト 本店',
        agency_id: null,
        password: '',
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const db = t.database.db;
    const u = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', leader)
      .executeTakeFirstOrThrow();
    expect(u).toMatchObject({ agency_id: null, is_leader: 0, store_name: 'ミナト 本店' });
    expect(
      await db
        .selectFrom('group_members')
        .select('group_id')
        .where('user_id', '=', leader)
        .execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('store_groups').select('id').where('leader_id', '=', leader).execute(),
    ).toEqual([]);
    // The old password still works (blank keeps it); the change and the group change are logged.
    await login(t.app, 'leader@tenpo.example');
    const rows = await auditRows(t, 'store', leader);
    expect(rows.at(-1)).toMatchObject({ action: 'update', summary: '顧客「ミナト 本店」を更新' });
    expect(JSON.parse(rows.at(-1)?.after ?? '{}')).toMatchObject({ agency_id: null });
    const groupRows = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'group')
      .execute();
    expect(groupRows).toHaveLength(1);
    // It is a customer now: the customer routes reach it.
    expect(
      (await call(t.app, { method: 'GET', url: `/api/admin/customers/${leader}`, token: manager }))
        .statusCode,
    ).toBe(200);
  });

  it('a customer route does not reach an agency’s store; a store route does not reach an agency', async () => {
    const store02 = await idOf(t, 'store02@tenpo.example');
    const agencyId = await idOf(t, 'agency@tenpo.example');
    for (const url of [`/api/admin/customers/${store02}`, `/api/admin/stores/${agencyId}`]) {
      expect((await call(t.app, { method: 'GET', url, token: manager })).statusCode).toBe(404);
      expect(
        (
          await call(t.app, {
            method: 'PUT',
            url,
            token: manager,
            payload: storeBody({ password: '' }),
          })
        ).statusCode,
      ).toBe(404);
      expect((await call(t.app, { method: 'DELETE', url, token: manager })).statusCode).toBe(404);
    }
  });
});

describe('deleting keeps no orphan', () => {
  let t: TestApp;
  let manager = '';
  beforeAll(async () => {
    t = await buildTestApp();
    manager = await login(t.app, 'manager@tenpo.example');
  });
  afterAll(() => t.close());

  it('a store goes with its posts, connections, sessions and group places; its group loses its leader', async () => {
    const db = t.database.db;
    const leader = await idOf(t, 'leader@tenpo.example');
    const store02 = await idOf(t, 'store02@tenpo.example');
    const now = iso(t.clock.now());
    const post = (store_id: number, author_id: number, submission_id: string) =>
      db
        .insertInto('posts')
        .values({
          submission_id,
          store_id,
          author_id,
          content: 'お知らせ',
          button_type: 0,
          button_link: null,
          phone_number: null,
          channels: '["google_my_business"]',
          publish_at: now,
          delete_at: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const own = await post(leader, leader, 'leader-own');
    // A post the leader wrote for another store stays with that store.
    const written = await post(store02, leader, 'leader-for-02');
    const leaderToken = await login(t.app, 'leader@tenpo.example');

    const res = await call(t.app, {
      method: 'DELETE',
      url: `/api/admin/stores/${leader}`,
      token: manager,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: adminJa.storeDeleted, data: { id: leader } });

    expect(await db.selectFrom('users').select('id').where('id', '=', leader).execute()).toEqual(
      [],
    );
    for (const table of ['publisher_connections', 'group_members', 'sessions'] as const)
      expect(
        await db.selectFrom(table).select('user_id').where('user_id', '=', leader).execute(),
      ).toEqual([]);
    expect(await db.selectFrom('posts').select('id').where('id', '=', own.id).execute()).toEqual(
      [],
    );
    expect(
      await db
        .selectFrom('posts')
        .select(['store_id', 'author_id'])
        .where('id', '=', written.id)
        .executeTakeFirst(),
    ).toEqual({ store_id: store02, author_id: store02 });
    const group = await db
      .selectFrom('store_groups')
      .select(['leader_id'])
      .where('name', '=', 'ミナト 東京エリア')
      .executeTakeFirstOrThrow();
    expect(group.leader_id).toBeNull();
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: '/api/account-setting/information',
          token: leaderToken,
        })
      ).statusCode,
    ).toBe(401);
    const rows = await auditRows(t, 'store', leader);
    expect(rows.at(-1)).toMatchObject({
      action: 'delete',
      summary: '店舗「カフェ・ミナト 渋谷店」を削除',
    });
    expect(JSON.parse(rows.at(-1)?.before ?? '{}')).toMatchObject({
      email: 'leader@tenpo.example',
    });
    expect(
      (await call(t.app, { method: 'DELETE', url: `/api/admin/stores/${leader}`, token: manager }))
        .statusCode,
    ).toBe(404);
  });

  it('an agency goes; its stores become customers, its groups, domain and sessions go', async () => {
    const db = t.database.db;
    const agencyId = await idOf(t, 'agency@tenpo.example');
    const store03 = await idOf(t, 'store03@tenpo.example');
    // A second leader, to see the flag recomputed.
    await db
      .updateTable('store_groups')
      .set({ leader_id: store03 })
      .where('agency_id', '=', agencyId)
      .execute();
    await db.updateTable('users').set({ is_leader: 1 }).where('id', '=', store03).execute();
    const agencyToken = await login(t.app, 'agency@tenpo.example');
    const stores = await db
      .selectFrom('users')
      .select('id')
      .where('agency_id', '=', agencyId)
      .execute();
    expect(stores.length).toBe(11);

    const res = await call(t.app, {
      method: 'DELETE',
      url: `/api/admin/agencies/${agencyId}`,
      token: manager,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: adminJa.agencyDeleted(11),
      data: { id: agencyId, detached_stores: 11 },
    });
    const after = await db
      .selectFrom('users')
      .select(['id', 'agency_id', 'agent_code', 'is_leader'])
      .where(
        'id',
        'in',
        stores.map((s) => s.id),
      )
      .execute();
    expect(after).toHaveLength(11);
    expect(
      after.every((s) => s.agency_id === null && s.agent_code === '0000' && s.is_leader === 0),
    ).toBe(true);
    expect(
      await db.selectFrom('store_groups').select('id').where('agency_id', '=', agencyId).execute(),
    ).toEqual([]);
    expect((await call(t.app, { method: 'GET', url: '/api/domain/demo/title' })).statusCode).toBe(
      404,
    );
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: '/api/account-setting/information',
          token: agencyToken,
        })
      ).statusCode,
    ).toBe(401);
    const customers = json<List<StoreRow>>(
      await call(t.app, { method: 'GET', url: '/api/admin/customers?per_page=50', token: manager }),
    ).data;
    expect(customers.meta.total).toBe(5 + 11);
    // One row for the agency, one per store, one per group.
    expect(await auditRows(t, 'agency', agencyId)).toMatchObject([
      { action: 'delete', summary: '代理店「株式会社デモエージェンシー」を削除' },
    ]);
    const storeRows = await db
      .selectFrom('audit_log')
      .select(['summary'])
      .where('entity', '=', 'store')
      .where('action', '=', 'update')
      .execute();
    expect(storeRows).toHaveLength(11);
    expect(storeRows[0]?.summary).toMatch(
      /^代理店「株式会社デモエージェンシー」の削除により店舗「.+」を直接契約の顧客に変更$/,
    );
    expect(
      await db
        .selectFrom('audit_log')
        .select('id')
        .where('entity', '=', 'group')
        .where('action', '=', 'delete')
        .execute(),
    ).toHaveLength(2);
  });
});

/** A second manager, whom the first may not reach through any /admin route. */
const addOtherManager = async (t: TestApp): Promise<number> => {
  const db = t.database.db;
  const now = iso(t.clock.now());
  const hash = (
    await db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'manager@tenpo.example')
      .executeTakeFirstOrThrow()
  ).password_hash;
  return (
    await db
      .insertInto('users')
      .values({
        email: 'manager2@tenpo.example',
        password_hash: hash,
        name: '別の運営',
        role: ROLE.manager,
        account_kind: 0,
        is_leader: 0,
        agreed_terms: 1,
        phone: null,
        company_name: null,
        store_name: null,
        logo_url: null,
        agent_code: null,
        trial_ends_at: null,
        payment_fail: 0,
        agency_id: null,
        status: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
};

/** An /admin route, with a body where it takes one. */
type AdminRoute = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: object;
  form?: Record<string, string>;
};

/** Every /admin route once, on the given agency, customer and store. */
const adminRoutes = (ids: Record<string, number>): AdminRoute[] => [
  { method: 'GET', url: '/api/admin/agencies' },
  { method: 'GET', url: `/api/admin/agencies/${ids.agency}` },
  {
    method: 'POST',
    url: '/api/admin/agencies',
    form: agencyForm({ prefix: 'acme-x', email: 'x@acme.example' }),
  },
  {
    method: 'PUT',
    url: `/api/admin/agencies/${ids.agency}`,
    form: agencyForm({ prefix: 'demo', email: 'agency@tenpo.example', password: '' }),
  },
  { method: 'DELETE', url: `/api/admin/agencies/${ids.agency}` },
  { method: 'GET', url: '/api/admin/customers' },
  { method: 'GET', url: `/api/admin/customers/${ids.customer}` },
  {
    method: 'POST',
    url: '/api/admin/customers',
    payload: storeBody({ email: 'c-x@example.jp' }),
  },
  {
    method: 'PUT',
    url: `/api/admin/customers/${ids.customer}`,
    payload: storeBody({ email: 'shop@tenpo.example', password: '' }),
  },
  { method: 'DELETE', url: `/api/admin/customers/${ids.customer}` },
  { method: 'GET', url: '/api/admin/stores' },
  { method: 'GET', url: '/api/admin/stores?group_id=1' },
  { method: 'GET', url: `/api/admin/stores/${ids.store}` },
  {
    method: 'POST',
    url: '/api/admin/stores',
    payload: storeBody({ email: 's-x@example.jp', agency_id: ids.agency }),
  },
  {
    method: 'PUT',
    url: `/api/admin/stores/${ids.store}`,
    payload: storeBody({ email: 'store02@tenpo.example', agency_id: ids.agency, password: '' }),
  },
  { method: 'DELETE', url: `/api/admin/stores/${ids.store}` },
];

describe('cross-tenant', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let otherManager = 0;
  let ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await buildTestApp();
    otherManager = await addOtherManager(t);
    for (const who of ['agency', 'shop', 'leader', 'trial', 'manager'])
      tokens[who] = await login(t.app, `${who}@tenpo.example`);
    ids = {
      agency: await idOf(t, 'agency@tenpo.example'),
      customer: await idOf(t, 'shop@tenpo.example'),
      store: await idOf(t, 'store02@tenpo.example'),
    };
  });
  afterAll(() => t.close());

  const routes = () => adminRoutes(ids);

  const send = (r: AdminRoute, token: string | undefined) =>
    call(t.app, {
      method: r.method,
      url: r.url,
      token: token ?? null,
      ...(r.form ? multipart(r.form) : r.payload ? { payload: r.payload } : {}),
    });

  it.each(['agency', 'shop', 'leader', 'trial'])(
    'as %s: refused on every /admin route (403)',
    async (who) => {
      const before = await t.database.db.selectFrom('audit_log').select('id').execute();
      for (const r of routes()) {
        const res = await send(r, tokens[who]);
        expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
        expect(res.json()).toMatchObject({ message: ja.forbidden });
      }
      // Nothing changed behind the refusals.
      expect(await t.database.db.selectFrom('audit_log').select('id').execute()).toEqual(before);
      expect(await idOf(t, 'agency@tenpo.example')).toBe(ids.agency);
    },
  );

  it('no session, no admin (401)', async () => {
    for (const r of routes())
      expect((await send(r, undefined)).statusCode, `${r.method} ${r.url}`).toBe(401);
  });

  it('a manager does not reach another manager through any admin route (404)', async () => {
    for (const res of ['agencies', 'customers', 'stores']) {
      const url = `/api/admin/${res}/${otherManager}`;
      const body =
        res === 'agencies'
          ? multipart(agencyForm({ prefix: 'mgr', email: 'manager2@tenpo.example', password: '' }))
          : { payload: storeBody({ email: 'manager2@tenpo.example', password: '' }) };
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const r = await call(t.app, {
          method,
          url,
          token: tokens.manager,
          ...(method === 'PUT' ? body : {}),
        });
        expect(r.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    const m = await t.database.db
      .selectFrom('users')
      .select(['email', 'role'])
      .where('id', '=', otherManager)
      .executeTakeFirst();
    expect(m).toEqual({ email: 'manager2@tenpo.example', role: ROLE.manager });
    // Nor the manager itself.
    const self = await idOf(t, 'manager@tenpo.example');
    expect(
      (
        await call(t.app, {
          method: 'DELETE',
          url: `/api/admin/stores/${self}`,
          token: tokens.manager,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('group_id never lists the stores of an agency other than the group’s', async () => {
    const db = t.database.db;
    const now = iso(t.clock.now());
    const row = (email: string, role: number, agencyId: number | null) => ({
      email,
      password_hash: 'x',
      name: '他社',
      role,
      account_kind: 0,
      is_leader: 0,
      agreed_terms: 1,
      phone: null,
      company_name: '他社',
      store_name: email,
      logo_url: null,
      agent_code: '3003',
      trial_ends_at: null,
      payment_fail: 0,
      agency_id: agencyId,
      status: 1,
      created_at: now,
      updated_at: now,
    });
    const other = (
      await db
        .insertInto('users')
        .values(row('gx-agency@tenpo.example', ROLE.agency, null))
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const otherStore = (
      await db
        .insertInto('users')
        .values(row('gx-store@tenpo.example', ROLE.shop, other))
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const otherGroup = (
      await db
        .insertInto('store_groups')
        .values({
          agency_id: other,
          name: '他社G',
          leader_id: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // A member row naming the demo agency's store (bad data): it must not show either.
    await db
      .insertInto('group_members')
      .values([
        { group_id: otherGroup, user_id: otherStore },
        { group_id: otherGroup, user_id: await idOf(t, 'store05@tenpo.example') },
      ])
      .execute();
    const demoGroup = (
      await db
        .selectFrom('store_groups')
        .select('id')
        .where('name', '=', 'ミナト 東京エリア')
        .executeTakeFirstOrThrow()
    ).id;
    const list = async (url: string) => {
      const res = await call(t.app, { method: 'GET', url, token: tokens.manager });
      expect(res.statusCode, url).toBe(200);
      return json<List<StoreRow>>(res).data;
    };
    for (const url of [
      `/api/admin/stores?agency_id=${ids.agency}&group_id=${otherGroup}`,
      `/api/admin/stores?agency_id=${other}&group_id=${demoGroup}`,
    ])
      expect((await list(url)).data, url).toEqual([]);
    const own = await list(`/api/admin/stores?group_id=${otherGroup}`);
    expect(own.data.map((r) => r.id)).toEqual([otherStore]);
  });

  it('the manager reaches each list (the guard lets the right role through)', async () => {
    for (const r of routes().filter((x) => x.method === 'GET'))
      expect((await send(r, tokens.manager)).statusCode, r.url).toBe(200);
  });
});
