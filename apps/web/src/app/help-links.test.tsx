import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { User } from '@tenpo/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginData, mockApi, ok, paymentReads, renderAt, resetState, signIn } from '../test/render';

// The help site (HELP_URL, given to the page by the server) and the PDF manual (issue 23 item 10).

const setHelpMeta = (url: string) => {
  const m = document.createElement('meta');
  m.name = 'tenpo-help-url';
  m.content = url;
  document.head.append(m);
};
const removeHelpMeta = () =>
  document.head.querySelectorAll('meta[name="tenpo-help-url"]').forEach((m) => m.remove());

const ended: Partial<User> = { role: 0, in_trial: false, payment_fail: false };
const failed: Partial<User> = { role: 0, in_trial: false, payment_fail: true };

describe('the help site', () => {
  beforeEach(resetState);
  afterEach(removeHelpMeta);

  it('the account menu links the help site the server names', async () => {
    setHelpMeta('https://support.example.jp/tenpo/');
    mockApi({ 'GET /refresh-token': ok(loginData()) });
    signIn();
    renderAt('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'アカウントメニュー' }));
    const link = await screen.findByRole('menuitem', { name: 'マニュアル（ヘルプサイト）' });
    expect(link).toHaveAttribute('href', 'https://support.example.jp/tenpo/');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('without one, the account menu keeps the help site linked so far', async () => {
    mockApi({ 'GET /refresh-token': ok(loginData()) });
    signIn();
    renderAt('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'アカウントメニュー' }));
    expect(
      await screen.findByRole('menuitem', { name: 'マニュアル（ヘルプサイト）' }),
    ).toHaveAttribute('href', 'https://help.tenpo.example/');
  });

  it('the plan selector’s help opens the help site, for a trial that has ended too', async () => {
    setHelpMeta('https://support.example.jp/tenpo/');
    mockApi({ 'GET /refresh-token': ok(loginData(ended)), ...paymentReads() });
    signIn(ended);
    renderAt('/register-payment');
    const plan = await screen.findByRole('region', { name: 'プラン' });
    const help = await within(plan).findByRole('link', { name: 'プランについて（マニュアル）' });
    expect(help).toHaveAttribute('href', 'https://support.example.jp/tenpo/');
    expect(help).toHaveAttribute('target', '_blank');
  });
});

describe('/manual-document', () => {
  beforeEach(resetState);

  it.each([
    ['a trial that has ended', ended],
    ['a failed payment', failed],
    ['a shop', {}],
    ['an agency without a store', { id: 6, role: 11 }],
    ['a manager without a store', { id: 7, role: 99 }],
  ] as const)('opens the manual for %s, without a payment panel', async (_n, user) => {
    mockApi({
      'GET /refresh-token': ok(loginData(user)),
      'GET /manual-page/download': { body: {} },
      // The store selector of an agency or a manager lists its stores.
      'GET /agency/stores': ok({ data: [], current_page: 1, last_page: 1, total: 0, per_page: 5 }),
      'GET /admin/stores': ok({ data: [], current_page: 1, last_page: 1, total: 0, per_page: 5 }),
    });
    signIn(user);
    const { router } = renderAt('/manual-document');
    expect(await screen.findByTitle('マニュアル')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/manual-document');
    expect(screen.queryByTestId('pay-required')).not.toBeInTheDocument();
    expect(screen.queryByTestId('confirm-mail')).not.toBeInTheDocument();
  });
});
