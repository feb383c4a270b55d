import { screen, within } from '@testing-library/react';
import type { StoreRow, User } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { loginData, mockApi, ok, renderAt, resetState, signIn } from '../../test/render';

/** The overview's review columns for an agency (issue 25 item 7): 平均評価 and 未返信. */

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
  from: 1,
  to: rows.length,
});
const agency: Partial<User> = { id: 6, role: 11, email: 'agency@tenpo.example' };

describe('/overview: the stores’ reviews (agency)', () => {
  beforeEach(resetState);

  it('shows each store’s average ★ and unreplied count, and — with the reason otherwise', async () => {
    mockApi({
      'GET /refresh-token': ok(loginData(agency)),
      'GET /agency/groups': ok([]),
      'GET /agency/stores': ok(
        page([
          store(8, {
            reviews: {
              status: 'ready',
              average_rating: 4.26,
              review_count: 40,
              unreplied_count: 3,
            },
          }),
          store(9, {
            reviews: { status: 'ready', average_rating: null, review_count: 0, unreplied_count: 0 },
          }),
          store(10, {
            google_status: 0,
            reviews: {
              status: 'not_connected',
              average_rating: null,
              review_count: 0,
              unreplied_count: 0,
            },
          }),
          store(11, {
            reviews: {
              status: 'not_synced',
              average_rating: null,
              review_count: 0,
              unreplied_count: 0,
            },
          }),
        ]),
      ),
    });
    signIn(agency);
    renderAt('/overview');
    const row8 = await screen.findByTestId('store-row-8');
    expect(screen.getByRole('columnheader', { name: '平均評価' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '未返信' })).toBeInTheDocument();
    expect(within(row8).getByTestId('store-rating-8')).toHaveTextContent('★ 4.3');
    expect(within(row8).getByTestId('store-unreplied-8')).toHaveTextContent('3');
    const row9 = screen.getByTestId('store-row-9');
    expect(within(row9).getByTestId('store-rating-9')).toHaveTextContent('—');
    expect(within(row9).getByTestId('store-unreplied-9')).toHaveTextContent('0');
    // Not connected, or not read yet: no figures, not zeros; the cell says why.
    const row10 = screen.getByTestId('store-row-10');
    expect(
      within(row10).getAllByRole('cell', { name: '口コミの指標なし（Google 未連携）' }),
    ).toHaveLength(2);
    const row11 = screen.getByTestId('store-row-11');
    expect(within(row11).getAllByRole('cell', { name: '口コミの指標なし（未取得）' })).toHaveLength(
      2,
    );
    expect(within(row11).queryByText('0')).toBeNull();
  });
});
