import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { addOtherTenant, buildTestApp, call, json, login, type TestApp } from './helpers';

/**
 * Agency groups (issue 12, ADR 0048): POST/PUT /agency/groups and the manager's /admin/groups.
 * One app for the file; each test makes the groups it needs, with names of its own.
 */
let t: TestApp;
const ids: Record<string, number> = {};
let otherGroup = 0;
let tokyoGroup = 0;

const id = (email: string): number => {
  const v = ids[email];
  if (v === undefined) throw new Error(email);
  return v;
};
const s = (n: number) => `store${String(n).padStart(2, '0')}@tenpo.example`;
const list = (...emails: string[]) => emails.map(id).join(',');

beforeAll(async () => {
  t = await buildTestApp();
  // A second tenant: another agency with two stores and one group, led by the first.
  const other = await addOtherTenant(t, {
    stores: ['other-store@tenpo.example', 'other-store2@tenpo.example'],
    group: '他社グループ',
  });
  Object.assign(ids, other.ids);
  otherGroup = other.groupId ?? 0;
  const db = t.database.db;
  tokyoGroup = (
    await db
      .selectFrom('store_groups')
      .select('id')
      .where('name', '=', 'ミナト 東京エリア')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => t.close());

type GroupBody = {
  id: number;
  name: string;
  leader: number | null;
  agency_id: number;
  agency_name: string | null;
  stores: { id: number; name: string }[];
};
type Envelope<T> = {
  status_code: number;
  message?: string;
  data: T;
  errors?: Record<string, string[]>;
};

const tokens: Record<string, string> = {};
const tokenOf = async (who: string): Promise<string> =>
  (tokens[who] ??= await login(t.app, who.includes('@') ? who : `${who}@tenpo.example`));

const send = async (
  who: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) =>
  call(t.app, {
    method,
    url: `/api${url}`,
    token: await tokenOf(who),
    ...(payload ? { payload } : {}),
  });

const isLeader = async (email: string): Promise<number> =>
  (
    await t.database.db
      .selectFrom('users')
      .select('is_leader')
      .where('id', '=', id(email))
      .executeTakeFirstOrThrow()
  ).is_leader;

/** Everything a group change writes: a refused request must leave all of it as it was. */
const state = async () => {
  const db = t.database.db;
  return {
    groups: await db.selectFrom('store_groups').selectAll().orderBy('id').execute(),
    members: await db
      .selectFrom('group_members')
      .selectAll()
      .orderBy('group_id')
      .orderBy('user_id')
      .execute(),
    leaders: await db
      .selectFrom('users')
      .select(['id', 'is_leader'])
      .where('is_leader', '=', 1)
      .orderBy('id')
      .execute(),
    audit: (
      await db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  };
};

const auditOf = (groupId: number) =>
  t.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity', '=', 'group')
    .where('entity_id', '=', String(groupId))
    .orderBy('id')
    .execute();

const create = async (who: string, payload: Record<string, unknown>) => {
  const res = await send(who, 'POST', '/agency/groups', payload);
  expect(res.statusCode, res.body).toBe(200);
  return json<Envelope<GroupBody>>(res);
};

describe('POST /agency/groups', () => {
  it('creates the group, its stores and its leader, with an audit record', async () => {
    const body = await create('agency', {
      name: ' 東京 ',
      leader_id: id(s(8)),
      store_list: list(s(10), s(8), s(9)),
    });
    expect(body.message).toBe('グループを作成しました');
    expect(body.data).toMatchObject({
      name: '東京',
      leader: id(s(8)),
      agency_id: id('agency@tenpo.example'),
    });
    expect(body.data.stores.map((x) => x.id)).toEqual([id(s(8)), id(s(9)), id(s(10))]);
    expect(await isLeader(s(8))).toBe(1);

    const listed = json<Envelope<GroupBody[]>>(await send('agency', 'GET', '/agency/groups'));
    expect(listed.data.map((g) => g.name)).toContain('東京');

    // The leader now sees exactly the group's stores.
    const led = json<Envelope<{ data: { id: number }[] }>>(
      await send(s(8), 'GET', '/group-leader/stores?order_by=id,asc'),
    );
    expect(led.data.data.map((x) => x.id)).toEqual([id(s(8)), id(s(9)), id(s(10))]);

    const [row, ...more] = await auditOf(body.data.id);
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({
      action: 'create',
      actor_id: id('agency@tenpo.example'),
      agency_id: id('agency@tenpo.example'),
      store_id: null,
      summary: 'グループ「東京」を作成',
      before: null,
    });
    expect(JSON.parse(row?.after ?? '')).toEqual({
      name: '東京',
      leader_id: id(s(8)),
      store_ids: [id(s(8)), id(s(9)), id(s(10))],
    });
  });

  it('a group needs no leader; agency_id may name the agency itself', async () => {
    const body = await create('agency', {
      name: 'リーダーなし',
      leader_id: null,
      store_list: list(s(11)),
      agency_id: id('agency@tenpo.example'),
    });
    expect(body.data.leader).toBeNull();
    expect(await isLeader(s(11))).toBe(0);
  });

  it('a manager creates a group for the agency it names, and must name one', async () => {
    const made = await create('manager', {
      name: '他社 東',
      leader_id: id('other-store2@tenpo.example'),
      store_list: list('other-store2@tenpo.example'),
      agency_id: id('other-agency@tenpo.example'),
    });
    expect(made.data.agency_id).toBe(id('other-agency@tenpo.example'));
    expect(await isLeader('other-store2@tenpo.example')).toBe(1);
    const rows = await auditOf(made.data.id);
    expect(rows[0]).toMatchObject({
      actor_id: id('manager@tenpo.example'),
      agency_id: id('other-agency@tenpo.example'),
    });

    const before = await state();
    const none = await send('manager', 'POST', '/agency/groups', {
      name: 'x',
      store_list: list(s(8)),
    });
    expect(none.statusCode).toBe(422);
    expect(json<Envelope<null>>(none).errors).toEqual({
      agency_id: ['代理店 を入力してください。'],
    });
    const unknown = await send('manager', 'POST', '/agency/groups', {
      name: 'x',
      store_list: list(s(8)),
      agency_id: id('shop@tenpo.example'),
    });
    expect(unknown.statusCode).toBe(404);
    expect(json<Envelope<null>>(unknown).errors).toEqual({
      agency_id: ['代理店が見つかりません。'],
    });
    // The named agency's stores only: the demo agency's store in another agency's group.
    const mixed = await send('manager', 'POST', '/agency/groups', {
      name: 'x',
      store_list: list(s(8)),
      agency_id: id('other-agency@tenpo.example'),
    });
    expect(mixed.statusCode).toBe(404);
    expect(await state()).toEqual(before);
  });
});

describe('validation: a clear Japanese 4xx, and nothing half-saved', () => {
  type Errors = Record<string, string[]>;
  const cases: [string, () => Record<string, unknown>, number, Errors | (() => Errors)][] = [
    [
      'an empty name',
      () => ({ name: '  ', store_list: list(s(8)) }),
      422,
      { name: ['グループ名 を入力してください。'] },
    ],
    [
      'no name at all',
      () => ({ store_list: list(s(8)) }),
      422,
      { name: ['グループ名 を入力してください。'] },
    ],
    [
      'a store twice',
      () => ({ name: 'x', store_list: list(s(8), s(9), s(8)) }),
      422,
      () => ({ store_list: [`同じ店舗（ID: ${id(s(8))}）が2回指定されています。`] }),
    ],
    [
      'no store',
      () => ({ name: 'x', store_list: '' }),
      422,
      { store_list: ['店舗を1つ以上追加してください。'] },
    ],
    [
      'a store list that is not ids',
      () => ({ name: 'x', store_list: '8;9' }),
      422,
      { store_list: ['店舗の指定が正しくありません。店舗IDをカンマ区切りで指定してください。'] },
    ],
    [
      'a leader outside the group',
      () => ({ name: 'x', leader_id: id(s(10)), store_list: list(s(8), s(9)) }),
      422,
      { leader_id: ['グループリーダーはグループの店舗から選んでください。'] },
    ],
    [
      'a free-trial store as leader',
      () => ({ name: 'x', leader_id: id(s(11)), store_list: list(s(8), s(11)) }),
      422,
      { leader_id: ['グループリーダーには有料プランの店舗を選んでください。'] },
    ],
    [
      "another agency's store",
      () => ({ name: 'x', store_list: list(s(8), 'other-store@tenpo.example') }),
      404,
      { store_list: ['選択した店舗が見つかりません。'] },
    ],
    [
      'a store that does not exist',
      () => ({ name: 'x', store_list: `${id(s(8))},999999` }),
      404,
      { store_list: ['選択した店舗が見つかりません。'] },
    ],
    [
      'an account that is not a store (the agency itself)',
      () => ({ name: 'x', store_list: list(s(8), 'agency@tenpo.example') }),
      404,
      { store_list: ['選択した店舗が見つかりません。'] },
    ],
    [
      "another agency's id as agency_id",
      () => ({ name: 'x', store_list: list(s(8)), agency_id: id('other-agency@tenpo.example') }),
      404,
      {},
    ],
  ];

  it.each(cases)('create with %s', async (_what, make, status, errors) => {
    const before = await state();
    const res = await send('agency', 'POST', '/agency/groups', make());
    expect(res.statusCode, res.body).toBe(status);
    expect(json<Envelope<null>>(res).errors).toEqual(
      typeof errors === 'function' ? errors() : errors,
    );
    expect(await state()).toEqual(before);
  });

  it.each(cases)('update with %s', async (_what, make, status, errors) => {
    const before = await state();
    const res = await send('agency', 'PUT', `/agency/groups/${tokyoGroup}`, make());
    expect(res.statusCode, res.body).toBe(status);
    expect(json<Envelope<null>>(res).errors).toEqual(
      typeof errors === 'function' ? errors() : errors,
    );
    expect(await state()).toEqual(before);
  });

  it('an unknown group id answers 404', async () => {
    const before = await state();
    const res = await send('agency', 'PUT', '/agency/groups/999999', {
      name: 'x',
      store_list: list(s(8)),
    });
    expect(res.statusCode).toBe(404);
    expect(await state()).toEqual(before);
  });

  it('a fault after the writes leaves nothing: one transaction (group, members, is_leader, audit)', async () => {
    const db = t.database.db;
    const before = await state();
    await sql`alter table audit_log rename to audit_log_away`.execute(db);
    try {
      const made = await send('agency', 'POST', '/agency/groups', {
        name: '失敗する作成',
        leader_id: id(s(10)),
        store_list: list(s(10)),
      });
      expect(made.statusCode).toBe(500);
      const changed = await send('agency', 'PUT', `/agency/groups/${tokyoGroup}`, {
        name: '失敗する更新',
        leader_id: null,
        store_list: list(s(2)),
      });
      expect(changed.statusCode).toBe(500);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(db);
    }
    expect(await state()).toEqual(before);
    expect(await isLeader(s(10))).toBe(0);
    expect(await isLeader('leader@tenpo.example')).toBe(1);
  });
});

describe('PUT /agency/groups/{id} and is_leader', () => {
  it('moves the leadership: the old leader loses is_leader, the new one gains it; audited', async () => {
    const g = (
      await create('agency', { name: '大阪', leader_id: id(s(5)), store_list: list(s(5), s(6)) })
    ).data;
    expect(await isLeader(s(5))).toBe(1);
    const res = await send('agency', 'PUT', `/agency/groups/${g.id}`, {
      name: '大阪・神戸',
      leader_id: id(s(7)),
      store_list: list(s(6), s(7)),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = json<Envelope<GroupBody>>(res);
    expect(body.message).toBe('グループを更新しました');
    expect(body.data).toMatchObject({ name: '大阪・神戸', leader: id(s(7)) });
    expect(body.data.stores.map((x) => x.id)).toEqual([id(s(6)), id(s(7))]);
    expect(await isLeader(s(5))).toBe(0);
    expect(await isLeader(s(7))).toBe(1);

    const rows = await auditOf(g.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update']);
    const upd = rows[1];
    expect(upd?.summary).toBe('グループ「大阪・神戸」を更新');
    expect(JSON.parse(upd?.before ?? '')).toEqual({
      name: '大阪',
      leader_id: id(s(5)),
      store_ids: [id(s(5)), id(s(6))],
    });
    expect(JSON.parse(upd?.after ?? '')).toEqual({
      name: '大阪・神戸',
      leader_id: id(s(7)),
      store_ids: [id(s(6)), id(s(7))],
    });
    // Leaving the leader out clears it.
    await send('agency', 'PUT', `/agency/groups/${g.id}`, {
      name: '大阪・神戸',
      store_list: list(s(6)),
    });
    expect(await isLeader(s(7))).toBe(0);
  });

  it('a leader of two groups stays a leader while it leads one', async () => {
    const a = (await create('agency', { name: 'A', leader_id: id(s(2)), store_list: list(s(2)) }))
      .data;
    const b = (
      await create('agency', { name: 'B', leader_id: id(s(2)), store_list: list(s(2), s(3)) })
    ).data;
    await send('agency', 'PUT', `/agency/groups/${a.id}`, { name: 'A', store_list: list(s(2)) });
    expect(await isLeader(s(2))).toBe(1);
    await send('agency', 'PUT', `/agency/groups/${b.id}`, {
      name: 'B',
      leader_id: id(s(3)),
      store_list: list(s(2), s(3)),
    });
    expect(await isLeader(s(2))).toBe(0);
    expect(await isLeader(s(3))).toBe(1);
  });

  it('the demo leader loses its group and with it the leader lists', async () => {
    const res = await send('agency', 'PUT', `/agency/groups/${tokyoGroup}`, {
      name: 'ミナト 東京エリア',
      leader_id: null,
      store_list: list('leader@tenpo.example', s(2), s(3), s(4)),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await isLeader('leader@tenpo.example')).toBe(0);
    expect((await send('leader', 'GET', '/group-leader/groups')).statusCode).toBe(403);
    // And back, so the other tests see the demo as seeded.
    await send('agency', 'PUT', `/agency/groups/${tokyoGroup}`, {
      name: 'ミナト 東京エリア',
      leader_id: id('leader@tenpo.example'),
      store_list: list('leader@tenpo.example', s(2), s(3), s(4)),
    });
    expect(await isLeader('leader@tenpo.example')).toBe(1);
    expect((await send('leader', 'GET', '/group-leader/groups')).statusCode).toBe(200);
  });
});

describe('/admin/groups', () => {
  type ListBody = Envelope<{
    data: GroupBody[];
    meta: { current_page: number; last_page: number; per_page: number; total: number };
  }>;

  it('lists every agency’s groups, 10 a page, searched by name; a page past the end is refused', async () => {
    const all = json<ListBody>(await send('manager', 'GET', '/admin/groups?per_page=100'));
    const total = all.data.meta.total;
    expect(all.data.data.map((g) => g.name)).toEqual(
      expect.arrayContaining(['ミナト 東京エリア', '他社グループ']),
    );
    expect(all.data.data.find((g) => g.id === otherGroup)?.agency_name).toBe('他社');

    for (let i = 0; i < 11; i++)
      await create('agency', { name: `ページ ${i}`, store_list: list(s(9)) });
    const first = json<ListBody>(await send('manager', 'GET', '/admin/groups'));
    expect(first.data.data).toHaveLength(10);
    expect(first.data.meta).toEqual({
      current_page: 1,
      last_page: Math.ceil((total + 11) / 10),
      per_page: 10,
      total: total + 11,
    });
    const found = json<ListBody>(
      await send('manager', 'GET', '/admin/groups?search=%E3%83%9A%E3%83%BC%E3%82%B8'),
    );
    expect(found.data.meta.total).toBe(11);
    const beyond = await send(
      'manager',
      'GET',
      '/admin/groups?search=%E3%83%9A%E3%83%BC%E3%82%B8&page=9',
    );
    // Past the end: refused with the range, like the other admin lists (ADR 0049).
    expect(beyond.statusCode).toBe(422);
    expect((beyond.json() as { errors: Record<string, string[]> }).errors).toEqual({
      page: ['ページは1〜2の範囲で指定してください。'],
    });
    const pct = json<ListBody>(await send('manager', 'GET', '/admin/groups?search=%25'));
    expect(pct.data.meta.total).toBe(0);
    const bad = await send('manager', 'GET', '/admin/groups?page=0');
    expect(bad.statusCode).toBe(422);
  });

  it('agency_id lists one agency’s groups only (the manager’s /overview/agencies/{id})', async () => {
    const of = async (agency: string) =>
      json<ListBody>(
        await send('manager', 'GET', `/admin/groups?per_page=100&agency_id=${id(agency)}`),
      ).data.data;
    const demo = await of('agency@tenpo.example');
    expect(demo.map((g) => g.name)).toEqual(
      expect.arrayContaining(['ミナト 東京エリア', 'さぬき屋 関西エリア']),
    );
    expect(demo.every((g) => g.agency_id === id('agency@tenpo.example'))).toBe(true);
    const other = await of('other-agency@tenpo.example');
    expect(other.map((g) => g.id)).toContain(otherGroup);
    expect(other.every((g) => g.agency_id === id('other-agency@tenpo.example'))).toBe(true);
    expect(await of('shop@tenpo.example')).toEqual([]);
    const bad = await send('manager', 'GET', '/admin/groups?agency_id=x');
    expect(bad.statusCode).toBe(422);
  });

  it('reads, creates, changes and deletes one group; delete recomputes is_leader', async () => {
    const made = await send('manager', 'POST', '/admin/groups', {
      name: '管理者の作成',
      leader_id: id(s(4)),
      store_list: list(s(4)),
      agency_id: id('agency@tenpo.example'),
    });
    expect(made.statusCode, made.body).toBe(200);
    const g = json<Envelope<GroupBody>>(made).data;
    expect(await isLeader(s(4))).toBe(1);
    const read = json<Envelope<GroupBody>>(await send('manager', 'GET', `/admin/groups/${g.id}`));
    expect(read.data).toEqual(g);
    const changed = await send('manager', 'PUT', `/admin/groups/${g.id}`, {
      name: '管理者の変更',
      leader_id: id(s(4)),
      store_list: list(s(4), s(5)),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json<Envelope<GroupBody>>(changed).data.stores).toHaveLength(2);
    // A group moves to no other agency: naming another one answers 404.
    const moved = await send('manager', 'PUT', `/admin/groups/${g.id}`, {
      name: '移動',
      store_list: list(s(4)),
      agency_id: id('other-agency@tenpo.example'),
    });
    expect(moved.statusCode).toBe(404);
    const gone = await send('manager', 'DELETE', `/admin/groups/${g.id}`);
    expect(gone.statusCode).toBe(200);
    expect(json<{ message: string }>(gone).message).toBe('グループを削除しました');
    expect(await isLeader(s(4))).toBe(0);
    expect((await send('manager', 'GET', `/admin/groups/${g.id}`)).statusCode).toBe(404);
    expect((await send('manager', 'DELETE', `/admin/groups/${g.id}`)).statusCode).toBe(404);
    const rows = await auditOf(g.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    expect(rows[2]?.summary).toBe('グループ「管理者の変更」を削除');
    expect(JSON.parse(rows[2]?.before ?? '')).toMatchObject({ name: '管理者の変更' });
  });
});

describe('cross-tenant', () => {
  const valid = () => ({ name: '乗っ取り', store_list: list(s(8)) });
  type Attempt = [
    who: string,
    what: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: () => string,
    body: (() => Record<string, unknown>) | null,
    status: number,
  ];
  const attempts: Attempt[] = [
    // Another agency's group or store: 404, as if missing.
    [
      'other-agency',
      "change the demo agency's group",
      'PUT',
      () => `/agency/groups/${tokyoGroup}`,
      () => ({ name: 'x', store_list: list('other-store@tenpo.example') }),
      404,
    ],
    [
      'agency',
      "change another agency's group",
      'PUT',
      () => `/agency/groups/${otherGroup}`,
      () => ({ name: 'x', store_list: list(s(8)) }),
      404,
    ],
    [
      'agency',
      "change another agency's group with its own store",
      'PUT',
      () => `/agency/groups/${otherGroup}`,
      () => ({ name: 'x', store_list: list('other-store@tenpo.example') }),
      404,
    ],
    [
      'agency',
      "create a group of another agency's store",
      'POST',
      () => '/agency/groups',
      () => ({ name: 'x', store_list: list('other-store@tenpo.example') }),
      404,
    ],
    [
      'agency',
      'create a group for another agency',
      'POST',
      () => '/agency/groups',
      () => ({ ...valid(), agency_id: id('other-agency@tenpo.example') }),
      404,
    ],
    [
      'agency',
      "make another agency's store a leader",
      'PUT',
      () => `/agency/groups/${tokyoGroup}`,
      () => ({
        name: 'x',
        leader_id: id('other-store@tenpo.example'),
        store_list: list(s(2), 'other-store@tenpo.example'),
      }),
      404,
    ],
    // A shop, a leader: no group changes at all.
    ['shop', 'create a group', 'POST', () => '/agency/groups', valid, 403],
    ['shop', 'change a group', 'PUT', () => `/agency/groups/${tokyoGroup}`, valid, 403],
    ['leader', 'create a group', 'POST', () => '/agency/groups', valid, 403],
    [
      'leader',
      'change its own group',
      'PUT',
      () => `/agency/groups/${tokyoGroup}`,
      () => ({
        name: 'x',
        leader_id: id('leader@tenpo.example'),
        store_list: list('leader@tenpo.example'),
      }),
      403,
    ],
    // Only a manager reaches /admin/groups.
    ...(['agency', 'shop', 'leader'] as const).flatMap((who): Attempt[] => [
      [who, 'list groups', 'GET', () => '/admin/groups', null, 403],
      [who, 'read a group', 'GET', () => `/admin/groups/${tokyoGroup}`, null, 403],
      [
        who,
        'create a group',
        'POST',
        () => '/admin/groups',
        () => ({ ...valid(), agency_id: id('agency@tenpo.example') }),
        403,
      ],
      [who, 'change a group', 'PUT', () => `/admin/groups/${tokyoGroup}`, valid, 403],
      [who, 'delete a group', 'DELETE', () => `/admin/groups/${tokyoGroup}`, null, 403],
    ]),
  ];

  it.each(attempts)('%s: %s', async (who, _what, method, url, body, status) => {
    const before = await state();
    const res = await send(who, method, url(), body ? body() : undefined);
    expect(res.statusCode, res.body).toBe(status);
    expect(await state()).toEqual(before);
  });

  it('without a session every route answers 401', async () => {
    for (const [method, url] of [
      ['POST', '/api/agency/groups'],
      ['PUT', `/api/agency/groups/${tokyoGroup}`],
      ['GET', '/api/admin/groups'],
      ['GET', `/api/admin/groups/${tokyoGroup}`],
      ['POST', '/api/admin/groups'],
      ['PUT', `/api/admin/groups/${tokyoGroup}`],
      ['DELETE', `/api/admin/groups/${tokyoGroup}`],
    ] as const) {
      const res = await call(t.app, { method, url, payload: { name: 'x', store_list: '1' } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('a leader’s lists never show a store outside its groups', async () => {
    const led = json<Envelope<{ data: { id: number }[] }>>(
      await send('leader', 'GET', '/group-leader/stores?per_page=100'),
    );
    expect(led.data.data.map((x) => x.id)).toEqual(
      ['leader@tenpo.example', s(2), s(3), s(4)].map(id),
    );
  });
});

describe('OpenAPI', () => {
  it('documents every group route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(res);
    expect(Object.keys(doc.paths['/api/agency/groups'] ?? {})).toEqual(
      expect.arrayContaining(['get', 'post']),
    );
    expect(Object.keys(doc.paths['/api/agency/groups/{id}'] ?? {})).toEqual(['put']);
    const post = doc.paths['/api/agency/groups']?.post as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    };
    expect(
      Object.keys(post.requestBody.content['application/json']?.schema.properties ?? {}),
    ).toEqual(['name', 'leader_id', 'store_list', 'agency_id']);
    expect(Object.keys(doc.paths['/api/admin/groups'] ?? {})).toEqual(
      expect.arrayContaining(['get', 'post']),
    );
    expect(Object.keys(doc.paths['/api/admin/groups/{id}'] ?? {})).toEqual(
      expect.arrayContaining(['get', 'put', 'delete']),
    );
  });
});
