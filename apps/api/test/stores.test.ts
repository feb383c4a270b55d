import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, json, login, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type PageBody = {
  data: {
    data: {
      id: number;
      name: string;
      email: string;
      google_status: number;
      status: number;
      role: number;
      in_trial: boolean;
      person_in_charge: string | null;
    }[];
    current_page: number;
    last_page: number;
    total: number;
    per_page: number;
    from: number | null;
    to: number | null;
  };
};
type GroupsBody = {
  data: {
    id: number;
    name: string;
    leader: number | null;
    stores: { id: number; name: string }[];
  }[];
};

describe('agency store lists', () => {
  it('GET /agency/stores pages the twelve stores, five at a time', async () => {
    const token = await login(t.app, 'agency@tenpo.example');
    const p1 = json<PageBody>(
      await call(t.app, { method: 'GET', url: '/api/agency/stores', token }),
    ).data;
    expect(p1).toMatchObject({
      current_page: 1,
      last_page: 3,
      total: 12,
      per_page: 5,
      from: 1,
      to: 5,
    });
    expect(p1.data[0]).toMatchObject({
      name: 'カフェ・ミナト 渋谷店',
      email: 'leader@tenpo.example',
      person_in_charge: '佐藤 花子',
      google_status: 1,
      status: 1,
    });
    const p3 = json<PageBody>(
      await call(t.app, { method: 'GET', url: '/api/agency/stores?page=3&per_page=5', token }),
    ).data;
    expect(p3).toMatchObject({ current_page: 3, from: 11, to: 12 });
    expect(p3.data.map((s) => s.status)).toContain(0);
    const ids = [...p1.data, ...p3.data].map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('searches by store, company, person or e-mail', async () => {
    const token = await login(t.app, 'agency@tenpo.example');
    const res = json<PageBody>(
      await call(t.app, {
        method: 'GET',
        url: `/api/agency/stores?search=${encodeURIComponent('さぬき屋')}`,
        token,
      }),
    ).data;
    expect(res.total).toBe(3);
    const byMail = json<PageBody>(
      await call(t.app, { method: 'GET', url: '/api/agency/stores?search=STORE09', token }),
    ).data;
    expect(byMail.data.map((s) => s.email)).toEqual(['store09@tenpo.example']);
    const none = json<PageBody>(
      await call(t.app, { method: 'GET', url: '/api/agency/stores?search=%25', token }),
    ).data;
    expect(none).toMatchObject({ total: 0, from: null, to: null, last_page: 1 });
  });

  it('validates paging', async () => {
    const token = await login(t.app, 'agency@tenpo.example');
    expect(
      (await call(t.app, { method: 'GET', url: '/api/agency/stores?page=0', token })).statusCode,
    ).toBe(422);
    expect(
      (await call(t.app, { method: 'GET', url: '/api/agency/stores?per_page=1000', token }))
        .statusCode,
    ).toBe(422);
  });

  it("GET /agency/groups and a group's stores", async () => {
    const token = await login(t.app, 'agency@tenpo.example');
    const groups = json<GroupsBody>(
      await call(t.app, { method: 'GET', url: '/api/agency/groups', token }),
    ).data;
    expect(groups.map((g) => [g.name, g.stores.length])).toEqual([
      ['ミナト 東京エリア', 4],
      ['さぬき屋 関西エリア', 3],
    ]);
    const tokyo = groups[0];
    expect(tokyo?.leader).toBe(tokyo?.stores[0]?.id);
    const stores = json<PageBody>(
      await call(t.app, { method: 'GET', url: `/api/agency/groups/${tokyo?.id}/stores`, token }),
    ).data;
    expect(stores.total).toBe(4);
    expect(stores.data.map((s) => s.id)).toEqual(tokyo?.stores.map((s) => s.id).slice(0, 4));
    expect(
      (await call(t.app, { method: 'GET', url: '/api/agency/groups/99999/stores', token }))
        .statusCode,
    ).toBe(404);
  });

  it('is for agencies only', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    for (const url of ['/api/agency/stores', '/api/agency/groups']) {
      expect((await call(t.app, { method: 'GET', url, token })).statusCode).toBe(403);
    }
  });
});

describe('group leader lists', () => {
  it('gives the led group and its stores ordered by id ascending', async () => {
    const token = await login(t.app, 'leader@tenpo.example');
    const groups = json<GroupsBody>(
      await call(t.app, { method: 'GET', url: '/api/group-leader/groups', token }),
    ).data;
    expect(groups).toHaveLength(1);
    expect(groups[0]?.name).toBe('ミナト 東京エリア');
    const stores = json<PageBody>(
      await call(t.app, { method: 'GET', url: '/api/group-leader/stores?order_by=id,asc', token }),
    ).data;
    expect(stores.total).toBe(4);
    const ids = stores.data.map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const desc = json<PageBody>(
      await call(t.app, { method: 'GET', url: '/api/group-leader/stores?order_by=id,desc', token }),
    ).data;
    expect(desc.data.map((s) => s.id)).toEqual([...ids].reverse());
    const byGroup = json<PageBody>(
      await call(t.app, {
        method: 'GET',
        url: `/api/group-leader/groups/${groups[0]?.id}/stores`,
        token,
      }),
    ).data;
    expect(byGroup.total).toBe(4);
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: '/api/group-leader/stores?order_by=password,asc',
          token,
        })
      ).statusCode,
    ).toBe(422);
  });

  it('refuses a group it does not lead (404) and a shop that leads nothing (403)', async () => {
    const agency = await login(t.app, 'agency@tenpo.example');
    const groups = json<GroupsBody>(
      await call(t.app, { method: 'GET', url: '/api/agency/groups', token: agency }),
    ).data;
    const leader = await login(t.app, 'leader@tenpo.example');
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: `/api/group-leader/groups/${groups[1]?.id}/stores`,
          token: leader,
        })
      ).statusCode,
    ).toBe(404);
    const shop = await login(t.app, 'shop@tenpo.example');
    expect(
      (await call(t.app, { method: 'GET', url: '/api/group-leader/stores', token: shop }))
        .statusCode,
    ).toBe(403);
  });
});

describe("manager's store list", () => {
  it("GET /admin/stores lists every tenant's stores with meta paging", async () => {
    const token = await login(t.app, 'manager@tenpo.example');
    const res = json<{
      data: {
        data: { email: string }[];
        meta: { current_page: number; last_page: number; per_page: number; total: number };
      };
    }>(await call(t.app, { method: 'GET', url: '/api/admin/stores', token })).data;
    // 5 independent shops + 12 agency stores.
    expect(res.meta).toEqual({ current_page: 1, last_page: 2, per_page: 10, total: 17 });
    expect(res.data.map((s) => s.email)).toContain('shop@tenpo.example');
    const agency = await login(t.app, 'agency@tenpo.example');
    expect(
      (await call(t.app, { method: 'GET', url: '/api/admin/stores', token: agency })).statusCode,
    ).toBe(403);
  });
});
