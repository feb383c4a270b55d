import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminAgency, AdminStoreRow, User } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, loginData, mockApi, ok, renderAt, resetState, signIn } from '../../test/render';

const manager: Partial<User> = {
  id: 20,
  role: 99,
  email: 'manager@tenpo.example',
  agent_code: null,
};

const customer = (id: number, over: Partial<AdminStoreRow> = {}): AdminStoreRow => ({
  id,
  name: `顧客${id}`,
  status: 1,
  role: 1,
  in_trial: false,
  agency_logo: null,
  agent_code: '0000',
  company_name: `会社${id}`,
  person_in_charge: '担当',
  email: `c${id}@tenpo.example`,
  google_status: 1,
  payment_fail: false,
  store_name: `顧客${id}`,
  phone: null,
  logo_url: null,
  agency_id: null,
  agency_name: null,
  app_name: null,
  payment_method: 'credit_card',
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

/** Types a value at once (userEvent.type, key by key, is slow on a busy machine). */
const fill = async (el: HTMLElement, value: string) => {
  await userEvent.click(el);
  await userEvent.paste(value);
};

const list = <T,>(data: T[], meta = {}) => ({
  data,
  meta: { current_page: 1, last_page: 1, per_page: 10, total: data.length, ...meta },
});

const managerApi = (extra = {}) =>
  mockApi({
    'GET /refresh-token': ok(loginData(manager, false)),
    'GET /admin/customers': ok(list([customer(1), customer(2, { status: 0, google_status: 0 })])),
    'GET /admin/agencies': ok(list([agency])),
    ...extra,
  });

describe('the manager overview (spec 3 §2)', () => {
  beforeEach(resetState);

  it('lists customers, then agencies, with payment method, status, Google status and app name', async () => {
    const { calls } = managerApi();
    signIn(manager, false);
    renderAt('/overview');
    expect(await screen.findByRole('heading', { name: '運営管理' })).toBeInTheDocument();
    const row = await screen.findByTestId('customer-row-1');
    for (const text of ['顧客1', 'クレジットカード', 'Tenpo（標準）', '連携済み', '有効'])
      expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(screen.getByTestId('customer-row-2')).getByText('無効')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/admin/customers')?.url.searchParams.get('per_page')).toBe(
      '10',
    );

    await userEvent.click(screen.getByRole('tab', { name: '代理店' }));
    const a = await screen.findByTestId('agency-row-6');
    for (const text of ['デモエージェンシー 店舗管理', 'demo', '代理店請求', '9 / 12 店舗'])
      expect(within(a).getByText(text)).toBeInTheDocument();
  });

  it('searching asks the server again from page 1', async () => {
    const { calls } = managerApi();
    signIn(manager, false);
    renderAt('/overview');
    await screen.findByTestId('customer-row-1');
    await userEvent.type(screen.getByRole('textbox', { name: '検索' }), 'はな');
    await waitFor(() =>
      expect(calls.some((c) => c.url.searchParams.get('search') === 'はな')).toBe(true),
    );
    const last = calls.filter((c) => c.path === '/admin/customers').at(-1);
    expect(last?.url.searchParams.get('page')).toBe('1');
  });

  it('creating an agency shows the server’s field errors under their fields', async () => {
    const { calls } = managerApi({
      'POST /admin/agencies': fail(422, {
        prefix: ['このサブドメインはすでに他の代理店が使っています。'],
      }),
    });
    signIn(manager, false);
    renderAt('/overview');
    await userEvent.click(await screen.findByRole('tab', { name: '代理店' }));
    await userEvent.click(await screen.findByRole('button', { name: '代理店を追加' }));
    const form = await screen.findByRole('form', { name: '代理店を追加' });
    // The domain's schema judges the form first: nothing is sent while it is wrong.
    await userEvent.click(within(form).getByRole('button', { name: '保存' }));
    expect(await within(form).findByText('会社名 を入力してください。')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await fill(within(form).getByLabelText(/^会社名/), 'ACME');
    await fill(within(form).getByLabelText(/^担当者名/), '山田 太郎');
    await fill(within(form).getByLabelText(/^メールアドレス/), 'owner@acme.example');
    await fill(within(form).getByLabelText(/^パスワード/, { selector: 'input' }), 'acme-pass-123');
    await fill(within(form).getByLabelText(/^サブドメイン/), 'demo');
    await fill(within(form).getByLabelText(/^アプリ名/), 'ACME 店舗ナビ');
    await userEvent.click(within(form).getByRole('button', { name: '保存' }));
    const prefix = within(form).getByLabelText(/^サブドメイン/);
    // Under the field (its wrapper), not only in the alert above the form.
    await waitFor(() =>
      expect(prefix.closest('.mantine-InputWrapper-root')).toHaveTextContent(
        'このサブドメインはすでに他の代理店が使っています。',
      ),
    );
    expect(prefix).toHaveAttribute('aria-invalid', 'true');
    const sent = calls.find((c) => c.method === 'POST' && c.path === '/admin/agencies');
    expect(sent?.body).toBeInstanceOf(FormData);
    const fd = sent?.body as FormData;
    expect([fd.get('prefix'), fd.get('title'), fd.get('status')]).toEqual([
      'demo',
      'ACME 店舗ナビ',
      '1',
    ]);
  }, 30_000);

  it('deleting a customer asks first, then deletes and reloads the list', async () => {
    const { calls } = managerApi({
      'DELETE /admin/customers/2': ok({ id: 2, detached_stores: 0 }, '顧客を削除しました。'),
    });
    signIn(manager, false);
    renderAt('/overview');
    const row = await screen.findByTestId('customer-row-2');
    await userEvent.click(within(row).getByRole('button', { name: '顧客2 削除' }));
    const dialog = await screen.findByRole('dialog', { name: '顧客の削除' });
    expect(dialog).toHaveTextContent('顧客「顧客2」を削除しますか？');
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(within(row).getByRole('button', { name: '顧客2 削除' }));
    const again = await screen.findByRole('dialog', { name: '顧客の削除' });
    const before = calls.filter((c) => c.path === '/admin/customers').length;
    await userEvent.click(within(again).getByRole('button', { name: '削除する' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(await screen.findByText('顧客を削除しました。')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/admin/customers').length).toBeGreaterThan(before),
    );
  });

  it('an agency’s stores open at /overview/agencies/{id}, each with its dashboard button', async () => {
    const { calls } = managerApi({
      'GET /admin/agencies/6': ok(agency),
      'GET /admin/groups': ok(list([])),
      'GET /admin/stores': ok(
        list([customer(8, { agency_id: 6, name: '店舗8' })], { per_page: 5 }),
      ),
    });
    signIn(manager, false);
    const { router } = renderAt('/overview');
    await userEvent.click(await screen.findByRole('tab', { name: '代理店' }));
    const a = await screen.findByTestId('agency-row-6');
    await userEvent.click(within(a).getByRole('button', { name: /店舗一覧/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/overview/agencies/6'));
    expect(
      await screen.findByRole('heading', {
        name: '代理店「株式会社デモエージェンシー」の店舗一覧',
      }),
    ).toBeInTheDocument();
    const row = await screen.findByTestId('store-row-8');
    expect(calls.find((c) => c.path === '/admin/stores')?.url.searchParams.get('agency_id')).toBe(
      '6',
    );
    await userEvent.click(within(row).getByRole('button', { name: /ダッシュボード/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('userIds')).toBe('8');
  });
});
