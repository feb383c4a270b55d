import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  paymentJa,
  type CreditCard,
  type PaymentMethod,
  type StoreRow,
  type User,
} from '@tenpo/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syncSelection } from '../../lib/selection';
import type { TokenRequest, TokenResult } from '../../features/payments/token';
import {
  loginData,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockRequest,
} from '../../test/render';

const cardMethod: PaymentMethod = {
  key: 'credit_card',
  name: 'クレジットカード',
  payment_btn_disable: false,
};
const invoice: PaymentMethod = {
  key: 'agency_invoice',
  name: '代理店請求',
  payment_btn_disable: false,
};
const visa: CreditCard = {
  cc_number: '************1111',
  cc_expiration: '203012',
  cardbrand_code: 'V',
};
const jcb: CreditCard = {
  cc_number: '************0000',
  cc_expiration: '203104',
  cardbrand_code: 'J',
};
const provider = {
  token_script_url: 'http://sandbox.test/sbps/sbpstoken/com_sbps_system_token.js',
  merchant_id: '30132',
  service_id: '103',
};

const store = (id: number, over: Partial<StoreRow> = {}): StoreRow => ({
  id,
  name: `店舗${id}`,
  status: 1,
  role: 1,
  in_trial: false,
  agency_logo: null,
  agent_code: '0000',
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
  per_page: 100,
  from: rows.length ? 1 : null,
  to: rows.length || null,
});
const agencyUser: Partial<User> = {
  id: 6,
  role: 11,
  email: 'agency@tenpo.example',
  agent_code: '1001',
};

const L = paymentJa.labels;
const posts = (calls: MockRequest[], path: string) =>
  calls.filter((c) => c.method === 'POST' && c.path === path);
const choose = async (label: string, option: string) => {
  await userEvent.click(screen.getByRole('combobox', { name: new RegExp(label) }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
};

describe('/change-payment-method', () => {
  beforeEach(resetState);
  afterEach(() => {
    delete window.com_sbps_system;
  });

  it('a store whose payment failed replaces its card: the selected store is the one acting', async () => {
    // Store 11 of the agency: its charge failed; the new card clears that (the API retries).
    let failed = true;
    let card: CreditCard = visa;
    const generateToken = vi.fn((_r: TokenRequest, cb: (r: TokenResult) => void) =>
      cb({ result: 'OK', tokenResponse: { token: 'tok-9', tokenKey: 'key-9' } }),
    );
    window.com_sbps_system = { generateToken };
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData(agencyUser)),
      'GET /agency/stores': () => ok(page([store(11, { payment_fail: failed })])),
      'GET /payment/provider': ok(provider),
      'GET /payment-methods': ok([cardMethod, invoice]),
      'GET /payment/selected-payment-method': ok(cardMethod),
      'GET /payment/credit-card/reference': () => ok(card),
      'POST /payment/credit-card/authenticate': () => {
        failed = false;
        card = jcb;
        return ok(
          { status: 'registered', card: jcb, redirect_url: null },
          'カードを登録しました。',
        );
      },
    });
    signIn(agencyUser);
    localStorage.setItem('userIds', '11');
    syncSelection();
    renderAt('/change-payment-method');
    const current = await screen.findByRole('region', { name: '登録済みのカード' });
    expect(within(current).getByText('VISA')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '支払い方法' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'お支払い設定に戻る' })).toHaveAttribute(
      'href',
      '/register-payment',
    );
    const form = screen.getByRole('form', { name: 'カードを更新' });
    await userEvent.type(
      within(form).getByRole('textbox', { name: new RegExp(L.cardNumber) }),
      '3530111333300000',
    );
    await userEvent.type(
      within(form).getByRole('textbox', { name: new RegExp(L.cardName) }),
      'HANAKO',
    );
    await choose(L.cardYear, `${new Date().getFullYear() + 5}年`);
    await choose(L.cardMonth, '04月');
    await userEvent.type(within(form).getByLabelText(new RegExp(L.cardCvv)), '1234');
    await userEvent.click(within(form).getByRole('button', { name: 'カードを更新' }));
    expect(await screen.findByText('カードを登録しました。')).toBeInTheDocument();
    expect(posts(calls, '/payment/credit-card/authenticate')[0]?.body).toEqual({
      token: 'tok-9',
      tokenKey: 'key-9',
      user_id: 11,
      return_path: '/change-payment-method',
    });
    expect(generateToken.mock.calls[0]?.[0]).toMatchObject({
      ccNumber: '3530111333300000',
      securityCode: '1234',
    });
    expect(await within(current).findByText('JCB')).toBeInTheDocument();
    // Every read named store 11, none the agency itself.
    for (const c of calls.filter((c) => c.path.startsWith('/payment')))
      if (c.method === 'GET') expect(c.url.searchParams.get('user_id')).toBe('11');
    // The store list is read again, so the store's panels follow its cleared failure.
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/agency/stores').length).toBeGreaterThan(1),
    );
    expect(calls.some((c) => c.path === '/account-setting/information')).toBe(false);
  });

  it('changes the method for the store', async () => {
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData({ role: 1 })),
      'GET /payment-methods': ok([cardMethod, invoice]),
      'GET /payment/selected-payment-method': ok(cardMethod),
      'GET /payment/credit-card/reference': ok(null),
      'GET /payment/provider': ok(provider),
      'POST /payment-methods': ok(invoice, '支払い方法を変更しました。'),
    });
    signIn({ role: 1 });
    renderAt('/change-payment-method');
    expect(await screen.findByText('カードは登録されていません。')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('radio', { name: '代理店請求' }));
    await userEvent.click(screen.getByRole('button', { name: '変更' }));
    expect(await screen.findByText('支払い方法を変更しました。')).toBeInTheDocument();
    expect(posts(calls, '/payment-methods')[0]?.body).toEqual({
      payment_name: 'agency_invoice',
      user_id: 1,
    });
  });
});

describe('/register-payment for an agency’s selected store', () => {
  beforeEach(resetState);

  it('after the success return the store’s row is read again: nothing left to pay (an agency cannot pick a store whose trial ended, spec 1 §2, so a failed charge it is)', async () => {
    let paid = false;
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData(agencyUser)),
      'GET /agency/stores': () => ok(page([store(11, { payment_fail: !paid })])),
      'GET /payment/provider': ok(provider),
      'GET /payment-methods': ok([cardMethod, invoice]),
      'GET /payment-plans': ok([{ key: 1, name: 'スタンダード', price: 6980, amount: 6980 }]),
      'GET /payment/selected-payment-method': ok(cardMethod),
      'GET /payment/selected-payment-plan': ok({
        key: 1,
        name: 'スタンダード',
        price: 6980,
        amount: 6980,
        next_plan: null,
        next_billing_on: null,
        paid_through: null,
      }),
      'GET /payment/credit-card/reference': ok(visa),
    });
    signIn(agencyUser);
    localStorage.setItem('userIds', '11');
    syncSelection();
    // Before the return: the store's last charge failed, 支払う settles it.
    const first = renderAt('/register-payment');
    expect(await screen.findByRole('button', { name: '支払う' })).toBeInTheDocument();
    first.unmount();
    paid = true;
    renderAt('/register-payment?stt_id=12999');
    expect(
      await screen.findByRole('dialog', { name: paymentJa.paymentSuccessTitle }),
    ).toBeInTheDocument();
    expect(await screen.findByText('現在お支払いが必要な請求はありません。')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '支払う' })).toBeNull();
    for (const c of calls.filter((c) => c.path.startsWith('/payment')))
      expect(c.url.searchParams.get('user_id')).toBe('11');
  });
});
