import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { paymentJa, type CreditCard, type User } from '@tenpo/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, loginData, mockApi, ok, renderAt, resetState, signIn } from '../../test/render';
import type { TokenRequest, TokenResult } from '../../features/payments/token';
import type * as Purchase from '../../features/payments/purchase';
import { cardScreenOf, leaveToIssuer, takeTdsReturn } from '../../features/payments/purchase';

const leave = vi.hoisted(() => vi.fn());
vi.mock('../../features/payments/purchase', async (actual) => ({
  ...(await actual<typeof Purchase>()),
  leaveToIssuer: (url: string, loc?: Pick<Location, 'assign'>) =>
    loc ? loc.assign(url) : leave(url),
}));

/** EMV 3-D Secure on the card screen (ADR 0059). */
const shop: Partial<User> = { id: 1, role: 1, email: 'shop@tenpo.example' };
const visa: CreditCard = {
  cc_number: '************3220',
  cc_expiration: '203012',
  cardbrand_code: 'V',
};
const provider = {
  token_script_url: 'http://sandbox.test/sbps/sbpstoken/com_sbps_system_token.js',
  merchant_id: '30132',
  service_id: '103',
};
const FAILED =
  'カード会社による本人認証（3Dセキュア）に失敗しました。カードは登録されていません。別のカードをお試しいただくか、カード会社にお問い合わせください。';

const base = (card: () => CreditCard | null) => ({
  'GET /refresh-token': ok(loginData(shop)),
  'GET /payment/provider': ok(provider),
  'GET /payment-methods': ok([]),
  'GET /payment/selected-payment-method': ok(null),
  'GET /payment/credit-card/reference': () => ok(card()),
  'GET /account-setting/information': ok(loginData(shop).user),
});

describe('3-D Secure on the card screen', () => {
  beforeEach(resetState);
  afterEach(() => {
    delete window.com_sbps_system;
    window.history.replaceState(null, '', '/');
  });

  it('takes the issuer return off the address, and names the card screen to come back to', () => {
    window.history.replaceState(null, '', '/change-payment-method?tds=abc&tracking_id=t1&x=1');
    expect(takeTdsReturn()).toEqual({ state: 'abc', trackingId: 't1' });
    expect(window.location.search).toBe('?x=1');
    expect(takeTdsReturn()).toBeNull();
    expect(cardScreenOf('/register-payment')).toBe('/register-payment');
    expect(cardScreenOf('/elsewhere')).toBe('/change-payment-method');
    const assign = vi.fn();
    leaveToIssuer('http://acs.test/1', { assign });
    expect(assign).toHaveBeenCalledWith('http://acs.test/1');
  });

  it('sends the browser to the issuer when asked, stores nothing meanwhile', async () => {
    window.com_sbps_system = {
      generateToken: (_r: TokenRequest, cb: (r: TokenResult) => void) =>
        cb({ result: 'OK', tokenResponse: { token: 'tok', tokenKey: 'key' } }),
    };
    mockApi({
      ...base(() => null),
      'POST /payment/credit-card/authenticate': ok({
        status: 'challenge',
        card: null,
        redirect_url: 'http://sandbox.test/sbps/tds2/acs/1',
      }),
    });
    signIn(shop);
    renderAt('/change-payment-method');
    const form = await screen.findByRole('form', { name: 'カードを更新' });
    const L = paymentJa.labels;
    await userEvent.type(within(form).getByLabelText(new RegExp(L.cardNumber)), '4000000000003220');
    await userEvent.type(within(form).getByLabelText(new RegExp(L.cardName)), 'TARO TENPO');
    await userEvent.click(within(form).getByRole('combobox', { name: new RegExp(L.cardYear) }));
    await userEvent.click((await screen.findAllByRole('option'))[5] as HTMLElement);
    await userEvent.click(within(form).getByRole('combobox', { name: new RegExp(L.cardMonth) }));
    await userEvent.click(await screen.findByRole('option', { name: paymentJa.monthLabel('12') }));
    await userEvent.type(within(form).getByLabelText(new RegExp(L.cardCvv)), '123');
    await userEvent.click(within(form).getByRole('button', { name: 'カードを更新' }));
    await waitFor(() => expect(leave).toHaveBeenCalledWith('http://sandbox.test/sbps/tds2/acs/1'));
    expect(screen.queryByText('カードを登録しました。')).toBeNull();
  });

  it('back from the issuer: Tenpo checks with SBPS; the card shows, or the failure in Japanese', async () => {
    let card: CreditCard | null = null;
    const { calls } = mockApi({
      ...base(() => card),
      'POST /payment/credit-card/authenticate/complete': () => {
        card = visa;
        return ok(
          { status: 'registered', card: visa, redirect_url: null },
          'カードを登録しました。',
        );
      },
    });
    window.history.replaceState(null, '', '/change-payment-method?tds=sealed&tracking_id=tr-1');
    signIn(shop);
    renderAt('/change-payment-method');
    expect(await screen.findByText('カードを登録しました。')).toBeInTheDocument();
    const sent = calls.filter((c) => c.path === '/payment/credit-card/authenticate/complete');
    expect(sent.map((c) => c.body)).toEqual([{ user_id: 1, state: 'sealed', tracking_id: 'tr-1' }]);
    expect(window.location.search).toBe('');
  });

  it('a refused authentication shows the reason and stores nothing', async () => {
    mockApi({
      ...base(() => null),
      'POST /payment/credit-card/authenticate/complete': fail(422, { card: [FAILED] }, FAILED),
    });
    window.history.replaceState(null, '', '/change-payment-method?tds=sealed&tracking_id=tr-2');
    signIn(shop);
    renderAt('/change-payment-method');
    expect(await screen.findByText(FAILED)).toBeInTheDocument();
  });
});
