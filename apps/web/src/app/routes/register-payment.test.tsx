import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ja as domainJa,
  paymentJa,
  type CreditCard,
  type PaymentMethod,
  type PaymentPlan,
  type PurchaseForm,
  type SelectedPlan,
  type User,
} from '@tenpo/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenRequest, TokenResult } from '../../features/payments/token';
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

const plans: PaymentPlan[] = [
  { key: 1, name: 'スタンダード', price: 6980, amount: 6980 },
  { key: 2, name: 'プレミアム', price: 20000, amount: 20000 },
];
const selected = (over: Partial<SelectedPlan> = {}): SelectedPlan => ({
  ...plans[0]!,
  next_plan: null,
  next_billing_on: null,
  paid_through: null,
  ...over,
});
const cardMethod: PaymentMethod = {
  key: 'credit_card',
  name: 'クレジットカード',
  payment_btn_disable: false,
};
const invoice: PaymentMethod = {
  key: 'agency_invoice',
  name: '代理店請求',
  payment_btn_disable: true,
};
const visa: CreditCard = {
  cc_number: '************1111',
  cc_expiration: '203012',
  cardbrand_code: 'V',
};
const provider = {
  token_script_url: 'http://sandbox.test/sbps/sbpstoken/com_sbps_system_token.js',
  merchant_id: '30132',
  service_id: '103',
};

/** A free-trial user in the trial: the leave alert's own case. */
const trial: Partial<User> = { role: 0, in_trial: true, payment_fail: false };

const api = (
  extra: Record<string, MockReply> = {},
  o: { card?: CreditCard | null; method?: PaymentMethod | null; user?: Partial<User> } = {},
) =>
  mockApi({
    'GET /refresh-token': ok(loginData(o.user ?? trial)),
    'GET /payment/provider': ok(provider),
    'GET /payment-methods': ok([cardMethod, invoice]),
    'GET /payment-plans': ok(plans),
    'GET /payment/selected-payment-method': ok(o.method === undefined ? cardMethod : o.method),
    'GET /payment/selected-payment-plan': ok(selected()),
    'GET /payment/credit-card/reference': ok(o.card === undefined ? null : o.card),
    ...extra,
  });

const section = (name: string) => screen.findByRole('region', { name });
const posts = (calls: MockRequest[], path: string) =>
  calls.filter((c) => c.method === 'POST' && c.path === path);
const openSelect = async (label: string) => {
  await userEvent.click(screen.getByRole('combobox', { name: new RegExp(label) }));
};
const choose = async (label: string, option: string) => {
  await openSelect(label);
  await userEvent.click(await screen.findByRole('option', { name: option }));
};
const L = paymentJa.labels;

/** Fills the card form with a good card (number typed without spaces: the mask adds them). */
const fillCard = async (over: { number?: string; cvv?: string } = {}) => {
  const form = await screen.findByRole('form', { name: 'カードを登録' });
  await userEvent.type(
    within(form).getByRole('textbox', { name: new RegExp(L.cardNumber) }),
    over.number ?? '4111111111111111',
  );
  await userEvent.type(
    within(form).getByRole('textbox', { name: new RegExp(L.cardName) }),
    'TARO TENPO',
  );
  await choose(L.cardYear, `${new Date().getFullYear() + 3}年`);
  await choose(L.cardMonth, '04月');
  await userEvent.type(within(form).getByLabelText(new RegExp(L.cardCvv)), over.cvv ?? '123');
  return form;
};

const tokenizer = (result: TokenResult) => {
  const generateToken = vi.fn((_req: TokenRequest, cb: (r: TokenResult) => void) => cb(result));
  window.com_sbps_system = { generateToken };
  return generateToken;
};

/** Each test starts with no session, no store chosen, and no token script left by the last. */
const resetBetweenTests = () => {
  beforeEach(resetState);
  afterEach(() => {
    delete window.com_sbps_system;
  });
};

describe('/register-payment: the plan and the method', () => {
  resetBetweenTests();

  it('has the four sections, and the plan update sends the plan for the card method', async () => {
    const { calls } = api({
      'POST /payment-plans': (req) => {
        const body = req.body as { payment_plan: number };
        return ok(selected(plans[body.payment_plan - 1]), 'プランを変更しました。');
      },
    });
    signIn(trial);
    renderAt('/register-payment');
    for (const name of ['プラン', '支払い方法', 'クレジットカード', 'お支払い'])
      expect(await section(name)).toBeInTheDocument();
    const plan = await section('プラン');
    expect(await within(plan).findByText('現在のプラン：スタンダード')).toBeInTheDocument();
    // The external help site of spec 1 §1 (HELP_URL; its default here), not a guarded screen.
    expect(
      within(plan).getByRole('link', { name: 'プランについて（マニュアル）' }),
    ).toHaveAttribute('href', 'https://help.tenpo.example/');
    const update = within(plan).getByRole('button', { name: '更新' });
    // The plan already chosen: nothing to update.
    expect(update).toBeDisabled();
    await choose('プラン', 'プレミアム（月額 20,000円）');
    await userEvent.click(update);
    expect(await screen.findByText('プランを変更しました。')).toBeInTheDocument();
    expect(posts(calls, '/payment-plans')[0]?.body).toEqual({
      payment_name: 'credit_card',
      payment_plan: 2,
      user_id: 1,
    });
    expect(await within(plan).findByText('現在のプラン：プレミアム')).toBeInTheDocument();
  });

  it('a change during a paid period says it applies from the next payment', async () => {
    api({
      'POST /payment-plans': ok(
        selected({
          next_plan: plans[1]!,
          next_billing_on: '2026-12-25',
          paid_through: '2026-12-24',
        }),
        'プランを変更しました。',
      ),
    });
    signIn({ role: 1, in_trial: false });
    renderAt('/register-payment');
    const plan = await section('プラン');
    await within(plan).findByText('現在のプラン：スタンダード');
    await choose('プラン', 'プレミアム（月額 20,000円）');
    await userEvent.click(within(plan).getByRole('button', { name: '更新' }));
    expect(await within(plan).findByTestId('next-plan')).toHaveTextContent(
      `プレミアム：${paymentJa.planEffectiveNext('2026/12/25')}`,
    );
  });

  it('the method selector offers an unusable method disabled, and a change is sent and toasted', async () => {
    const { calls } = api(
      {
        'GET /payment-methods': ok([cardMethod, { ...invoice, payment_btn_disable: false }]),
        'POST /payment-methods': ok(invoice, '支払い方法を変更しました。'),
      },
      { user: { role: 11 } },
    );
    signIn(trial);
    renderAt('/register-payment');
    const methods = await section('支払い方法');
    const radio = await within(methods).findByRole('radio', { name: '代理店請求' });
    await userEvent.click(radio);
    await userEvent.click(within(methods).getByRole('button', { name: '変更' }));
    expect(await screen.findByText('支払い方法を変更しました。')).toBeInTheDocument();
    expect(posts(calls, '/payment-methods')[0]?.body).toEqual({
      payment_name: 'agency_invoice',
      user_id: 1,
    });
    // Agency invoice needs no card.
    expect(
      await screen.findByText('代理店請求のため、クレジットカードの登録は不要です。'),
    ).toBeInTheDocument();
  });

  it('a direct customer sees agency invoice disabled', async () => {
    api();
    signIn(trial);
    renderAt('/register-payment');
    const methods = await section('支払い方法');
    expect(
      await within(methods).findByRole('radio', { name: '代理店請求（選択できません）' }),
    ).toBeDisabled();
    expect(within(methods).getByRole('radio', { name: 'クレジットカード' })).toBeChecked();
  });
});

describe('/register-payment: the card form and its token', () => {
  resetBetweenTests();

  it('the card form: required fields, 16 digits, CVV of 3–4 digits; nothing is sent', async () => {
    const generateToken = tokenizer({ result: 'NG', errorCode: '99999' });
    const { calls } = api();
    signIn(trial);
    renderAt('/register-payment');
    const form = await screen.findByRole('form', { name: 'カードを登録' });
    await userEvent.click(within(form).getByRole('button', { name: 'カードを登録' }));
    for (const label of [L.cardNumber, L.cardName, L.cardYear, L.cardMonth, L.cardCvv])
      expect(await within(form).findByText(domainJa.required(label))).toBeInTheDocument();
    const number = within(form).getByRole('textbox', { name: new RegExp(L.cardNumber) });
    // The mask groups by four and stops at 16 digits.
    await userEvent.type(number, '41111111111111119999');
    expect(number).toHaveValue('4111 1111 1111 1111');
    await userEvent.clear(number);
    await userEvent.type(number, '4111-1111-1111');
    expect(number).toHaveValue('4111 1111 1111');
    await userEvent.type(within(form).getByLabelText(new RegExp(L.cardCvv)), '12');
    await userEvent.click(within(form).getByRole('button', { name: 'カードを登録' }));
    expect(await within(form).findByText(paymentJa.cardNumberDigits)).toBeInTheDocument();
    expect(within(form).getByText(paymentJa.cvvDigits)).toBeInTheDocument();
    expect(generateToken).not.toHaveBeenCalled();
    expect(posts(calls, '/payment/credit-card/authenticate')).toHaveLength(0);
  });

  it('offers 48 years from this year and the months 01–12', async () => {
    api();
    signIn(trial);
    renderAt('/register-payment');
    await screen.findByRole('form', { name: 'カードを登録' });
    await openSelect(L.cardYear);
    const years = await screen.findAllByRole('option');
    const y = new Date().getFullYear();
    expect(years).toHaveLength(48);
    expect(years[0]).toHaveTextContent(`${y}年`);
    expect(years[47]).toHaveTextContent(`${y + 47}年`);
    await userEvent.keyboard('{Escape}');
    await openSelect(L.cardMonth);
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(
        Array.from({ length: 12 }, (_, i) => `${String(i + 1).padStart(2, '0')}月`),
      ),
    );
  });

  it('a card goes to the token script; Tenpo gets the token pair, never the number', async () => {
    const generateToken = tokenizer({
      result: 'OK',
      tokenResponse: { token: 'tok-1', tokenKey: 'key-1', maskedCcNumber: '************1111' },
    });
    let card: CreditCard | null = null;
    const { calls } = api({
      'GET /payment/credit-card/reference': () => ok(card),
      'POST /payment/credit-card/authenticate': () => {
        card = visa;
        return ok(
          { status: 'registered', card: visa, redirect_url: null },
          'カードを登録しました。',
        );
      },
      'GET /account-setting/information': ok(loginData(trial).user),
    });
    signIn(trial);
    renderAt('/register-payment');
    const form = await fillCard();
    await userEvent.click(within(form).getByRole('button', { name: 'カードを登録' }));
    expect(await screen.findByText('カードを登録しました。')).toBeInTheDocument();
    expect(generateToken.mock.calls[0]?.[0]).toEqual({
      merchantId: '30132',
      serviceId: '103',
      ccNumber: '4111111111111111',
      ccExpiration: `${new Date().getFullYear() + 3}04`,
      securityCode: '123',
    });
    const sent = posts(calls, '/payment/credit-card/authenticate');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({
      token: 'tok-1',
      tokenKey: 'key-1',
      user_id: 1,
      return_path: '/register-payment',
    });
    expect(calls.some((c) => JSON.stringify(c.body ?? '').includes('4111'))).toBe(false);
    expect(calls.some((c) => c.url.search.includes('4111'))).toBe(false);
    // The registered card replaces the form, and the payment state is read again.
    const shown = await screen.findByRole('region', { name: '登録済みのカード' });
    expect(within(shown).getByText('VISA')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/account-setting/information')).toBe(true),
    );
    expect(screen.queryByRole('form', { name: 'カードを登録' })).toBeNull();
  });

  it('a token NG on the card is "card invalid", any other NG "token failed"; nothing is registered', async () => {
    tokenizer({ result: 'NG', errorCode: '07003' });
    const { calls } = api();
    signIn(trial);
    renderAt('/register-payment');
    const form = await fillCard();
    await userEvent.click(within(form).getByRole('button', { name: 'カードを登録' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(paymentJa.cardInvalid);
    tokenizer({ result: 'NG', errorCode: '99999' });
    await userEvent.click(within(form).getByRole('button', { name: 'カードを登録' }));
    expect(await within(form).findByText(paymentJa.tokenFailed)).toBeInTheDocument();
    expect(posts(calls, '/payment/credit-card/authenticate')).toHaveLength(0);
  });
});

describe('/register-payment: registering and removing a card', () => {
  resetBetweenTests();

  it('register failures: 422 shows its messages, 404 the card-registration error, others a dialog', async () => {
    tokenizer({ result: 'OK', tokenResponse: { token: 't', tokenKey: 'k' } });
    let reply: MockReply = fail(422, { card: [paymentJa.cardInvalid] });
    api({
      'POST /payment/credit-card/authenticate': (req) =>
        typeof reply === 'function' ? reply(req) : reply,
    });
    signIn(trial);
    renderAt('/register-payment');
    const form = await fillCard();
    const submit = within(form).getByRole('button', { name: 'カードを登録' });
    await userEvent.click(submit);
    expect(await within(form).findByText(paymentJa.cardInvalid)).toBeInTheDocument();
    reply = fail(404, { user_id: ['not found'] });
    await userEvent.click(submit);
    expect(await within(form).findByText(paymentJa.cardRegisterFailed)).toBeInTheDocument();
    reply = fail(503, { provider: [paymentJa.providerDown] });
    await userEvent.click(submit);
    const dialog = await screen.findByRole('dialog', { name: 'エラー' });
    expect(within(dialog).getByText(paymentJa.providerDown)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'OK' })).toBeInTheDocument();
  });

  it('shows the registered card, and removes it only after the confirm', async () => {
    const { calls } = api(
      { 'GET /payment/credit-card/remove': ok(null, 'カードを削除しました。') },
      { card: visa, user: { role: 1, in_trial: false } },
    );
    signIn({ role: 1, in_trial: false });
    renderAt('/register-payment');
    const card = await screen.findByRole('region', { name: '登録済みのカード' });
    expect(within(card).getByText('VISA')).toBeInTheDocument();
    expect(within(card).getByText('************1111')).toBeInTheDocument();
    expect(within(card).getByText('有効期限 12/2030')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: '削除' }));
    let dialog = await screen.findByRole('dialog', { name: 'カードの削除' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.path === '/payment/credit-card/remove')).toBe(false);
    await userEvent.click(within(card).getByRole('button', { name: '削除' }));
    dialog = await screen.findByRole('dialog', { name: 'カードの削除' });
    await userEvent.click(within(dialog).getByRole('button', { name: '削除' }));
    expect(await screen.findByText('カードを削除しました。')).toBeInTheDocument();
    const removed = calls.filter((c) => c.path === '/payment/credit-card/remove');
    expect(removed).toHaveLength(1);
    expect(removed[0]?.url.searchParams.get('user_id')).toBe('1');
    expect(await screen.findByRole('form', { name: 'カードを登録' })).toBeInTheDocument();
  });

  it('a card in use is not removed: the refusal stays in the dialog', async () => {
    api(
      { 'GET /payment/credit-card/remove': fail(422, { card: [paymentJa.cardInUse] }) },
      { card: visa, user: { role: 1, in_trial: false } },
    );
    signIn({ role: 1, in_trial: false });
    renderAt('/register-payment');
    const card = await screen.findByRole('region', { name: '登録済みのカード' });
    await userEvent.click(within(card).getByRole('button', { name: '削除' }));
    const dialog = await screen.findByRole('dialog', { name: 'カードの削除' });
    await userEvent.click(within(dialog).getByRole('button', { name: '削除' }));
    expect(await within(dialog).findByText(paymentJa.cardInUse)).toBeInTheDocument();
  });
});

describe('/register-payment: paying', () => {
  resetBetweenTests();

  it('支払う posts the signed purchase form to the provider, Shift_JIS, fields in order', async () => {
    const purchase: PurchaseForm = {
      action: 'http://sandbox.test/sbps/f01/FepBuyInfoReceive.do',
      fields: [
        { name: 'pay_method', value: 'credit' },
        { name: 'merchant_id', value: '30132' },
        { name: 'service_id', value: '103' },
        { name: 'cust_code', value: 'tenpo-1' },
        { name: 'order_id', value: 'a'.repeat(32) },
        { name: 'amount', value: '6980' },
        { name: 'sps_hashcode', value: 'f'.repeat(40) },
      ],
      order_id: 'a'.repeat(32),
      amount: 6980,
    };
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    const { calls } = api({ 'POST /payment/purchase': ok(purchase) }, { card: visa });
    signIn({ role: 0, in_trial: false });
    renderAt('/register-payment');
    const pay = await section('お支払い');
    expect(await within(pay).findByTestId('amount')).toHaveTextContent(
      'スタンダード 6,980円（税込）',
    );
    await userEvent.click(within(pay).getByRole('button', { name: '支払う' }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(posts(calls, '/payment/purchase')[0]?.body).toEqual({ user_id: 1 });
    const form = submit.mock.contexts[0] as HTMLFormElement;
    expect(form.getAttribute('action')).toBe(purchase.action);
    expect(form.method).toBe('post');
    expect(form.acceptCharset).toBe('Shift_JIS');
    const inputs = [...form.querySelectorAll('input')];
    expect(inputs.map((i) => [i.type, i.name, i.value])).toEqual(
      purchase.fields.map((f) => ['hidden', f.name, f.value]),
    );
    submit.mockRestore();
    form.remove();
    // The browser comes back (back button): the page's leave alert is its own again.
    window.dispatchEvent(new Event('pageshow'));
  });

  it('a paying shop has nothing to pay', async () => {
    api({}, { card: visa, user: { role: 1, in_trial: false } });
    signIn({ role: 1, in_trial: false });
    renderAt('/register-payment');
    const pay = await section('お支払い');
    expect(within(pay).getByText('現在お支払いが必要な請求はありません。')).toBeInTheDocument();
    expect(within(pay).queryByRole('button', { name: '支払う' })).toBeNull();
  });

  it('a refused purchase (422) shows its message and stays', async () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    api({ 'POST /payment/purchase': fail(422, { user_id: [paymentJa.alreadyPaid] }) });
    signIn({ role: 1, in_trial: false, payment_fail: true });
    renderAt('/register-payment');
    const pay = await section('お支払い');
    await userEvent.click(await within(pay).findByRole('button', { name: '支払う' }));
    expect(await within(pay).findByText(paymentJa.alreadyPaid)).toBeInTheDocument();
    expect(submit).not.toHaveBeenCalled();
    submit.mockRestore();
  });

  it('stt_id=12999 shows the success dialog, reloads the payment state, and closing drops stt_id', async () => {
    const { calls } = api({
      'GET /account-setting/information': ok(loginData({ role: 1, in_trial: false }).user),
    });
    signIn({ role: 0, in_trial: false });
    const { router } = renderAt('/register-payment?stt_id=12999');
    const dialog = await screen.findByRole('dialog', { name: paymentJa.paymentSuccessTitle });
    expect(within(dialog).getByText(paymentJa.paymentSuccess)).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/account-setting/information')).toBe(true),
    );
    // The user is a paying shop now: nothing left to pay.
    expect(await screen.findByText('現在お支払いが必要な請求はありません。')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/register-payment');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('stt_id=18999 shows the failure dialog', async () => {
    const { calls } = api();
    signIn({ role: 0, in_trial: false });
    const { router } = renderAt('/register-payment?stt_id=18999');
    const dialog = await screen.findByRole('dialog', { name: paymentJa.paymentFailedTitle });
    expect(within(dialog).getByText(paymentJa.paymentFailed)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(calls.some((c) => c.path === '/account-setting/information')).toBe(false);
  });
});

describe('/register-payment leave alert (spec 1 §2)', () => {
  beforeEach(resetState);

  const leaveTo = async (router: ReturnType<typeof renderAt>['router'], path: string) => {
    await act(() => router.navigate(path));
  };
  const beforeUnloadBlocked = () => {
    const e = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(e);
    return e.defaultPrevented;
  };

  it('asks when the card method is chosen, no card, no failure, in the trial: stay, then leave', async () => {
    const { calls } = api();
    signIn(trial);
    const { router } = renderAt('/register-payment');
    await screen.findByRole('form', { name: 'カードを登録' });
    await waitFor(() => expect(beforeUnloadBlocked()).toBe(true));
    await leaveTo(router, '/change-password');
    let dialog = await screen.findByRole('dialog', { name: 'ページを離れますか？' });
    expect(within(dialog).getByText(paymentJa.leaveAlert)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'このページに留まる' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/register-payment');
    await leaveTo(router, '/change-password');
    dialog = await screen.findByRole('dialog', { name: 'ページを離れますか？' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'ページを離れる' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/change-password'));
    await waitFor(() => expect(calls.some((c) => c.path === '/refresh-token')).toBe(true));
    expect(beforeUnloadBlocked()).toBe(false);
  });

  const cases: [string, Parameters<typeof api>[1]][] = [
    ['a card is registered', { card: visa }],
    ['the method is agency invoice', { method: invoice }],
    ['the payment failed', { user: { ...trial, payment_fail: true } }],
    ['the trial is over', { user: { role: 0, in_trial: false } }],
  ];
  it.each(cases)('does not ask when %s', async (_name, o) => {
    const { calls } = api({}, o);
    signIn(o?.user ?? trial);
    const { router } = renderAt('/register-payment');
    await screen.findByRole('region', { name: 'クレジットカード' }).catch(() => null);
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/payment/credit-card/reference')).toBe(true),
    );
    await screen.findByText(/現在のプラン/);
    expect(beforeUnloadBlocked()).toBe(false);
    await leaveTo(router, '/change-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/change-password'));
    expect(screen.queryByRole('dialog', { name: 'ページを離れますか？' })).toBeNull();
    await waitFor(() => expect(calls.some((c) => c.path === '/refresh-token')).toBe(true));
  });
});
