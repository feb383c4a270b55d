import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StoreRow, User } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { selectStores, syncSelection } from '../../lib/selection';
import { clearSession } from '../../lib/session';
import {
  demoUser,
  fail,
  loginData,
  mockApi,
  ok,
  paymentReads,
  renderAt,
  resetState,
  signIn,
} from '../../test/render';

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
  per_page: 5,
  from: rows.length ? 1 : null,
  to: rows.length || null,
});
const agencyUser: Partial<User> = {
  id: 6,
  role: 11,
  email: 'agency@tenpo.example',
  agent_code: '1001',
};
const rows = [store(8), store(9), store(10, { status: 0 }), store(11, { agent_code: '0000' })];

const agencyApi = (extra = {}) =>
  mockApi({
    'GET /refresh-token': ok(loginData(agencyUser, false)),
    'GET /agency/stores': ok(page(rows)),
    'GET /agency/groups': ok([]),
    ...extra,
  });

const mainMenu = () => screen.queryByRole('navigation', { name: 'メインメニュー' });

describe('admin shell for an agency', () => {
  beforeEach(resetState);

  it('overview: no side bar, no selector; a row opens that store’s dashboard', async () => {
    agencyApi();
    signIn(agencyUser, false);
    const { router } = renderAt('/overview');
    const row = await screen.findByTestId('store-row-9');
    expect(mainMenu()).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '店舗を選択' })).not.toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: /ダッシュボード/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('userIds')).toBe('9');
    expect(await screen.findByRole('button', { name: '店舗を選択' })).toHaveTextContent('店舗9');
    expect(mainMenu()).toBeInTheDocument();
    // Agent code 1001 on the selected store: no payment item.
    expect(screen.queryByRole('link', { name: 'お支払い設定' })).not.toBeInTheDocument();
  });

  it('overview: the badges of a store with a long name stay whole (issue 7 §3.12)', async () => {
    const long = store(8, {
      name: `カフェ・ミナト${'とても長い店舗名'.repeat(10)}`,
      google_status: 0,
    });
    agencyApi({ 'GET /agency/stores': ok(page([long])) });
    signIn(agencyUser, false);
    renderAt('/overview');
    const row = await screen.findByTestId('store-row-8');
    // jsdom lays nothing out (e2e/tests/layout.spec.ts measures it): the badges must not be
    // narrower than their text, so a squeezed column cannot cut them to 「未…」.
    for (const text of ['未連携', '有効']) {
      const badge = within(row).getByText(text).closest('.mantine-Badge-root');
      expect(badge).toHaveStyle({ minWidth: 'max-content' });
    }
  });

  it('a guarded screen without selected stores sends the agency to the dashboard', async () => {
    agencyApi();
    signIn(agencyUser, false);
    const { router } = renderAt('/posts');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(
      await screen.findByText('上部の「店舗を選択」から店舗を選んでください。'),
    ).toBeInTheDocument();
  });

  it('the single selector disables inactive stores; selecting from Manual Document opens the dashboard', async () => {
    agencyApi({ 'GET /manual-page/download': { body: {} } });
    signIn(agencyUser, false);
    localStorage.setItem('userIds', '8');
    syncSelection();
    const { router } = renderAt('/manual-document');
    await userEvent.click(await screen.findByRole('button', { name: '店舗を選択' }));
    const dialog = await screen.findByRole('dialog', { name: '店舗を選択' });
    expect(await within(dialog).findByRole('radio', { name: '店舗10' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('radio', { name: '店舗11' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '選択' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('userIds')).toBe('11');
    // Agent code 0000 on the selected store: the payment item shows.
    expect(await screen.findByRole('link', { name: 'お支払い設定' })).toBeInTheDocument();
  });

  it('the multi selector on Report goes to report-multiple for two stores, and the menu shrinks', async () => {
    agencyApi();
    signIn(agencyUser, false);
    localStorage.setItem('userIds', '8');
    syncSelection();
    const { router } = renderAt('/report');
    await userEvent.click(await screen.findByRole('button', { name: '店舗を選択' }));
    const dialog = await screen.findByRole('dialog', { name: '店舗を選択' });
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: '店舗9' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '選択' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report-multiple'));
    expect(localStorage.getItem('userIds')).toBe('8,9');
    const nav = await screen.findByRole('navigation', { name: 'メインメニュー' });
    expect(within(nav).getByRole('link', { name: '投稿作成' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: '口コミ' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: '変更履歴' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'ダッシュボード' })).not.toBeInTheDocument();
  });

  it('opens the change history with no store chosen, without side bar or selector', async () => {
    agencyApi({
      'GET /audit-log': ok({
        data: [],
        meta: { current_page: 1, last_page: 1, per_page: 20, total: 0 },
      }),
    });
    signIn(agencyUser, false);
    const { router } = renderAt('/audit-log');
    expect(await screen.findByRole('heading', { name: '変更履歴' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/audit-log');
    expect(mainMenu()).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '店舗を選択' })).not.toBeInTheDocument();
  });
});

describe('a multi-store selection on a single-store screen', () => {
  beforeEach(resetState);

  it('is not used for its first store: the screen asks for one store, and the single selector starts empty', async () => {
    const { calls } = agencyApi({ 'GET /publisher': ok([]) });
    signIn(agencyUser, false);
    // Chosen on /report with the multi selector.
    localStorage.setItem('userIds', '8,9,11');
    syncSelection();
    renderAt('/connect-account');
    expect(await screen.findByTestId('choose-one-store')).toHaveTextContent(
      '上部の「店舗を選択」から店舗を選んでください。',
    );
    expect(calls.some((c) => c.path === '/publisher')).toBe(false);
    await userEvent.click(await screen.findByRole('button', { name: '店舗を選択' }));
    const dialog = await screen.findByRole('dialog', { name: '店舗を選択' });
    const radios = await within(dialog).findAllByRole('radio');
    expect(radios.every((r) => !(r as HTMLInputElement).checked)).toBe(true);
    await userEvent.click(within(dialog).getByRole('radio', { name: '店舗9' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '選択' }));
    await waitFor(() => expect(localStorage.getItem('userIds')).toBe('9'));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/publisher')?.url.searchParams.get('user_id')).toBe('9'),
    );
    expect(screen.queryByTestId('choose-one-store')).not.toBeInTheDocument();
  });

  it('nor is one store that the single selector disables', async () => {
    const ended = store(12, { role: 0, in_trial: false });
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData(agencyUser, false)),
      'GET /agency/stores': ok(page([...rows, ended])),
      'GET /agency/groups': ok([]),
      'GET /publisher': ok([]),
    });
    signIn(agencyUser, false);
    // Chosen alone on /report, where the multi selector allows it.
    selectStores([ended], null);
    renderAt('/connect-account');
    expect(await screen.findByTestId('choose-one-store')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/publisher')).toBe(false);
  });
});

describe('admin shell for a shop', () => {
  beforeEach(resetState);

  it('shows the default menu, the payment item for agent code 0000, and no selector', async () => {
    mockApi({ 'GET /refresh-token': ok(loginData()) });
    signIn();
    renderAt('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'メインメニュー' });
    for (const name of [
      'ダッシュボード',
      'レポート',
      '基本情報',
      'ナレッジタグ',
      'アカウント連携',
      '写真・動画',
      '投稿一覧',
      '口コミ',
      'お支払い設定',
      '変更履歴',
    ]) {
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: '店舗を選択' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'ロゴを変更' })).not.toBeInTheDocument();
  });

  it('hides the payment item for another agent code', async () => {
    mockApi({ 'GET /refresh-token': ok(loginData({ agent_code: '1234' })) });
    signIn({ agent_code: '1234' });
    renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    expect(screen.queryByRole('link', { name: 'お支払い設定' })).not.toBeInTheDocument();
  });

  it('an ended trial gets the pay-required panel whose button replaces the route', async () => {
    mockApi({
      'GET /refresh-token': ok(loginData({ role: 0, in_trial: false })),
      ...paymentReads(),
    });
    signIn({ role: 0, in_trial: false });
    const { router } = renderAt('/dashboard');
    expect(await screen.findByTestId('pay-required')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'お支払い設定へ進む' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register-payment'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByRole('region', { name: 'プラン' })).toBeInTheDocument();
  });

  it('a failed payment shows the confirm-mail panel first', async () => {
    const u = { role: 0, in_trial: false, payment_fail: true };
    mockApi({ 'GET /refresh-token': ok(loginData(u)) });
    signIn(u);
    renderAt('/dashboard');
    expect(await screen.findByTestId('confirm-mail')).toBeInTheDocument();
    expect(screen.queryByTestId('pay-required')).not.toBeInTheDocument();
  });

  it('without a Google connection is sent to google-my-business', async () => {
    mockApi({ 'GET /refresh-token': ok(loginData({}, false)) });
    signIn({}, false);
    const { router } = renderAt('/posts');
    await waitFor(() => expect(router.state.location.pathname).toBe('/google-my-business'));
  });

  it('a 401 on a route change logs out and goes to /login', async () => {
    mockApi({ 'GET /refresh-token': fail(401, {}, 'unauthenticated') });
    signIn();
    const { router } = renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    await userEvent.click(screen.getByRole('link', { name: 'レポート' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('a rotation cut off on a route change (no answer) keeps the session and its token', async () => {
    // The page reloaded or left while /refresh-token travelled, or the network dropped: not a
    // logout. The next page rotates the kept token again (the server follows it, ADR 0012).
    let fails = false;
    mockApi({
      'GET /refresh-token': () => {
        if (fails) throw new TypeError('Failed to fetch');
        return ok(loginData());
      },
    });
    signIn();
    const { router } = renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    const token = localStorage.getItem('token');
    fails = true;
    await userEvent.click(screen.getByRole('link', { name: 'レポート' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report'));
    await new Promise((r) => setTimeout(r, 50));
    expect(router.state.location.pathname).toBe('/report');
    expect(localStorage.getItem('token')).toBe(token);
    expect(screen.getByRole('navigation', { name: 'メインメニュー' })).toBeInTheDocument();
  });

  it('a stored token whose first rotation gets no answer is tried again, not logged out', async () => {
    let tries = 0;
    mockApi({
      'GET /refresh-token': () => {
        tries += 1;
        if (tries === 1) throw new TypeError('Failed to fetch');
        return ok(loginData());
      },
    });
    localStorage.setItem('token', 'kept');
    const { router } = renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' }, { timeout: 5000 });
    expect(tries).toBe(2);
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('a token of another account (a login elsewhere) shows the warning, whose confirm logs out', async () => {
    const { calls } = mockApi({
      'GET /refresh-token': ok({
        ...loginData({ id: 2, email: 'other@tenpo.example' }),
        token: 't2',
      }),
      'GET /logout': ok(null, 'ログアウトしました。'),
    });
    signIn();
    const { router } = renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    localStorage.setItem('token', 'someone-else');
    await userEvent.click(screen.getByRole('link', { name: 'レポート' }));
    const dialog = await screen.findByRole('dialog', { name: 'ログイン状態が変わりました' });
    expect(within(dialog).getByText(/すでに別のアカウントでログインしている/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.some((c) => c.path === '/logout')).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('a token rotated by another tab of the same user is followed: no warning, the next call uses it', async () => {
    const { calls } = mockApi({
      'GET /refresh-token': ok({ ...loginData(), token: 'token-3' }),
      'GET /account-setting/information': ok(demoUser()),
    });
    signIn();
    const { router } = renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    // The other tab's rotation: storage changes, and this tab hears of it.
    localStorage.setItem('token', 'token-2');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: 'token-2' }));
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/account-setting/information'));
    await userEvent.click(screen.getByRole('link', { name: 'レポート' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report'));
    await waitFor(() => expect(localStorage.getItem('token')).toBe('token-3'));
    const refresh = calls.find((c) => c.path === '/refresh-token');
    expect(refresh?.headers.get('Authorization')).toBe('Bearer token-2');
    expect(screen.queryByRole('dialog', { name: 'ログイン状態が変わりました' })).toBeNull();
  });

  it('a token of another account stored by another tab shows the warning at once', async () => {
    mockApi({
      'GET /account-setting/information': ok(demoUser({ id: 2, email: 'other@tenpo.example' })),
    });
    signIn();
    renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    localStorage.setItem('token', 'other');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: 'other' }));
    const dialog = await screen.findByRole('dialog', { name: 'ログイン状態が変わりました' });
    expect(within(dialog).getByText(/すでに別のアカウントでログインしている/)).toBeInTheDocument();
  });

  it('a token removed from storage: a side-bar link goes to /login once, and it stays there', async () => {
    const { calls } = mockApi({ 'GET /refresh-token': ok(loginData()) });
    signIn();
    const { router } = renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    const seen: string[] = [];
    const stop = router.subscribe((state) => {
      if (state.navigation.state === 'idle') seen.push(state.location.pathname);
    });
    localStorage.removeItem('token');
    await userEvent.click(screen.getByRole('link', { name: 'レポート' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await screen.findByRole('button', { name: 'ログイン' });
    await new Promise((r) => setTimeout(r, 300));
    stop();
    expect(router.state.location.pathname).toBe('/login');
    expect(seen.filter((p) => p === '/login')).toHaveLength(1);
    expect(seen.filter((p) => p === '/dashboard' || p === '/overview')).toHaveLength(0);
    // No rotation was attempted without a token.
    expect(calls.filter((c) => c.path === '/refresh-token')).toHaveLength(0);
  });

  it('a token removed by a logout in another tab sends this tab to /login', async () => {
    mockApi({});
    signIn();
    const { router } = renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    localStorage.removeItem('token');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: null }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.queryByRole('dialog', { name: 'ログイン状態が変わりました' })).toBeNull();
  });

  it('no token in storage sends the user to /login', async () => {
    mockApi({});
    const { router } = renderAt('/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('a stored token without a session is refreshed first', async () => {
    const { calls } = mockApi({ 'GET /refresh-token': ok(loginData()) });
    localStorage.setItem('token', 'kept');
    const { router } = renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer kept');
    expect(localStorage.getItem('token')).toBe('token-1');
  });
});

describe('a session that ends during a move', () => {
  beforeEach(resetState);

  it('Back while the app is on its way to /login still ends on /login (no blank page)', async () => {
    mockApi({ 'GET /refresh-token': ok(loginData()) });
    signIn();
    const { router } = renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    await userEvent.click(screen.getByRole('link', { name: 'レポート' }));
    await screen.findByRole('heading', { level: 1, name: 'レポート' });
    // The session ends (a rotation refused after the token was removed); the guard moves to
    // /login, and the user's Back arrives before React has drawn /login: the layout stays
    // mounted and is asked to redirect a second location.
    let backed = false;
    const stop = router.subscribe((state) => {
      if (state.location.pathname !== '/login' || backed) return;
      backed = true;
      void router.navigate(-1);
    });
    localStorage.removeItem('token');
    clearSession();
    await waitFor(() => expect(backed).toBe(true));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    stop();
    expect(await screen.findByRole('button', { name: 'ログイン' })).toBeInTheDocument();
  });
});

describe('the side bar on a phone', () => {
  beforeEach(resetState);

  it('on a phone the side bar’s links are drawn once the menu button opens it', async () => {
    const width = window.innerWidth;
    window.innerWidth = 390;
    try {
      mockApi({ 'GET /refresh-token': ok(loginData()) });
      signIn();
      renderAt('/dashboard');
      await screen.findByRole('heading', { name: 'ダッシュボード' });
      expect(mainMenu()).not.toBeInTheDocument();
      // By its label: jsdom applies Mantine's `hiddenFrom` rule whatever the width, so the button
      // counts as hidden to a role query.
      await userEvent.click(screen.getByLabelText('メニュー'));
      const nav = await screen.findByRole('navigation', { name: 'メインメニュー' });
      expect(within(nav).getByRole('link', { name: '投稿一覧' })).toBeInTheDocument();
    } finally {
      window.innerWidth = width;
    }
  });
});
