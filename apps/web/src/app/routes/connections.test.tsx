import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FacebookPage, Location, PublisherRow, User } from '@tenpo/domain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/navigation';
import {
  fail,
  loginData,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockRequest,
} from '../../test/render';

const row = (
  id: number,
  key: PublisherRow['publisher_key'],
  name: string,
  over: Partial<PublisherRow> = {},
): PublisherRow => ({
  publisher_id: id,
  publisher_key: key,
  publisher_name: name,
  logo_url: `/images/publisher/${key}.svg`,
  entity_id: null,
  location_name: null,
  postal_code: null,
  address_lines: [],
  store_code: null,
  status: 0,
  log: [],
  ...over,
});

const shopRows = (): PublisherRow[] => [
  row(1, 'google_my_business', 'Google ビジネスプロフィール', {
    status: 2,
    entity_id: '4821390157204861230',
    location_name: 'カフェ テンポ 渋谷店',
    postal_code: '150-0002',
    address_lines: ['渋谷2-21-1'],
    store_code: 'SHIBUYA-01',
  }),
  row(2, 'facebook', 'Facebook', {
    status: 1,
    entity_id: '104857392017465',
    location_name: 'カフェ テンポ 渋谷店',
  }),
  row(3, 'instagram', 'Instagram', {
    status: 1,
    entity_id: '17841400000000101',
    location_name: '@cafe_tenpo_shibuya',
  }),
  row(4, 'twitter', 'X（旧 Twitter）'),
];

const shop: Partial<User> = { id: 1 };
const trial: Partial<User> = { id: 2, role: 0, in_trial: true };

const assigned = () => vi.spyOn(browser, 'assign').mockImplementation(() => {});
const tableRow = (key: string) => screen.findByTestId(`publisher-${key}`);

describe('/connect-account', () => {
  beforeEach(resetState);

  it('shows the four publishers with their state; Facebook and Instagram share one actions cell', async () => {
    mockApi({ 'GET /publisher': ok(shopRows()) });
    signIn(shop);
    renderAt('/connect-account');
    const google = await tableRow('google_my_business');
    expect(within(google).getByText('カフェ テンポ 渋谷店')).toBeInTheDocument();
    expect(within(google).getByText('150-0002')).toBeInTheDocument();
    expect(within(google).getByText('SHIBUYA-01')).toBeInTheDocument();
    expect(within(google).getByText('同期済み')).toBeInTheDocument();
    expect(within(google).getByRole('button', { name: /同期/ })).toBeEnabled();
    expect(within(await tableRow('facebook')).getByText('連携済み')).toBeInTheDocument();
    expect(screen.getByTestId('actions-facebook')).toHaveAttribute('rowspan', '2');
    expect(screen.queryByTestId('actions-instagram')).not.toBeInTheDocument();
    const x = await tableRow('twitter');
    expect(within(x).getByText('未連携')).toBeInTheDocument();
    expect(within(x).getByRole('button', { name: /連携する/ })).toBeEnabled();
  });

  it('connect: refreshes the session, asks for the connect URL and sends the browser there', async () => {
    const go = assigned();
    const { calls } = mockApi({
      'GET /publisher': ok(shopRows()),
      'GET /refresh-token': ok(loginData(shop)),
      'GET /publisher/connect': ok({ urlAuth: 'http://sandbox.test/x/i/oauth2/authorize?a=1' }),
    });
    signIn(shop);
    renderAt('/connect-account');
    await userEvent.click(
      within(await tableRow('twitter')).getByRole('button', { name: /連携する/ }),
    );
    await waitFor(() =>
      expect(go).toHaveBeenCalledWith('http://sandbox.test/x/i/oauth2/authorize?a=1'),
    );
    const connect = calls.find((c) => c.path === '/publisher/connect') as MockRequest;
    expect(Object.fromEntries(connect.url.searchParams)).toEqual({
      publisher_key: 'twitter',
      user_id: '1',
    });
    const order = calls.map((c) => c.path);
    expect(order.indexOf('/refresh-token')).toBeLessThan(order.indexOf('/publisher/connect'));
  });

  it('a connect failure is a toast with the server’s message, and the browser stays', async () => {
    const go = assigned();
    mockApi({
      'GET /publisher': ok(shopRows()),
      'GET /refresh-token': ok(loginData(shop)),
      'GET /entity/locations': ok({
        data: [location(1)],
        current_page: 1,
        last_page: 1,
        total: 1,
        per_page: 5,
        from: 1,
        to: 1,
      }),
      'GET /publisher/connect': fail(503, {}, 'Xに接続できませんでした。'),
    });
    signIn(shop);
    renderAt('/connect-account');
    await userEvent.click(
      within(await tableRow('twitter')).getByRole('button', { name: /連携する/ }),
    );
    expect(await screen.findByText('Xに接続できませんでした。')).toBeInTheDocument();
    expect(go).not.toHaveBeenCalled();
  });

  it('disconnecting Facebook asks first, says Instagram goes too, and shows the new rows', async () => {
    const after = shopRows().map((r) =>
      r.publisher_key === 'facebook' || r.publisher_key === 'instagram'
        ? { ...r, status: 0, entity_id: null, location_name: null }
        : r,
    );
    let sent: unknown = null;
    mockApi({
      'GET /publisher': () => ok(sent === null ? shopRows() : after),
      'PUT /publisher/disconnect': (req) => {
        sent = req.body;
        return ok(after, '連携を解除しました。');
      },
    });
    signIn(shop);
    renderAt('/connect-account');
    await userEvent.click(
      within(await tableRow('facebook')).getByRole('button', { name: /連携解除/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: '連携の解除' });
    expect(dialog).toHaveTextContent('Facebook との連携を解除しますか？');
    expect(dialog).toHaveTextContent('Instagram の連携も解除されます');
    await userEvent.click(within(dialog).getByRole('button', { name: '連携解除' }));
    expect(await screen.findByText('連携を解除しました。')).toBeInTheDocument();
    expect(sent).toEqual({ publisher_id: 2, entity_id: '104857392017465', user_id: 1 });
    await waitFor(() =>
      expect(within(screen.getByTestId('publisher-instagram')).getByText('未連携')).toBeVisible(),
    );
  });

  it('an error row shows its log lines; a sync reports success', async () => {
    const rows = shopRows().map((r) =>
      r.publisher_key === 'twitter'
        ? { ...r, status: 4, log: ['2026-11-23 10:00 Xとの連携が切れました。再連携してください。'] }
        : r,
    );
    mockApi({
      'GET /publisher': ok(rows),
      'POST /publisher/google-my-business/sync': ok(rows[0], '同期しました。'),
    });
    signIn(shop);
    renderAt('/connect-account');
    const x = await tableRow('twitter');
    expect(within(x).getByText('エラー')).toBeInTheDocument();
    expect(within(x).getByText(/Xとの連携が切れました。再連携してください。/)).toBeInTheDocument();
    expect(within(x).getByRole('button', { name: /連携する/ })).toBeEnabled();
    await userEvent.click(
      within(await tableRow('google_my_business')).getByRole('button', { name: /同期/ }),
    );
    expect(await screen.findByText('同期しました。')).toBeInTheDocument();
  });

  it('a free-trial store may connect Google only; the others read 利用不可', async () => {
    const rows = shopRows().map((r) => ({ ...r, status: 0 }));
    mockApi({ 'GET /publisher': ok(rows) });
    signIn(trial);
    renderAt('/connect-account');
    for (const key of ['facebook', 'twitter']) {
      const r = await tableRow(key);
      expect(within(r).getByText('利用不可')).toBeInTheDocument();
      expect(within(r).getByRole('button', { name: /連携する/ })).toBeDisabled();
    }
    expect(within(await tableRow('instagram')).getByText('利用不可')).toBeInTheDocument();
    expect(
      within(await tableRow('google_my_business')).getByRole('button', { name: /連携する/ }),
    ).toBeEnabled();
  });

  it('a denied consent coming back shows why, for 2 seconds', async () => {
    mockApi({ 'GET /publisher': ok(shopRows()) });
    signIn(shop);
    const { router } = renderAt('/connect-account?error=access_denied&publisher_key=facebook');
    expect(await screen.findByText('Facebookとの連携がキャンセルされました。')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('payment failed: the confirm-mail panel; trial ended: the pay-required panel', async () => {
    mockApi({ 'GET /publisher': ok(shopRows()) });
    signIn({ payment_fail: true });
    const first = renderAt('/connect-account');
    expect(await screen.findByTestId('confirm-mail')).toBeInTheDocument();
    expect(screen.queryByTestId('publisher-google_my_business')).not.toBeInTheDocument();
    first.unmount();
    signIn({ role: 0, in_trial: false });
    renderAt('/connect-account');
    expect(await screen.findByTestId('pay-required')).toBeInTheDocument();
  });
});

const pages: FacebookPage[] = Array.from({ length: 7 }, (_, i) => ({
  id: `10485739201746${i}`,
  name: `ページ ${i + 1}`,
  is_connected_instagram: i < 2,
}));

describe('/facebook/connect-page', () => {
  beforeEach(resetState);

  it('pages 5 at a time, confirm waits for a choice, then connects and goes back with a reload', async () => {
    const go = assigned();
    let sent: unknown = null;
    mockApi({
      'GET /publisher/facebook/pages': ok(pages),
      'POST /publisher/facebook/connect-page': (req) => {
        sent = req.body;
        return ok([], '連携しました。');
      },
    });
    signIn(shop);
    renderAt('/facebook/connect-page');
    expect(await screen.findByText('ページ 1')).toBeInTheDocument();
    expect(screen.getByText('7 件中 1 〜 5 件を表示')).toBeInTheDocument();
    expect(screen.queryByText('ページ 6')).not.toBeInTheDocument();
    const table = screen.getByRole('table');
    expect(within(table).getAllByText('あり')).toHaveLength(2);
    const confirm = screen.getByRole('button', { name: '確認' });
    expect(confirm).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('ページ 7')).toBeInTheDocument();
    expect(screen.getByText('7 件中 6 〜 7 件を表示')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'ページ 7' }));
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    await waitFor(() => expect(go).toHaveBeenCalledWith('/connect-account'));
    expect(sent).toEqual({ user_id: 1, page_id: '104857392017466' });
  });

  it('cancel goes to /connect-account; a failure shows the server’s errors', async () => {
    mockApi({
      'GET /publisher/facebook/pages': fail(409, {
        publisher: ['Facebookとの連携が切れました。再連携してください。'],
      }),
      'GET /publisher': ok(shopRows()),
      // A route change rotates the session token (spec 1 §2).
      'GET /refresh-token': ok(loginData(shop)),
    });
    signIn(shop);
    const { router } = renderAt('/facebook/connect-page');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Facebookとの連携が切れました。再連携してください。',
    );
    await userEvent.click(screen.getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/connect-account'));
    // …and stays there, signed in, once the rotation is back.
    expect(await tableRow('google_my_business')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/connect-account');
  });
  it.each([
    [403, '無料トライアルでは Google ビジネスプロフィールのみ連携できます。'],
    [409, 'Facebookが連携されていません。先に連携してください。'],
  ])('a %i keeps its reason in the table after the 2 s alert', async (status, reason) => {
    // The API's envelope for these: the reason as the message, no field errors.
    mockApi({ 'GET /publisher/facebook/pages': fail(status, {}, reason) });
    signIn(shop);
    renderAt('/facebook/connect-page');
    expect(await screen.findByRole('alert')).toHaveTextContent(reason);
    // Once while the alert lasts: not in the table as well, nor an empty list there.
    expect(screen.getAllByText(reason)).toHaveLength(1);
    expect(
      screen.queryByText('管理している Facebook ページがありません。'),
    ).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    const table = screen.getByRole('table');
    expect(within(table).getByText(reason)).toBeInTheDocument();
    expect(
      within(table).queryByText('管理している Facebook ページがありません。'),
    ).not.toBeInTheDocument();
  });
});

const location = (i: number): Location => ({
  id: `610472958331672450${i}`,
  title: `らーめん 一歩 ${i}号店`,
  openInfo: { canReopen: true, status: i === 2 ? 'CLOSED_TEMPORARILY' : 'OPEN' },
  phoneNumbers: { primaryPhone: '03-1234-5678' },
  storefrontAddress: {
    addressLines: [`西新宿1-${i}`],
    locality: '新宿区',
    administrativeArea: '東京都',
    regionCode: 'JP',
  },
  websiteUri: i === 1 ? 'https://ippo.example/' : null,
});

describe('/connect-location', () => {
  beforeEach(resetState);

  it('lists the locations 5 a page, confirm waits for a choice, then chooses and opens the dashboard', async () => {
    const go = assigned();
    let sent: unknown = null;
    const { calls } = mockApi({
      'GET /entity/locations': (req) => {
        const page = Number(req.url.searchParams.get('page'));
        const data = page === 1 ? [1, 2, 3, 4, 5].map(location) : [location(6)];
        return ok({
          data,
          current_page: page,
          last_page: 2,
          total: 6,
          per_page: 5,
          from: page === 1 ? 1 : 6,
          to: page === 1 ? 5 : 6,
        });
      },
      'POST /entity/location': (req) => {
        sent = req.body;
        return ok(shopRows()[0], '連携しました。');
      },
    });
    signIn({ id: 5 }, false);
    renderAt('/connect-location');
    const first = await screen.findByText('らーめん 一歩 1号店');
    const tr = first.closest('tr') as HTMLElement;
    expect(within(tr).getByText('営業中')).toBeInTheDocument();
    expect(within(tr).getByText('東京都 新宿区 西新宿1-1')).toBeInTheDocument();
    expect(within(tr).getByRole('link', { name: 'https://ippo.example/' })).toBeInTheDocument();
    expect(screen.getByText('臨時休業')).toBeInTheDocument();
    expect(screen.getByText('6 件中 1 〜 5 件を表示')).toBeInTheDocument();
    const confirm = screen.getByRole('button', { name: '確認' });
    expect(confirm).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await userEvent.click(await screen.findByRole('radio', { name: 'らーめん 一歩 6号店' }));
    await userEvent.click(confirm);
    await waitFor(() => expect(go).toHaveBeenCalledWith('/dashboard'));
    expect(sent).toEqual({ user_id: 5, location_id: '6104729583316724506' });
    const pagesAsked = calls
      .filter((c) => c.path === '/entity/locations')
      .map((c) => [c.url.searchParams.get('page'), c.url.searchParams.get('per_page')]);
    expect(pagesAsked).toContainEqual(['2', '5']);
  });

  it('a refused choice shows the server’s message and stays', async () => {
    const go = assigned();
    mockApi({
      'GET /entity/locations': ok({
        data: [location(1)],
        current_page: 1,
        last_page: 1,
        total: 1,
        per_page: 5,
        from: 1,
        to: 1,
      }),
      'POST /entity/location': fail(422, {
        location_id: ['選択したビジネス拠点が見つかりません。'],
      }),
    });
    signIn({ id: 5 }, false);
    renderAt('/connect-location');
    await userEvent.click(await screen.findByRole('radio', { name: 'らーめん 一歩 1号店' }));
    await userEvent.click(screen.getByRole('button', { name: '確認' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '選択したビジネス拠点が見つかりません。',
    );
    expect(go).not.toHaveBeenCalled();
  });
});

describe('/google-my-business', () => {
  beforeEach(resetState);
  const newshop: Partial<User> = { id: 5, email: 'newshop@tenpo.example' };

  it('Connect: check, refresh, connect URL for google_my_business, then the browser goes', async () => {
    const go = assigned();
    const { calls } = mockApi({
      'GET /publisher': ok(shopRows().map((r) => ({ ...r, status: 0 }))),
      'GET /refresh-token': ok(loginData(newshop, false)),
      'GET /publisher/connect': ok({ urlAuth: 'http://sandbox.test/google/consent' }),
    });
    signIn(newshop, false);
    renderAt('/google-my-business');
    await userEvent.click(await screen.findByRole('button', { name: '連携する' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('http://sandbox.test/google/consent'));
    const connect = calls.find((c) => c.path === '/publisher/connect') as MockRequest;
    expect(connect.url.searchParams.get('publisher_key')).toBe('google_my_business');
    expect(connect.url.searchParams.get('user_id')).toBe('5');
  });

  it('a failure is an alert with the server’s errors; a consent without a location offers the picker', async () => {
    const rows = shopRows().map((r) =>
      r.publisher_key === 'google_my_business' ? { ...r, status: 5, location_name: null } : r,
    );
    mockApi({
      'GET /publisher': ok(rows),
      'GET /refresh-token': ok(loginData(newshop, false)),
      'GET /entity/locations': ok({
        data: [location(1)],
        current_page: 1,
        last_page: 1,
        total: 1,
        per_page: 5,
        from: 1,
        to: 1,
      }),
      'GET /publisher/connect': fail(503, {
        publisher: ['Googleに接続できませんでした。しばらくしてから再度お試しください。'],
      }),
    });
    signIn(newshop, false);
    const { router } = renderAt('/google-my-business');
    await userEvent.click(await screen.findByRole('button', { name: '連携する' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Googleに接続できませんでした。しばらくしてから再度お試しください。',
    );
    await userEvent.click(screen.getByRole('button', { name: 'ビジネス拠点を選択' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/connect-location'));
    expect(await screen.findByText('らーめん 一歩 1号店')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/connect-location');
  });
});
