import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminStoreRow, AuditRow, StoreRow, User } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PostRow } from '../../features/posts/api/posts-api';
import { noPostApprovals } from '../../features/posts/approval/test-mocks';
import {
  loginData,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockRequest,
} from '../../test/render';

/**
 * Keyset paging in the pagers (issue 26, ADR 0098): the page next to the one shown is asked for
 * with the cursor that page answered (`after` / `before`), any other page by its number.
 */

/** A list of `total` rows served as the API does: by number or by a cursor naming its page. */
const pageOf = (
  req: MockRequest,
  total: number,
  defaultPerPage: number,
  perPageParam = 'per_page',
) => {
  const q = req.url.searchParams;
  const perPage = Number(q.get(perPageParam) ?? defaultPerPage);
  const last = Math.max(1, Math.ceil(total / perPage));
  const after = q.get('after');
  const before = q.get('before');
  const page = after
    ? Number(after.replace('next-', ''))
    : before
      ? Number(before.replace('prev-', ''))
      : Number(q.get('page') ?? 1);
  const ids = Array.from({ length: total }, (_, i) => i + 1).slice(
    (page - 1) * perPage,
    page * perPage,
  );
  return {
    ids,
    paging: {
      current_page: page,
      last_page: last,
      total,
      per_page: perPage,
    },
    cursors: {
      next_cursor: page < last ? `next-${page + 1}` : null,
      prev_cursor: page > 1 ? `prev-${page - 1}` : null,
    },
  };
};

const cursorsOf = (calls: { path: string; url: URL }[], path: string) =>
  calls
    .filter((c) => c.path === path)
    .map((c) => ({
      page: c.url.searchParams.get('page'),
      after: c.url.searchParams.get('after'),
      before: c.url.searchParams.get('before'),
    }));

const store = (id: number): StoreRow => ({
  id,
  name: `店舗${id}`,
  status: 1,
  role: 1,
  in_trial: false,
  agency_logo: null,
  agent_code: '1001',
  company_name: '会社',
  person_in_charge: '担当',
  email: `s${id}@tenpo.example`,
  google_status: 1,
  payment_fail: false,
});

describe('pagers send the cursor for the next and previous page', () => {
  beforeEach(resetState);

  it("the agency's store overview: next by after, back by before, a jump by page", async () => {
    const agency: Partial<User> = { id: 6, role: 11, email: 'agency@tenpo.example' };
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData(agency)),
      'GET /agency/groups': ok([]),
      'GET /agency/stores': (req) => {
        const p = pageOf(req, 23, 5);
        const from = p.ids[0] ?? null;
        return ok({
          data: p.ids.map(store),
          ...p.paging,
          from,
          to: from === null ? null : from + p.ids.length - 1,
          ...p.cursors,
        });
      },
    });
    signIn(agency);
    renderAt('/overview');
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('店舗1')).toBeInTheDocument();
    // The store selector asks too (page 1, 100 a page): the overview's calls are among them.
    const overview = () => cursorsOf(calls, '/agency/stores');

    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await within(table).findByText('店舗6')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    expect(await within(table).findByText('店舗11')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await within(table).findByText('店舗6')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '5' }));
    expect(await within(table).findByText('店舗21')).toBeInTheDocument();
    await waitFor(() =>
      expect(overview()).toEqual(
        expect.arrayContaining([
          { page: '2', after: 'next-2', before: null },
          { page: '3', after: 'next-3', before: null },
          { page: '2', after: null, before: 'prev-2' },
          { page: '5', after: null, before: null },
        ]),
      ),
    );
    // A new search starts again from page 1, with no cursor.
    await userEvent.type(screen.getByRole('textbox', { name: '検索' }), '店');
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/agency/stores').at(-1);
      expect(last?.url.searchParams.get('search')).toBe('店');
      expect(last?.url.searchParams.get('page')).toBe('1');
      expect(last?.url.searchParams.has('after')).toBe(false);
      expect(last?.url.searchParams.has('before')).toBe(false);
    });
  });

  it("the manager's customers: the cursors beside meta", async () => {
    const manager: Partial<User> = { id: 20, role: 99, email: 'manager@tenpo.example' };
    const customer = (id: number): AdminStoreRow => ({
      ...store(id),
      name: `顧客${id}`,
      store_name: `顧客${id}`,
      phone: null,
      logo_url: null,
      agency_id: null,
      agency_name: null,
      app_name: null,
      payment_method: 'credit_card',
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData(manager, false)),
      'GET /admin/agencies': ok({
        data: [],
        meta: { current_page: 1, last_page: 1, per_page: 10, total: 0 },
        next_cursor: null,
        prev_cursor: null,
      }),
      'GET /admin/customers': (req) => {
        const p = pageOf(req, 31, 10);
        return ok({ data: p.ids.map(customer), meta: p.paging, ...p.cursors });
      },
    });
    signIn(manager, false);
    renderAt('/overview');
    await screen.findByTestId('customer-row-1');
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await screen.findByTestId('customer-row-11');
    await userEvent.click(screen.getByRole('button', { name: '1' }));
    await screen.findByTestId('customer-row-1');
    await userEvent.click(screen.getByRole('button', { name: '4' }));
    await screen.findByTestId('customer-row-31');
    expect(cursorsOf(calls, '/admin/customers')).toEqual([
      { page: '1', after: null, before: null },
      { page: '2', after: 'next-2', before: null },
      { page: '1', after: null, before: 'prev-1' },
      { page: '4', after: null, before: null },
    ]);
  });

  it('the audit log: next by after, back by before', async () => {
    const row = (id: number): AuditRow => ({
      id,
      at: '2026-11-26T01:02:03.000Z',
      actor: { id: 1, email: 'shop@tenpo.example', role: 1 },
      store: { id: 1, name: '青木ベーカリー 恵比寿店' },
      entity: 'store',
      entity_id: '1',
      action: 'update',
      summary: `変更${id}`,
      before: null,
      after: null,
    });
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData()),
      'GET /audit-log': (req) => {
        const p = pageOf(req, 45, 20);
        return ok({ data: p.ids.map(row), meta: p.paging, ...p.cursors });
      },
    });
    signIn();
    renderAt('/audit-log');
    expect(await screen.findByText('変更1')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('変更21')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '1' }));
    expect(await screen.findByText('変更1')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText('変更41')).toBeInTheDocument();
    expect(cursorsOf(calls, '/audit-log')).toEqual([
      { page: '1', after: null, before: null },
      { page: '2', after: 'next-2', before: null },
      { page: '1', after: null, before: 'prev-1' },
      { page: '3', after: null, before: null },
    ]);
  });

  it('the posts list: next by after, back by before, a jump by page, a search from page 1', async () => {
    const post = (id: number): PostRow => ({
      id,
      content: `投稿${id}`,
      created_at: '2026-11-01T00:00:00Z',
      publish_date: null,
      delete_date: null,
      media_url: [],
      targets: [],
    });
    const { calls } = mockApi({
      ...noPostApprovals,
      'GET /refresh-token': ok(loginData()),
      'GET /posts': (req) => {
        const p = pageOf(req, 23, 5, 'limit');
        const from = p.ids[0] ?? null;
        // Spec 2 §7: `data.data` is the page.
        return ok({
          data: {
            data: p.ids.map(post),
            ...p.paging,
            from,
            to: from === null ? null : from + p.ids.length - 1,
            ...p.cursors,
          },
        });
      },
    });
    signIn();
    renderAt('/posts');
    expect(await screen.findByText('投稿1')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('投稿6')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText('投稿11')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('投稿6')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '5' }));
    expect(await screen.findByText('投稿21')).toBeInTheDocument();
    expect(cursorsOf(calls, '/posts')).toEqual([
      { page: '1', after: null, before: null },
      { page: '2', after: 'next-2', before: null },
      { page: '3', after: 'next-3', before: null },
      { page: '2', after: null, before: 'prev-2' },
      { page: '5', after: null, before: null },
    ]);
    // A new search starts again from page 1, with no cursor.
    await userEvent.type(screen.getByRole('textbox', { name: '検索' }), '春');
    await waitFor(
      () => {
        const last = calls.filter((c) => c.path === '/posts').at(-1);
        expect(last?.url.searchParams.get('post_key_search')).toBe('春');
        expect(last?.url.searchParams.get('page')).toBe('1');
        expect(last?.url.searchParams.has('after')).toBe(false);
        expect(last?.url.searchParams.has('before')).toBe(false);
      },
      { timeout: 3000 },
    );
  });
});
