import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminAgency, AdminStoreRow, AgencyGroup, User } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  loginData,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockReply,
  type MockRequest,
} from '../../test/render';

/**
 * The manager's /overview/agencies/{id} (spec 3 §2 agency store overview): the agency's groups
 * in the selector, the group's stores, and the group modal over /admin/groups for that agency.
 */

const manager: Partial<User> = {
  id: 20,
  role: 99,
  email: 'manager@tenpo.example',
  agent_code: null,
};

const store = (id: number, over: Partial<AdminStoreRow> = {}): AdminStoreRow => ({
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
  store_name: `店舗${id}`,
  phone: null,
  logo_url: null,
  agency_id: 6,
  agency_name: 'デモ',
  app_name: null,
  payment_method: 'agency_invoice',
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const agency: AdminAgency = {
  id: 6,
  email: 'agency@tenpo.example',
  name: '後藤 拓海',
  company_name: '株式会社デモエージェンシー',
  phone: null,
  agent_code: '1001',
  status: 1,
  logo_url: null,
  prefix: 'demo',
  title: 'デモエージェンシー 店舗管理',
  favicon_url: null,
  store_count: 12,
  google_connected: 9,
  payment_method: 'agency_invoice',
  created_at: '2026-01-01T00:00:00.000Z',
};

const list = <T,>(data: T[], meta = {}) => ({
  data,
  meta: { current_page: 1, last_page: 1, per_page: 5, total: data.length, ...meta },
});

const rows = [8, 9, 10, 11, 12].map((n) => store(n));
const tokyo: AgencyGroup = {
  id: 3,
  name: '東京',
  leader: 8,
  stores: [8, 9].map((id) => ({ id, name: `店舗${id}` })),
  agency_id: 6,
  agency_name: '株式会社デモエージェンシー',
};

const managerApi = (extra: Record<string, MockReply> = {}) =>
  mockApi({
    'GET /refresh-token': ok(loginData(manager, false)),
    'GET /admin/agencies/6': ok(agency),
    'GET /admin/groups': ok(list([tokyo], { per_page: 100 })),
    'GET /admin/stores': (req) => {
      const group = req.url.searchParams.get('group_id');
      const search = req.url.searchParams.get('search') ?? '';
      const shown = rows
        .filter((r) => group === null || (group === '3' && [8, 9].includes(r.id)))
        .filter((r) => r.name.includes(search) || String(r.id) === search);
      return ok(list(shown));
    },
    ...extra,
  });

const count = (calls: MockRequest[], path: string) => calls.filter((c) => c.path === path).length;

describe('/overview/agencies/{id}: groups (manager)', () => {
  beforeEach(resetState);

  it('the selector lists the agency’s groups; choosing one shows that group’s stores', async () => {
    const { calls } = managerApi();
    signIn(manager, false);
    renderAt('/overview/agencies/6');
    await screen.findByTestId('store-row-12');
    const groupsCall = calls.find((c) => c.path === '/admin/groups');
    expect(groupsCall?.url.searchParams.get('agency_id')).toBe('6');
    expect(screen.getByRole('button', { name: 'グループを更新' })).toBeDisabled();

    await userEvent.click(screen.getByRole('combobox', { name: 'グループ' }));
    await userEvent.click(await screen.findByRole('option', { name: '東京' }));
    await waitFor(() => expect(screen.queryByTestId('store-row-12')).not.toBeInTheDocument());
    expect(screen.getByTestId('store-row-8')).toBeInTheDocument();
    expect(screen.getByTestId('store-row-9')).toBeInTheDocument();
    const last = calls.filter((c) => c.path === '/admin/stores').at(-1);
    expect(last?.url.searchParams.get('agency_id')).toBe('6');
    expect(last?.url.searchParams.get('group_id')).toBe('3');
    expect(screen.getByRole('button', { name: 'グループを更新' })).toBeEnabled();
  });

  it('creates a group for this agency: its stores in the picker, agency_id sent, lists read again', async () => {
    const { calls } = managerApi({
      'POST /admin/groups': ok({ ...tokyo, id: 4, name: '大阪' }, 'グループを作成しました'),
    });
    signIn(manager, false);
    renderAt('/overview/agencies/6');
    await screen.findByTestId('store-row-8');

    await userEvent.click(screen.getByRole('button', { name: 'グループを作成' }));
    const d = await screen.findByRole('dialog');
    await userEvent.type(within(d).getByRole('textbox', { name: /グループ名/ }), '大阪');
    for (const n of ['10 店舗10', '11 店舗11']) {
      await userEvent.click(within(d).getByRole('combobox', { name: '店舗を追加' }));
      await userEvent.click(await screen.findByRole('option', { name: n }));
      await userEvent.click(within(d).getByRole('button', { name: '追加' }));
    }
    // The picker asked for this agency's stores only.
    const picker = calls.filter((c) => c.path === '/admin/stores').at(-1);
    expect(picker?.url.searchParams.get('agency_id')).toBe('6');
    await userEvent.click(
      within(d).getByRole('radio', { name: '店舗11 をグループリーダーにする' }),
    );

    const groupsBefore = count(calls, '/admin/groups');
    const storesBefore = count(calls, '/admin/stores');
    await userEvent.click(within(d).getByRole('button', { name: '確定' }));
    expect(await screen.findByText('グループを作成しました')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/admin/groups', { name: '大阪', leader_id: 11, store_list: '10,11', agency_id: 6 }],
    ]);
    expect(calls.some((c) => c.path.startsWith('/agency/'))).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(count(calls, '/admin/groups')).toBeGreaterThan(groupsBefore));
    await waitFor(() => expect(count(calls, '/admin/stores')).toBeGreaterThan(storesBefore));
  });

  it('updates the chosen group with PUT /admin/groups/{id}, naming the agency', async () => {
    const { calls } = managerApi({
      'PUT /admin/groups/3': ok({ ...tokyo, name: '東京２' }, 'グループを更新しました'),
    });
    signIn(manager, false);
    renderAt('/overview/agencies/6');
    await screen.findByTestId('store-row-8');
    await userEvent.click(screen.getByRole('combobox', { name: 'グループ' }));
    await userEvent.click(await screen.findByRole('option', { name: '東京' }));
    await userEvent.click(screen.getByRole('button', { name: 'グループを更新' }));
    const d = await screen.findByRole('dialog');
    const input = within(d).getByRole('textbox', { name: /グループ名/ });
    expect(input).toHaveValue('東京');
    await userEvent.clear(input);
    await userEvent.type(input, '東京２');
    await userEvent.click(within(d).getByRole('button', { name: '更新' }));
    expect(await screen.findByText('グループを更新しました')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([
      ['/admin/groups/3', { name: '東京２', leader_id: 8, store_list: '8,9', agency_id: 6 }],
    ]);
  });
});

describe('/overview/agencies/{id}: the review columns (issue 25 item 7)', () => {
  beforeEach(resetState);

  it('平均評価 and 未返信 as on the agency’s /overview; — and why without figures, never 0', async () => {
    const summary = (over: Partial<NonNullable<AdminStoreRow['reviews']>>) => ({
      status: 'ready' as const,
      average_rating: null,
      review_count: 0,
      unreplied_count: 0,
      ...over,
    });
    managerApi({
      'GET /admin/stores': ok(
        list([
          store(8, {
            reviews: summary({ average_rating: 4.25, review_count: 20, unreplied_count: 3 }),
          }),
          store(9, { reviews: summary({ status: 'not_connected' }) }),
          store(10, { reviews: summary({ status: 'not_synced' }) }),
        ]),
      ),
    });
    signIn(manager, false);
    renderAt('/overview/agencies/6');
    const row8 = await screen.findByTestId('store-row-8');
    expect(screen.getByRole('columnheader', { name: '平均評価' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '未返信' })).toBeInTheDocument();
    expect(within(row8).getByTestId('store-rating-8')).toHaveTextContent('★ 4.3');
    expect(within(row8).getByTestId('store-unreplied-8')).toHaveTextContent('3');
    expect(
      within(screen.getByTestId('store-row-9')).getAllByRole('cell', {
        name: '口コミの指標なし（Google 未連携）',
      }),
    ).toHaveLength(2);
    const row10 = screen.getByTestId('store-row-10');
    expect(within(row10).getAllByRole('cell', { name: '口コミの指標なし（未取得）' })).toHaveLength(
      2,
    );
    expect(within(row10).queryByText('0')).toBeNull();
  });
});
