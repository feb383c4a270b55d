import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagingJa, ROLE } from '@tenpo/domain';
import { iso } from '../src/lib/clock';
import { addOtherTenant, buildTestApp, call, login, type TestApp } from './helpers';
import {
  expectCursorParams,
  expectRefused,
  forged,
  getOk,
  gotOf,
  offsetPages as offsetPagesOf,
  openApi,
  SPEC_FIELDS,
  walkEveryWay as walkPages,
  type Got,
  type PageBody,
  type Query,
} from './keyset-walk';

/**
 * Keyset paging (issue 26, ADR 0098): every page of the agency's store list, the manager's
 * lists and the audit log, walked by cursor forwards (`after`) and backwards (`before`) and by
 * number (`page`, the pages of the second half read from the end), is the page the old LIMIT /
 * OFFSET read gave, in every sort order, ties in the name and the creation time included; a
 * cursor never reaches past the caller's tenant; a cursor that is not ours is a 422.
 */

let t: TestApp;
let agencyId: number;
let otherAgencyId: number;
let agencyToken: string;
let otherToken: string;
let managerToken: string;

// Names with ties (and a store with no store name, listed by its company name), three creation
// times for 40 stores: every sort order has ties the id must break.
const NAMES = ['あおば', 'いろは', 'Zen', 'あおば', 'zen', null, 'うめ', 'いろは'];
const TIMES = ['2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'];

async function addStores(agency: number, prefix: string, count: number) {
  const db = t.database.db;
  for (let i = 0; i < count; i++) {
    const name = NAMES[i % NAMES.length] ?? null;
    await db
      .insertInto('users')
      .values({
        email: `${prefix}-${i}@tenpo.example`,
        password_hash: null,
        name: null,
        role: i % 5 === 0 ? ROLE.freeTrial : ROLE.shop,
        account_kind: 0,
        is_leader: 0,
        agreed_terms: 1,
        phone: null,
        company_name: name === null ? `社名${i % 3}` : 'キーセット株式会社',
        store_name: name,
        logo_url: null,
        agent_code: null,
        trial_ends_at: null,
        payment_fail: 0,
        agency_id: agency,
        status: 1,
        created_at: TIMES[i % TIMES.length] as string,
        updated_at: TIMES[0] as string,
      })
      .execute();
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  const other = await addOtherTenant(t, {
    stores: ['other-1@tenpo.example', 'other-2@tenpo.example'],
  });
  otherAgencyId = other.agencyId;
  const db = t.database.db;
  agencyId = (
    await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'agency@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
  // Interleaved ids: the two tenants' stores alternate in every order.
  for (let round = 0; round < 4; round++) {
    await addStores(agencyId, `keyset-${round}`, 10);
    await addStores(otherAgencyId, `other-keyset-${round}`, 5);
  }
  // The audit log: rows of both tenants, interleaved.
  const stores = await db
    .selectFrom('users')
    .select(['id', 'agency_id'])
    .where('role', 'in', [ROLE.freeTrial, ROLE.shop])
    .where('agency_id', 'in', [agencyId, otherAgencyId])
    .orderBy('id')
    .execute();
  const at = new Date('2026-11-01T00:00:00Z').getTime();
  for (const [i, s] of stores.entries())
    await db
      .insertInto('audit_log')
      .values({
        at: iso(new Date(at + i * 60_000)),
        actor_id: null,
        actor_email: null,
        actor_role: null,
        store_id: s.id,
        agency_id: s.agency_id,
        entity: 'store',
        entity_id: String(s.id),
        action: 'update',
        summary: `#${i}`,
        before: null,
        after: null,
      })
      .execute();
  [agencyToken, otherToken, managerToken] = await Promise.all([
    login(t.app, 'agency@tenpo.example'),
    login(t.app, 'other-agency@tenpo.example'),
    login(t.app, 'manager@tenpo.example'),
  ]);
});
afterAll(async () => t?.close());

/** The admin lists' page: the spec's numbers under `meta`, no `from` / `to`, the two cursors. */
type AdminPage = {
  data: { id: number }[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
  next_cursor: string | null;
  prev_cursor: string | null;
};

/** One page as both envelopes say it: the admin lists' `meta` read as the spec's numbers. */
async function get(token: string, path: string, q: Query): Promise<Got> {
  const body = (await getOk<{ data: PageBody | AdminPage }>(t, token, path, q)).data;
  if (!('meta' in body)) return gotOf(body);
  const m = body.meta;
  const from = body.data.length === 0 ? null : (m.current_page - 1) * m.per_page + 1;
  return {
    ids: body.data.map((r) => r.id),
    current_page: m.current_page,
    last_page: m.last_page,
    total: m.total,
    per_page: m.per_page,
    from,
    to: from === null ? null : from + body.data.length - 1,
    next: body.next_cursor,
    prev: body.prev_cursor,
  };
}

/** The pages as LIMIT / OFFSET read them, straight from the database. */
const offsetPages = (from: string, where: string, orderBy: string, perPage: number) =>
  offsetPagesOf(t, from, where, orderBy, perPage);

/** Walks `path` as `token` every way; the pages meet in all but `per_page` and the cursors. */
const walkEveryWay = (token: string, path: string, q: Query, want: number[][]) =>
  walkPages(
    (x) => get(token, path, x),
    q,
    want,
    SPEC_FIELDS.filter((f) => f !== 'per_page'),
  );

const STORES_WHERE = (agency: number) => `role in (0, 1) and agency_id = ${agency}`;
const SORTS = {
  id: 'id',
  name: 'coalesce(store_name, company_name, email)',
  created_at: 'created_at',
} as const;

describe('the agency store list by cursor is the list by OFFSET', () => {
  for (const column of ['id', 'name', 'created_at'] as const)
    for (const direction of ['asc', 'desc'] as const)
      it(`order_by ${column},${direction}: every page forwards, backwards and by number`, async () => {
        for (const perPage of [5, 7]) {
          const want = await offsetPages(
            'users',
            STORES_WHERE(agencyId),
            `${SORTS[column]} ${direction}, id ${direction}`,
            perPage,
          );
          expect(want.flat()).toHaveLength(52);
          await walkEveryWay(
            agencyToken,
            '/agency/stores',
            { per_page: perPage, order_by: `${column},${direction}` },
            want,
          );
        }
      });

  it('a search narrows every page the same way (the cursor keeps no filter of its own)', async () => {
    const want = await offsetPages(
      'users',
      `${STORES_WHERE(agencyId)} and lower(coalesce(store_name, '')) like '%zen%'`,
      `${SORTS.name} desc, id desc`,
      3,
    );
    expect(want.flat().length).toBeGreaterThan(6);
    await walkEveryWay(
      agencyToken,
      '/agency/stores',
      { per_page: 3, order_by: 'name,desc', search: 'zen' },
      want,
    );
  });

  it("another agency's cursor reads the caller's own stores only", async () => {
    const mine = await offsetPages('users', STORES_WHERE(agencyId), `${SORTS.name} asc, id asc`, 5);
    const theirs = await offsetPages(
      'users',
      STORES_WHERE(otherAgencyId),
      `${SORTS.name} asc, id asc`,
      5,
    );
    // A cursor made on the other agency's list, walked by this agency: its own rows from there.
    const p1 = await get(otherToken, '/agency/stores', { per_page: 5, order_by: 'name,asc' });
    expect(p1.ids).toEqual(theirs[0]);
    const seen: number[] = [];
    for (
      let p: Got | null = await get(agencyToken, '/agency/stores', {
        per_page: 5,
        order_by: 'name,asc',
        after: p1.next ?? '',
      });
      p;

    ) {
      seen.push(...p.ids);
      p = p.next
        ? await get(agencyToken, '/agency/stores', {
            per_page: 5,
            order_by: 'name,asc',
            after: p.next,
          })
        : null;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(mine.flat()).toEqual(expect.arrayContaining(seen));
    expect(seen.filter((id) => theirs.flat().includes(id))).toEqual([]);
  });
});

describe("the manager's lists by cursor are the lists by OFFSET", () => {
  it('/admin/stores of one agency, and of every tenant', async () => {
    const one = await offsetPages('users', STORES_WHERE(agencyId), 'id asc', 10);
    await walkEveryWay(managerToken, '/admin/stores', { agency_id: agencyId }, one);
    const all = await offsetPages('users', 'role in (0, 1)', 'id asc', 10);
    await walkEveryWay(managerToken, '/admin/stores', {}, all);
  });

  it('/admin/customers and /admin/agencies', async () => {
    const customers = await offsetPages(
      'users',
      'role in (0, 1) and agency_id is null',
      'id asc',
      2,
    );
    await walkEveryWay(managerToken, '/admin/customers', { per_page: 2 }, customers);
    const agencies = await offsetPages('users', `role = ${ROLE.agency}`, 'id asc', 1);
    expect(agencies.length).toBeGreaterThan(1);
    await walkEveryWay(managerToken, '/admin/agencies', { per_page: 1 }, agencies);
  });

  it('a page number past the last is still refused with the range (ADR 0049)', async () => {
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/admin/agencies?page=999',
      token: managerToken,
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('the audit log by cursor is the log by OFFSET', () => {
  it('the manager reads everything, newest first', async () => {
    const want = await offsetPages('audit_log', '1 = 1', 'id desc', 7);
    await walkEveryWay(managerToken, '/audit-log', { per_page: 7 }, want);
  });

  it("an agency reads its own stores' rows only, whatever cursor it sends", async () => {
    const scope = `(agency_id = ${agencyId} or store_id = ${agencyId} or store_id in (select id from users where agency_id = ${agencyId}))`;
    const want = await offsetPages('audit_log', scope, 'id desc', 6);
    await walkEveryWay(agencyToken, '/audit-log', { per_page: 6 }, want);
    // The manager's cursor at the newest row: the agency gets its own rows older than it.
    const top = await get(managerToken, '/audit-log', { per_page: 1 });
    const p = await get(agencyToken, '/audit-log', { per_page: 6, after: top.next ?? '' });
    expect(want.flat()).toEqual(expect.arrayContaining(p.ids));
  });
});

describe('a cursor that is not ours is a 422, in Japanese', () => {
  const first = async () =>
    get(agencyToken, '/agency/stores', { per_page: 5, order_by: 'name,asc' });
  const refused = async (url: string, field: string, message: string = pagingJa.cursorInvalid) =>
    expectRefused(t, agencyToken, url, field, message);

  it('not base64url, not ours, for another order, or both ways at once', async () => {
    const p = await first();
    await refused('/api/agency/stores?after=%24%24%24', 'after');
    await refused(`/api/agency/stores?after=${'A'.repeat(3000)}`, 'after');
    await refused('/api/agency/stores?before=bm90LWpzb24', 'before');
    await refused(`/api/agency/stores?after=${forged({ o: 'id,asc', k: ['x'], n: 1 })}`, 'after');
    await refused(`/api/agency/stores?after=${forged({ o: 'id,asc', k: [1], n: -1 })}`, 'after');
    await refused(`/api/agency/stores?order_by=id,asc&after=${p.next ?? ''}`, 'after');
    await refused(
      `/api/agency/stores?order_by=name,asc&after=${p.next ?? ''}&before=${p.next ?? ''}`,
      'before',
      pagingJa.cursorBoth,
    );
    await refused(`/api/audit-log?after=${p.next ?? ''}`, 'after');
    await refused(`/api/audit-log?before=${forged({ o: 'id,desc', k: ['1'], n: 0 })}`, 'before');
    // An empty cursor is none: page 1.
    expect((await get(agencyToken, '/agency/stores', { after: '', page: 1 })).current_page).toBe(1);
  });
});

describe('OpenAPI', () => {
  it('documents after and before on every list that takes them, and the cursors answered', async () => {
    const doc = await openApi(t);
    for (const p of [
      '/api/agency/stores',
      '/api/agency/groups/{id}/stores',
      '/api/group-leader/stores',
      '/api/group-leader/groups/{id}/stores',
      '/api/admin/stores',
      '/api/admin/customers',
      '/api/admin/agencies',
      '/api/audit-log',
    ])
      expectCursorParams(doc, p);
    const text = JSON.stringify(doc.paths['/api/agency/stores']);
    expect(text).toContain('next_cursor');
    expect(text).toContain('prev_cursor');
  });
});
