import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AgencyGroup, Group, StoreRow, User } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  fail,
  loginData,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockReply,
  type MockRequest,
} from '../../test/render';

/** The group create/edit form on /overview (spec 3 §2; ADR 0048). */

const store = (id: number, over: Partial<StoreRow> = {}): StoreRow => ({
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
  ...over,
});
const page = (rows: StoreRow[]) => ({
  data: rows,
  current_page: 1,
  last_page: 1,
  total: rows.length,
  per_page: rows.length || 5,
  from: rows.length ? 1 : null,
  to: rows.length || null,
});
const agency: Partial<User> = { id: 6, role: 11, email: 'agency@tenpo.example' };
const rows = [
  store(8),
  store(9),
  store(10),
  store(11, { role: 0, name: 'トライアル店' }),
  ...[12, 13, 14, 15].map((n) => store(n)),
];
const tokyo: Group = {
  id: 3,
  name: '東京',
  leader: 8,
  stores: [8, 9, 10, 12, 13, 14, 15].map((id) => ({ id, name: `店舗${id}` })),
};
const saved = (g: Partial<AgencyGroup> = {}): AgencyGroup => ({
  ...tokyo,
  agency_id: 6,
  agency_name: '代理店',
  ...g,
});

const agencyApi = (extra: Record<string, MockReply> = {}) =>
  mockApi({
    'GET /refresh-token': ok(loginData(agency)),
    'GET /agency/stores': (req) => {
      const q = req.url.searchParams.get('search') ?? '';
      return ok(page(rows.filter((r) => r.name.includes(q) || String(r.id) === q)));
    },
    'GET /agency/groups': ok([tokyo]),
    'GET /agency/groups/3/stores': ok(page(rows.filter((r) => r.id !== 11))),
    ...extra,
  });

const modal = () => screen.findByRole('dialog');
const pick = async (name: string) => {
  const d = await modal();
  await userEvent.click(within(d).getByRole('combobox', { name: '店舗を追加' }));
  await userEvent.click(await screen.findByRole('option', { name }));
};
const sent = (calls: MockRequest[], method: string) =>
  calls.filter((c) => c.method === method && c.path.startsWith('/agency/groups'));

describe('/overview: group create and edit (agency)', () => {
  beforeEach(resetState);

  it('update waits for a group; create requires a name and a store, and sends nothing', async () => {
    const { calls } = agencyApi();
    signIn(agency);
    renderAt('/overview');
    await screen.findByTestId('store-row-8');

    expect(screen.getByRole('button', { name: 'グループを更新' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'グループを作成' }));
    const d = await modal();
    expect(within(d).getByRole('button', { name: '追加' })).toBeDisabled();
    await userEvent.click(within(d).getByRole('button', { name: '確定' }));
    expect(await within(d).findByText('グループ名 を入力してください。')).toBeInTheDocument();
    expect(within(d).getByText('店舗を1つ以上追加してください。')).toBeInTheDocument();
    expect(sent(calls, 'POST')).toHaveLength(0);
  });

  it('creates a group: stores picked once each, a leader, removing the leader clears it', async () => {
    const { calls } = agencyApi({
      'POST /agency/groups': ok(saved({ id: 4, name: '大阪' }), 'グループを作成しました'),
    });
    signIn(agency);
    renderAt('/overview');
    await screen.findByTestId('store-row-8');

    await userEvent.click(screen.getByRole('button', { name: 'グループを作成' }));
    const d = await modal();
    await userEvent.type(within(d).getByRole('textbox', { name: /グループ名/ }), '大阪');
    for (const n of ['8 店舗8', '9 店舗9', '10 店舗10']) {
      await pick(n);
      await userEvent.click(within(d).getByRole('button', { name: '追加' }));
    }
    expect(within(d).getByRole('button', { name: '追加' })).toBeDisabled();
    // A store already chosen cannot be chosen again.
    await userEvent.click(within(d).getByRole('combobox', { name: '店舗を追加' }));
    const again = await screen.findByRole('option', { name: '9 店舗9' });
    expect(again).toHaveAttribute('data-combobox-disabled', 'true');
    await userEvent.keyboard('{Escape}');
    // A free-trial store cannot lead.
    await pick('11 トライアル店');
    await userEvent.click(within(d).getByRole('button', { name: '追加' }));
    expect(
      within(d).getByRole('radio', { name: 'トライアル店 をグループリーダーにする' }),
    ).toBeDisabled();
    await userEvent.click(
      within(d).getByRole('button', { name: 'トライアル店 をグループから外す' }),
    );

    await userEvent.click(within(d).getByRole('radio', { name: '店舗9 をグループリーダーにする' }));
    await userEvent.click(within(d).getByRole('button', { name: '店舗9 をグループから外す' }));
    expect(within(d).queryByTestId('group-store-9')).not.toBeInTheDocument();
    await userEvent.click(
      within(d).getByRole('radio', { name: '店舗10 をグループリーダーにする' }),
    );
    const groupsBefore = calls.filter((c) => c.path === '/agency/groups').length;
    await userEvent.click(within(d).getByRole('button', { name: '確定' }));
    expect(await screen.findByText('グループを作成しました')).toBeInTheDocument();
    expect(sent(calls, 'POST').map((c) => c.body)).toEqual([
      { name: '大阪', leader_id: 10, store_list: '8,10' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The groups are read again.
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/agency/groups').length).toBeGreaterThan(groupsBefore),
    );
  });

  it('edits the chosen group: its stores 5 a page, update sends PUT, server errors on the fields', async () => {
    let answer: MockReply = fail(422, { name: ['グループ名は100文字以内で入力してください。'] });
    const { calls } = agencyApi({
      'PUT /agency/groups/3': (req) => (typeof answer === 'function' ? answer(req) : answer),
    });
    signIn(agency);
    renderAt('/overview');
    await screen.findByTestId('store-row-8');

    await userEvent.click(screen.getByRole('combobox', { name: 'グループ' }));
    await userEvent.click(await screen.findByRole('option', { name: '東京' }));
    await userEvent.click(screen.getByRole('button', { name: 'グループを更新' }));
    const d = await modal();
    expect(within(d).getByRole('textbox', { name: /グループ名/ })).toHaveValue('東京');
    expect(within(d).getAllByTestId(/^group-store-/)).toHaveLength(5);
    expect(within(d).getByRole('radio', { name: '店舗8 をグループリーダーにする' })).toBeChecked();
    await userEvent.click(within(d).getByRole('button', { name: '2' }));
    expect(
      within(d)
        .getAllByTestId(/^group-store-/)
        .map((r) => r.dataset.testid),
    ).toEqual(['group-store-14', 'group-store-15']);
    await userEvent.click(within(d).getByRole('button', { name: '更新' }));
    expect(
      await within(d).findAllByText('グループ名は100文字以内で入力してください。'),
    ).not.toHaveLength(0);
    expect(within(d).getByRole('textbox', { name: /グループ名/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    answer = ok(saved({ name: '東京２' }), 'グループを更新しました');
    const input = within(d).getByRole('textbox', { name: /グループ名/ });
    await userEvent.clear(input);
    await userEvent.type(input, '東京２');
    await userEvent.click(within(d).getByRole('button', { name: '更新' }));
    expect(await screen.findByText('グループを更新しました')).toBeInTheDocument();
    expect(sent(calls, 'PUT').at(-1)?.body).toEqual({
      name: '東京２',
      leader_id: 8,
      store_list: '8,9,10,12,13,14,15',
    });
  });
});

describe('/overview for a group leader', () => {
  beforeEach(resetState);

  it('shows its groups and the stores of its groups by id, and no group buttons', async () => {
    const leader: Partial<User> = { id: 8, role: 1, is_leader: true };
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData(leader)),
      'GET /group-leader/groups': ok([tokyo]),
      'GET /group-leader/stores': ok(page([store(8), store(9), store(10)])),
      'GET /group-leader/groups/3/stores': ok(page([store(8), store(9)])),
    });
    signIn(leader);
    renderAt('/overview');
    await screen.findByTestId('store-row-10');

    expect(screen.getAllByTestId(/^store-row-/)).toHaveLength(3);
    expect(
      calls.find((c) => c.path === '/group-leader/stores')?.url.searchParams.get('order_by'),
    ).toBe('id,asc');
    expect(screen.queryByRole('button', { name: 'グループを作成' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'グループを更新' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'グループ' }));
    await userEvent.click(await screen.findByRole('option', { name: '東京' }));
    await waitFor(() => expect(screen.queryByTestId('store-row-10')).not.toBeInTheDocument());
    expect(screen.getAllByTestId(/^store-row-/)).toHaveLength(2);
  });
});
