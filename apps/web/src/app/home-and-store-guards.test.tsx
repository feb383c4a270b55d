import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StoreRow, User } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { selectStores } from '../lib/selection';
import { loginData, mockApi, ok, renderAt, resetState, signIn } from '../test/render';

// "/" and the store screens' guards (spec 1 §2; issue 23 items 8 and 11).

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
const agency: Partial<User> = { id: 6, role: 11, email: 'agency@tenpo.example' };
const manager: Partial<User> = { id: 7, role: 99, email: 'admin@tenpo.example' };
const rows = [store(8), store(9)];

const agencyApi = () =>
  mockApi({
    'GET /refresh-token': ok(loginData(agency, false)),
    'GET /agency/stores': ok(page(rows)),
    'GET /agency/groups': ok([]),
  });

describe('"/" (issue 23 item 8)', () => {
  beforeEach(resetState);

  it('an agency with two stores ticked on the overview: report, a 404, メインページへ → /overview', async () => {
    agencyApi();
    signIn(agency, false);
    const { router } = renderAt('/overview');
    for (const id of [8, 9]) {
      const row = await screen.findByTestId(`store-row-${id}`);
      await userEvent.click(within(row).getByRole('checkbox'));
    }
    await userEvent.click(screen.getByRole('button', { name: 'レポートを見る' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report-multiple'));
    expect(localStorage.getItem('userIds')).toBe('8,9');
    await router.navigate('/no/such/page');
    await userEvent.click(await screen.findByRole('link', { name: 'メインページへ' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/overview'));
    expect(await screen.findByTestId('store-row-8')).toBeInTheDocument();
    // Not the single-store screens' "choose one store" notice: "/" is no screen.
    expect(screen.queryByTestId('choose-one-store')).not.toBeInTheDocument();
  });

  it.each([
    ['an agency with two stores', agency, [8, 9]],
    ['an agency with one store', agency, [8]],
    ['an agency with none', agency, []],
    ['a manager with two stores', manager, [8, 9]],
  ] as const)('%s lands on /overview', async (_n, user, ids) => {
    mockApi({
      'GET /refresh-token': ok(loginData(user, false)),
      'GET /agency/stores': ok(page(rows)),
      'GET /agency/groups': ok([]),
      'GET /admin/agencies': ok({ data: [], meta: { current_page: 1, last_page: 1, total: 0 } }),
      'GET /admin/customers': ok({ data: [], meta: { current_page: 1, last_page: 1, total: 0 } }),
    });
    signIn(user, false);
    if (ids.length > 0) selectStores(rows, null, [...ids]);
    const { router } = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/overview'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('a shop lands on its dashboard, or on google-my-business without a business profile', async () => {
    // The landing screens read the store's channels once they have loaded (a warm module cache).
    mockApi({ 'GET /refresh-token': ok(loginData()), 'GET /publisher': ok([]) });
    signIn();
    const { router } = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    resetState();
    mockApi({ 'GET /refresh-token': ok(loginData({}, false)), 'GET /publisher': ok([]) });
    signIn({}, false);
    const second = renderAt('/');
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/google-my-business'));
  });
});

describe('store screens without a selected store (issue 23 item 11)', () => {
  beforeEach(resetState);

  it.each([
    ['an agency', '/google-my-business', agency],
    ['an agency', '/change-payment-method', agency],
    ['a manager', '/google-my-business', manager],
    ['a manager', '/change-payment-method', manager],
  ] as const)('%s opening %s is sent to the dashboard', async (_n, path, user) => {
    // Nothing is read for its own account: a call to the Google or payment endpoints would be
    // an unexpected call and fail the test. (The dashboard's store selector lists the stores.)
    mockApi({
      'GET /refresh-token': ok(loginData(user, false)),
      'GET /agency/stores': ok(page(rows)),
      'GET /admin/stores': ok(page(rows)),
    });
    signIn(user, false);
    const { router } = renderAt(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(
      await screen.findByText('上部の「店舗を選択」から店舗を選んでください。'),
    ).toBeInTheDocument();
  });
});
