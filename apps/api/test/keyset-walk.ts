import { sql } from 'kysely';
import { expect } from 'vitest';
import { ROLE, type Page } from '@tenpo/domain';
import { addOtherTenant, call, json, type TestApp } from './helpers';

/**
 * What the keyset paging tests (keyset-paging, posts-keyset, reviews-keyset; issue 26, ADR 0098)
 * share: a page as the envelopes say it, the reading of one, the LIMIT / OFFSET pages straight
 * from the database, and the walks by number, by `after` and by `before` that must meet them.
 */

/** A list's query string, parameter by parameter. */
export type Query = Record<string, string | number>;

/** One page as the envelopes say it: its rows' ids, the spec's numbers and the cursors. */
export type Got = Omit<Page<never>, 'data'> & {
  ids: number[];
  next: string | null;
  prev: string | null;
};

/** Spec 2 §7's page (`Page` of the domain) of rows with an id, and the two cursors beside it. */
export type PageBody = Page<{ id: number }> & {
  next_cursor: string | null;
  prev_cursor: string | null;
};

/** A list's URL under /api, with its query. */
export const urlOf = (path: string, q: Query) =>
  `/api${path}?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`;

/** GETs a list as `token`, expects a 200 (else the URL and the body) and answers the JSON. */
export async function getOk<T>(t: TestApp, token: string, path: string, q: Query): Promise<T> {
  const url = urlOf(path, q);
  const res = await call(t.app, { method: 'GET', url, token });
  expect([url, res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([url, 200, '']);
  return json<T>(res);
}

/** Expects a page's fields to be the spec's, the two cursors and `extra`, nothing else. */
export function expectPageFields(page: object, extra: readonly string[] = []) {
  expect(Object.keys(page).sort()).toEqual(
    [
      'current_page',
      'data',
      'from',
      'last_page',
      'next_cursor',
      'per_page',
      'prev_cursor',
      'to',
      'total',
      ...extra,
    ].sort(),
  );
}

/** Reads a spec page (with its cursors) as a `Got`. */
export const gotOf = (page: PageBody): Got => ({
  ids: page.data.map((r) => r.id),
  current_page: page.current_page,
  last_page: page.last_page,
  total: page.total,
  per_page: page.per_page,
  from: page.from,
  to: page.to,
  next: page.next_cursor,
  prev: page.prev_cursor,
});

/** The order of the posts and reviews lists: newest first, the id breaking ties. */
export const NEWEST_FIRST = 'created_at desc, id desc';

/** The pages as LIMIT / OFFSET read them, straight from the database. */
export async function offsetPages(
  t: TestApp,
  from: string,
  where: string,
  orderBy: string,
  perPage: number,
): Promise<number[][]> {
  const pages: number[][] = [];
  for (let offset = 0; ; offset += perPage) {
    const r = await sql
      .raw<{
        id: number;
      }>(
        `select id from ${from} where ${where} order by ${orderBy} limit ${perPage} offset ${offset}`,
      )
      .execute(t.database.db);
    if (r.rows.length === 0) break;
    pages.push(r.rows.map((x) => Number(x.id)));
  }
  return pages;
}

/** The fields of a page the walks compare with the page of that number: all but the cursors. */
export const SPEC_FIELDS = [
  'ids',
  'current_page',
  'last_page',
  'total',
  'per_page',
  'from',
  'to',
] as const satisfies readonly (keyof Got)[];

/**
 * Walks the list by number, forwards by `after` from page 1 and backwards by `before` from the
 * last page (`read` answers the page of a query): each walk meets the OFFSET pages `want`, with
 * the same `fields` on each page.
 */
export async function walkEveryWay(
  read: (q: Query) => Promise<Got>,
  q: Query,
  want: number[][],
  fields: readonly (keyof Got)[] = SPEC_FIELDS,
): Promise<Got[]> {
  const total = want.flat().length;
  const last = Math.max(1, want.length);
  const byNumber: Got[] = [];
  for (let page = 1; page <= last; page++) byNumber.push(await read({ ...q, page }));
  expect(byNumber.map((p) => p.ids)).toEqual(want.length ? want : [[]]);
  for (const [i, p] of byNumber.entries()) {
    expect(p).toMatchObject({ current_page: i + 1, last_page: last, total });
    expect(p.next === null).toBe(i === last - 1);
    expect(p.prev === null).toBe(i === 0);
  }
  const spec = (p: Got) => fields.map((f) => p[f]);

  const forward: Got[] = [byNumber[0] as Got];
  for (let p = forward[0]; p?.next; ) {
    p = await read({ ...q, after: p.next });
    forward.push(p);
    expect(forward.length).toBeLessThanOrEqual(last);
  }
  expect(forward.map(spec)).toEqual(byNumber.map(spec));

  const backward: Got[] = [byNumber[last - 1] as Got];
  for (let p = backward[0]; p?.prev; ) {
    p = await read({ ...q, before: p.prev });
    backward.push(p);
    expect(backward.length).toBeLessThanOrEqual(last);
  }
  expect(backward.reverse().map(spec)).toEqual(byNumber.map(spec));
  return byNumber;
}

/** Adds the other tenant (two stores): their ids, and the demo agency's first `count` stores. */
export async function storesOfBoth(
  t: TestApp,
  count: number,
): Promise<{ mine: number[]; theirs: number[] }> {
  const other = await addOtherTenant(t, {
    stores: ['other-1@tenpo.example', 'other-2@tenpo.example'],
  });
  const db = t.database.db;
  const theirs = (
    await db
      .selectFrom('users')
      .select('id')
      .where('agency_id', '=', other.agencyId)
      .orderBy('id')
      .execute()
  ).map((r) => r.id);
  expect(theirs).toHaveLength(2);
  const agency = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'agency@tenpo.example')
    .executeTakeFirstOrThrow();
  const mine = (
    await db
      .selectFrom('users')
      .select('id')
      .where('agency_id', '=', agency.id)
      .where('role', 'in', [ROLE.freeTrial, ROLE.shop])
      .orderBy('id')
      .limit(count)
      .execute()
  ).map((r) => r.id);
  expect(mine).toHaveLength(count);
  return { mine, theirs };
}

/** A cursor's page by hand: the `limit` ids of `from` (`where`) after row `id`, newest first. */
export async function newestAfter(
  t: TestApp,
  from: string,
  where: string,
  id: number | undefined,
  limit: number,
): Promise<number[]> {
  const key = (
    await sql
      .raw<{
        created_at: string;
        id: number;
      }>(`select created_at, id from ${from} where id = ${id}`)
      .execute(t.database.db)
  ).rows[0];
  return (
    await sql
      .raw<{
        id: number;
      }>(
        `select id from ${from} where ${where} and (created_at < '${key?.created_at}' or (created_at = '${key?.created_at}' and id < ${key?.id})) order by ${NEWEST_FIRST} limit ${limit}`,
      )
      .execute(t.database.db)
  ).rows.map((r) => Number(r.id));
}

/** The ids of `first` and of every page after it by `after` (`read` answers the cursor's page). */
export async function idsOnward(read: (after: string) => Promise<Got>, first: Got) {
  const seen = [...first.ids];
  for (let q = first; q.next; ) {
    q = await read(q.next);
    seen.push(...q.ids);
    expect(seen.length).toBeLessThan(100);
  }
  return seen;
}

/** A cursor of the test's own making: `v` as base64url JSON. */
export const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Expects GET `url` as `token` to be a 422 whose `errors[field]` is `[message]` alone. */
export async function expectRefused(
  t: TestApp,
  token: string,
  url: string,
  field: string,
  message: string,
) {
  const res = await call(t.app, { method: 'GET', url, token });
  expect([url, res.statusCode]).toEqual([url, 422]);
  const body = json<{ status_code: number; errors: Record<string, string[]> }>(res);
  expect(body.status_code).toBe(422);
  expect(body.errors[field]).toEqual([message]);
}

/** The OpenAPI document's paths, with each operation's parameters. */
export type OpenApiDoc = {
  paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
};

/** Reads the OpenAPI document. */
export const openApi = async (t: TestApp) =>
  json<OpenApiDoc>(await call(t.app, { method: 'GET', url: '/api/docs/json' }));

/** Expects the list at `p` to document `page`, `after` and `before` among its query parameters. */
export function expectCursorParams(doc: OpenApiDoc, p: string) {
  const names = (doc.paths[p]?.get?.parameters ?? [])
    .filter((x) => x.in === 'query')
    .map((x) => x.name);
  expect([p, names]).toEqual([p, expect.arrayContaining(['page', 'after', 'before'])]);
}

/** Expects the list at `p` to document its answer's two cursors. */
export function expectCursorsAnswered(doc: OpenApiDoc, p: string) {
  const text = JSON.stringify(doc.paths[p]?.get);
  expect([p, text.includes('next_cursor'), text.includes('prev_cursor')]).toEqual([p, true, true]);
}
