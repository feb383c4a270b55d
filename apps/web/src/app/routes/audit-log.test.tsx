import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditRow, StoreRow } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { loginData, mockApi, ok, renderAt, resetState, signIn } from '../../test/render';

const row = (id: number, over: Partial<AuditRow> = {}): AuditRow => ({
  id,
  at: '2026-11-26T01:02:03.000Z',
  actor: { id: 1, email: 'shop@tenpo.example', role: 1 },
  store: { id: 1, name: '青木ベーカリー 恵比寿店' },
  entity: 'store',
  entity_id: '1',
  action: 'update',
  summary: '連絡先・ウェブサイトを変更',
  before: { 'website_url.url': 'https://old.example/', mystery_key: 1 },
  after: { 'website_url.url': 'https://new.example/', mystery_key: 2 },
  ...over,
});
const list = (rows: AuditRow[], total = rows.length, page = 1) =>
  ok({
    data: rows,
    meta: { current_page: page, last_page: Math.ceil(total / 20) || 1, per_page: 20, total },
  });

describe('/audit-log for a shop', () => {
  beforeEach(resetState);

  it('lists the changes in Tokyo time and shows a row’s values before → after', async () => {
    mockApi({
      'GET /refresh-token': ok(loginData()),
      'GET /audit-log': list([
        row(2),
        row(1, {
          actor: null,
          entity: 'connection',
          action: 'update',
          summary: 'Google の接続がエラーになりました',
          before: { status: 1 },
          after: { status: 4 },
        }),
      ]),
    });
    signIn();
    renderAt('/audit-log');
    expect(await screen.findByRole('heading', { name: '変更履歴' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: '変更履歴' });
    // 01:02:03 UTC is 10:02:03 in Tokyo.
    expect(within(table).getAllByText('2026/11/26 10:02:03')).toHaveLength(2);
    expect(within(table).getByText('shop@tenpo.example')).toBeInTheDocument();
    expect(within(table).getByText('システム')).toBeInTheDocument();
    expect(within(table).getByText('店舗・変更')).toBeInTheDocument();
    expect(within(table).getByText('連携・変更')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: '店舗' })).not.toBeInTheDocument();

    const [first] = within(table).getAllByRole('button', { name: /の変更の詳細/ });
    await userEvent.click(first as HTMLElement);
    const changes = await screen.findByRole('table', { name: '変更内容' });
    const lines = within(changes)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(lines).toContain('ウェブサイトhttps://old.example/→https://new.example/');
    expect(lines).toContain('mystery_key1→2');
    expect(first).toHaveAttribute('aria-expanded', 'true');
  });

  it('asks again with the filters chosen, and says when nothing matches', async () => {
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData()),
      'GET /audit-log': (req) =>
        req.url.searchParams.get('entity') === 'post' ? list([]) : list([row(1)]),
    });
    signIn();
    renderAt('/audit-log');
    await screen.findByRole('table', { name: '変更履歴' });
    await userEvent.click(screen.getByRole('combobox', { name: '対象' }));
    await userEvent.click(await screen.findByRole('option', { name: '投稿' }));
    expect(await screen.findByText('該当する変更履歴はありません。')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('開始日'), '2026-11-01');
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/audit-log').at(-1);
      expect(last?.url.searchParams.get('entity')).toBe('post');
      expect(last?.url.searchParams.get('from')).toBe('2026-11-01');
      expect(last?.url.searchParams.get('page')).toBe('1');
    });
  });
});

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

describe('/audit-log for an agency', () => {
  beforeEach(resetState);

  it('chooses among its stores; reached from the account menu, no store needs choosing first', async () => {
    const agency = { id: 6, role: 11, email: 'agency@tenpo.example', agent_code: '1001' };
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData(agency, false)),
      'GET /agency/stores': ok({
        data: [store(8), store(9)],
        current_page: 1,
        last_page: 1,
        total: 2,
        per_page: 100,
        from: 1,
        to: 2,
      }),
      'GET /agency/groups': ok([]),
      'GET /audit-log': list([row(1, { store: { id: 9, name: '店舗9' } })]),
    });
    signIn(agency, false);
    const { router } = renderAt('/overview');
    await userEvent.click(await screen.findByRole('button', { name: 'アカウントメニュー' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: '変更履歴' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/audit-log'));
    await screen.findByRole('table', { name: '変更履歴' });
    await userEvent.click(screen.getByRole('combobox', { name: '店舗' }));
    await userEvent.click(await screen.findByRole('option', { name: '店舗9' }));
    await waitFor(() =>
      expect(
        calls
          .filter((c) => c.path === '/audit-log')
          .at(-1)
          ?.url.searchParams.get('store_id'),
      ).toBe('9'),
    );
  });
});
