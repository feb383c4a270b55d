import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  BoxData,
  CustomerSearch,
  ReactionsGraph,
  ReviewFigures,
  ReviewMetrics,
  SearchKeywords,
  StoreRow,
} from '@tenpo/domain';
import { selectStores } from '../../lib/selection';
import { beforeEach, describe, expect, it } from 'vitest';
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

const dayFigures = (review_count: number, average_rating: number | null): ReviewFigures => ({
  review_count,
  total_review_count: 40 + review_count,
  average_rating,
  period_average_rating: null,
  replied_count: 0,
  reply_rate: null,
  median_reply_hours: null,
});

/** The 口コミ card's figures (issue 25 item 7): 12 new, ★4.24 held, up from ★4.10. */
const reviewMetrics: ReviewMetrics = {
  status: 'ready',
  synced_at: '2026-11-24T00:15:00.000Z',
  starting_average_rating: 4.1,
  period: {
    review_count: 12,
    total_review_count: 52,
    average_rating: 4.24,
    period_average_rating: 4.5,
    replied_count: 9,
    reply_rate: 75,
    median_reply_hours: 10.5,
  },
  series: {
    '2026/11/21': dayFigures(2, 4.12),
    '2026/11/22': dayFigures(0, 4.12),
    '2026/11/23': dayFigures(10, 4.24),
  },
};

const boxes: BoxData = {
  view_total: 12345,
  percent_view_total: 12.5,
  search_keywords_total: 2048,
  percent_search_keywords_total: -3.2,
  action_total: 310,
  percent_action_total: 0,
  action_website: 120,
  percent_action_website: null,
  action_driving_direction: 150,
  percent_action_driving_direction: 7,
  action_phone: 40,
  percent_action_phone: -50,
  reviews: reviewMetrics,
};

const search: CustomerSearch = {
  business_impressions_desktop_maps: 1000,
  business_impressions_mobile_maps: 4000,
  business_impressions_desktop_search: 2000,
  business_impressions_mobile_search: 5345,
  total: 12345,
};

const keywords: SearchKeywords = {
  search_keywords_total: 1520,
  search_keywords: {
    // An integer-like keyword comes first in a parsed object: the list still sorts by count.
    '2026': 'value_30',
    パン屋: 'value_1200',
    恵比寿: 'value_150',
    ベーカリー: 'value_90',
    クロワッサン: 'value_40',
    食パン: 'value_20',
    カフェ: 'threshold_15',
    朝食: 'threshold_15',
    ランチ: 'threshold_15',
    テイクアウト: 'threshold_15',
    サンドイッチ: 'threshold_15',
  },
};

const days = ['2026/11/21', '2026/11/22', '2026/11/23'];
const series = (xs: number[]) => Object.fromEntries(days.map((d, i) => [d, xs[i] ?? 0]));
const reactions: ReactionsGraph = {
  business_bookings: series([0, 1, 0]),
  business_conversations: series([2, 0, 1]),
  business_direction_requests: series([5, 6, 7]),
  business_food_orders: series([0, 0, 0]),
  call_clicks: series([1, 2, 3]),
  website_clicks: series([1200, 1300, 1400]),
};

const answers = (over: Record<string, unknown> = {}) => ({
  'POST /dashboard/box-data': ok({ data: boxes }),
  'POST /dashboard/customer-search/1': ok({ data: search }),
  'POST /dashboard/search-keywords/1': ok({ data: keywords }),
  'POST /dashboard/reactions-graph/1': ok({ data: reactions }),
  ...over,
});

const paths = (calls: MockRequest[]) => calls.map((c) => c.path);
const card = (name: string) => screen.getByRole('region', { name });

describe('/dashboard', () => {
  beforeEach(resetState);

  it('shows the six boxes with their badges, the doughnut, the keywords and the actions', async () => {
    const { calls } = mockApi(answers());
    signIn();
    renderAt('/dashboard');
    await waitFor(() => expect(screen.getByTestId('box-view-value')).toHaveTextContent('12,345'));
    expect(screen.getByTestId('box-view-badge')).toHaveTextContent('+12.5%');
    expect(screen.getByTestId('box-search-value')).toHaveTextContent('2,048');
    expect(screen.getByTestId('box-search-badge')).toHaveTextContent('-3.2%');
    expect(screen.getByTestId('box-action-badge')).toHaveTextContent('0%');
    expect(screen.getByTestId('box-website-value')).toHaveTextContent('120');
    expect(screen.getByTestId('box-website-badge')).toHaveTextContent(/^$/);
    expect(screen.getByTestId('box-direction-value')).toHaveTextContent('150');
    expect(screen.getByTestId('box-phone-badge')).toHaveTextContent('-50%');

    const doughnut = card('検索の内訳');
    expect(within(doughnut).getByTestId('doughnut-centre')).toHaveTextContent('合計12,345');
    expect(within(doughnut).getByText('Google 検索（モバイル）')).toBeInTheDocument();
    expect(within(doughnut).getByText('5,345')).toBeInTheDocument();

    const kw = await screen.findByRole('region', { name: '検索キーワード上位10件' });
    expect(within(kw).getByTestId('keywords-total')).toHaveTextContent('1,520');
    const lists = within(kw).getAllByRole('list');
    expect(lists).toHaveLength(2);
    expect(within(lists[0]!).getAllByRole('listitem')).toHaveLength(5);
    expect(within(lists[0]!).getAllByRole('listitem')[0]).toHaveTextContent('1パン屋1,200');
    expect(within(lists[0]!).getAllByRole('listitem')[4]).toHaveTextContent('5202630');
    expect(within(lists[1]!).getAllByRole('listitem')[0]).toHaveTextContent('6食パン20');
    expect(within(lists[1]!).getAllByRole('listitem')).toHaveLength(5);

    const actions = card('ユーザーのアクション');
    // The chart comes with its own chunk (Chart.js), once its card is near the screen.
    expect(await within(actions).findByText('labels: 11/21 | 11/22 | 11/23')).toBeInTheDocument();
    expect(
      within(actions).getByText('ウェブサイトへのアクセス: 1200 | 1300 | 1400'),
    ).toBeInTheDocument();
    expect(within(actions).getByText('ルートの検索: 5 | 6 | 7')).toBeInTheDocument();

    const box = calls.find((c) => c.path === '/dashboard/box-data');
    expect(box?.method).toBe('POST');
    expect(box?.body).toEqual({ user_id: 1, range: '1' });
    expect(calls.find((c) => c.path === '/dashboard/reactions-graph/1')?.body).toEqual({
      user_id: 1,
    });
  });

  it('each period selector calls its own chart again with the chosen range', async () => {
    const { calls } = mockApi(
      answers({
        'POST /dashboard/customer-search/7': ok({
          data: { ...search, business_impressions_mobile_search: 45, total: 7045 },
        }),
        'POST /dashboard/search-keywords/3': ok({ data: keywords }),
        'POST /dashboard/reactions-graph/3': ok({ data: reactions }),
      }),
    );
    signIn();
    renderAt('/dashboard');
    const doughnut = await screen.findByRole('region', { name: '検索の内訳' });
    await userEvent.click(within(doughnut).getByRole('radio', { name: '一週間' }));
    await waitFor(() =>
      expect(within(doughnut).getByTestId('doughnut-centre')).toHaveTextContent('合計7,045'),
    );
    expect(paths(calls)).toContain('/dashboard/customer-search/7');
    expect(paths(calls)).not.toContain('/dashboard/reactions-graph/7');

    const kw = card('検索キーワード上位10件');
    // The keyword card offers one and three months only.
    expect(within(kw).queryByRole('radio', { name: '一週間' })).not.toBeInTheDocument();
    await userEvent.click(within(kw).getByRole('radio', { name: '三ヶ月' }));
    await waitFor(() => expect(paths(calls)).toContain('/dashboard/search-keywords/3'));

    await userEvent.click(
      within(card('ユーザーのアクション')).getByRole('radio', { name: '三ヶ月' }),
    );
    await waitFor(() => expect(paths(calls)).toContain('/dashboard/reactions-graph/3'));
    expect(paths(calls).filter((p) => p === '/dashboard/customer-search/1')).toHaveLength(1);
  });

  it('a failure shows 0 and empty badges in the boxes, and the error message instead of a chart', async () => {
    mockApi(
      answers({
        'POST /dashboard/box-data': fail(422, { user_id: ['店舗が見つかりません。'] }),
        'POST /dashboard/reactions-graph/1': fail(422, { range: ['期間が正しくありません。'] }),
      }),
    );
    signIn();
    renderAt('/dashboard');
    const actions = await screen.findByRole('region', { name: 'ユーザーのアクション' });
    expect(await within(actions).findByText('データが読み込めません。')).toBeInTheDocument();
    expect(within(actions).queryByText(/^labels:/)).not.toBeInTheDocument();
    for (const key of ['view', 'search', 'action', 'website', 'direction', 'phone']) {
      expect(screen.getByTestId(`box-${key}-value`)).toHaveTextContent(/^0$/);
      expect(screen.getByTestId(`box-${key}-badge`)).toHaveTextContent(/^$/);
    }
    // The other charts still draw (their figures come in the deferred render that follows).
    expect(await within(card('検索の内訳')).findByTestId('doughnut-centre')).toHaveTextContent(
      '12,345',
    );
  });

  it('says there is not enough data when a period is all zero', async () => {
    mockApi(
      answers({
        'POST /dashboard/customer-search/1': ok({
          data: {
            business_impressions_desktop_maps: 0,
            business_impressions_mobile_maps: 0,
            business_impressions_desktop_search: 0,
            business_impressions_mobile_search: 0,
            total: 0,
          },
        }),
        'POST /dashboard/reactions-graph/1': ok({
          data: Object.fromEntries(Object.keys(reactions).map((k) => [k, series([0, 0, 0])])),
        }),
      }),
    );
    signIn();
    renderAt('/dashboard');
    const doughnut = await screen.findByRole('region', { name: '検索の内訳' });
    expect(
      await within(doughnut).findByText('選択した期間のデータがまだ十分ではありません。'),
    ).toBeInTheDocument();
    expect(
      await within(card('ユーザーのアクション')).findByText(
        '選択した期間のデータがまだ十分ではありません。',
      ),
    ).toBeInTheDocument();
  });

  it('the 口コミ card: average ★ and its move, new reviews, reply rate and time, a trend', async () => {
    const { calls } = mockApi(
      answers({
        'POST /dashboard/box-data': (req: MockRequest) =>
          (req.body as { range: string }).range === '7'
            ? ok({
                data: {
                  ...boxes,
                  reviews: {
                    ...reviewMetrics,
                    period: { ...reviewMetrics.period, review_count: 3 },
                  },
                },
              })
            : ok({ data: boxes }),
      }),
    );
    signIn();
    renderAt('/dashboard');
    const reviews = await screen.findByRole('region', { name: '口コミ' });
    await waitFor(() =>
      expect(within(reviews).getByTestId('reviews-average-value')).toHaveTextContent('★ 4.2'),
    );
    const trend = within(reviews).getByTestId('reviews-trend');
    expect(trend).toHaveTextContent('+0.14');
    expect(trend).toHaveAccessibleName('期間のはじめから +0.14');
    expect(within(reviews).getByTestId('reviews-count-value')).toHaveTextContent('12件');
    expect(within(reviews).getByText('累計 52件')).toBeInTheDocument();
    expect(within(reviews).getByTestId('reviews-reply-rate-value')).toHaveTextContent('75%');
    expect(within(reviews).getByText('12件中 9件に返信')).toBeInTheDocument();
    expect(within(reviews).getByTestId('reviews-reply-time-value')).toHaveTextContent('10.5時間');
    expect(
      within(reviews).getByRole('img', {
        name: '口コミ数と平均評価の推移: 11/21 2, 11/22 0, 11/23 10',
      }),
    ).toBeInTheDocument();
    // Its own period: box-data again for a week; the boxes keep theirs.
    await userEvent.click(within(reviews).getByRole('radio', { name: '一週間' }));
    await waitFor(() =>
      expect(within(reviews).getByTestId('reviews-count-value')).toHaveTextContent('3件'),
    );
    const ranges = calls
      .filter((c) => c.path === '/dashboard/box-data')
      .map((c) => (c.body as { range: string }).range);
    // The boxes and the card share the one-month call.
    expect(ranges.filter((r) => r === '1')).toHaveLength(1);
    expect(ranges).toContain('7');
  });

  it.each([
    [
      'not_connected',
      'Google ビジネスプロフィールと連携していないため、口コミの指標はありません。',
    ],
    ['not_synced', '口コミをまだ Google から取得していません。取得が済むと表示されます。'],
  ] as const)('the 口コミ card of a store %s says so, with no zeros', async (status, text) => {
    mockApi(
      answers({
        'POST /dashboard/box-data': ok({
          data: {
            ...boxes,
            reviews: { ...reviewMetrics, status, synced_at: null, period: null, series: {} },
          },
        }),
      }),
    );
    signIn();
    renderAt('/dashboard');
    const reviews = await screen.findByRole('region', { name: '口コミ' });
    expect(await within(reviews).findByTestId('reviews-status')).toHaveTextContent(text);
    expect(within(reviews).queryByTestId('reviews-count-value')).toBeNull();
    expect(within(reviews).queryByText(/^0/)).toBeNull();
  });

  it('the payment panel comes first: no figures are asked for', async () => {
    const { calls } = mockApi(answers());
    signIn({ role: 0, in_trial: false });
    renderAt('/dashboard');
    expect(await screen.findByTestId('pay-required')).toBeInTheDocument();
    expect(paths(calls).some((p) => p.startsWith('/dashboard/'))).toBe(false);
  });
});

describe('/dashboard-chart', () => {
  beforeEach(resetState);

  it('draws views, where the listing was seen and calls, each with its period', async () => {
    const { calls } = mockApi({
      'POST /dashboard/customer-view/1': ok({
        data: { views: series([100, 2000, 300]), total: 2400 },
      }),
      'POST /dashboard/impressions-graph/1': ok({
        data: {
          business_impressions_desktop_maps: series([1, 2, 3]),
          business_impressions_mobile_maps: series([4, 5, 6]),
          business_impressions_desktop_search: series([7, 8, 9]),
          business_impressions_mobile_search: series([10, 11, 12]),
        },
      }),
      'POST /dashboard/customer-call/1': ok({ data: { call_clicks: series([1, 0, 2]), total: 3 } }),
      'POST /dashboard/customer-call/7': fail(422, { range: ['期間が正しくありません。'] }),
    });
    signIn();
    renderAt('/dashboard-chart');
    const views = await screen.findByRole('region', { name: '表示回数の推移' });
    expect(await within(views).findByText('表示回数: 100 | 2000 | 300')).toBeInTheDocument();
    // The screen is named by its one h1, and each chart is an image with a name (ADR 0073).
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('推移グラフ');
    expect(within(views).getByRole('img', { name: '表示回数の推移' })).toBeInTheDocument();
    expect(within(views).getByText('2,400')).toBeInTheDocument();
    expect(
      await within(card('表示された場所の推移')).findByText(
        'Google 検索（モバイル）: 10 | 11 | 12',
      ),
    ).toBeInTheDocument();
    const callsCard = card('通話の推移');
    expect(await within(callsCard).findByText('通話: 1 | 0 | 2')).toBeInTheDocument();
    await userEvent.click(within(callsCard).getByRole('radio', { name: '一週間' }));
    expect(await within(callsCard).findByText('データが読み込めません。')).toBeInTheDocument();
    expect(within(callsCard).queryByText(/^通話:/)).not.toBeInTheDocument();
    expect(paths(calls)).toContain('/dashboard/customer-call/7');
  });
});

describe('/dashboard for an agency', () => {
  beforeEach(resetState);

  const agency = { id: 6, role: 11, email: 'agency@tenpo.example' } as const;
  const row = (id: number): StoreRow => ({
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

  it('loads again for the newly selected store', async () => {
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData(agency)),
      'GET /agency/stores': ok({ data: [], current_page: 1, last_page: 1, total: 0, per_page: 5 }),
      'GET /agency/groups': ok([]),
      'POST /dashboard/box-data': (req) =>
        ok({
          data: { ...boxes, view_total: (req.body as { user_id: number }).user_id * 1000 },
        }),
    });
    signIn(agency);
    selectStores([row(8)], null);
    renderAt('/dashboard');
    await waitFor(() => expect(screen.getByTestId('box-view-value')).toHaveTextContent('8,000'));
    act(() => selectStores([row(9)], null));
    await waitFor(() => expect(screen.getByTestId('box-view-value')).toHaveTextContent('9,000'));
    const users = calls
      .filter((c) => c.path.startsWith('/dashboard/'))
      .map((c) => (c.body as { user_id: number }).user_id);
    expect(new Set(users)).toEqual(new Set([8, 9]));
    expect(calls.filter((c) => c.path === '/dashboard/reactions-graph/1')).toHaveLength(2);
  });

  it('/dashboard-chart without a selected store sends the agency to the dashboard', async () => {
    mockApi({
      'GET /refresh-token': ok(loginData(agency)),
      'GET /agency/stores': ok({ data: [], current_page: 1, last_page: 1, total: 0, per_page: 5 }),
      'GET /agency/groups': ok([]),
    });
    signIn(agency);
    const { router } = renderAt('/dashboard-chart');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(
      await screen.findByText('上部の「店舗を選択」から店舗を選んでください。'),
    ).toBeInTheDocument();
  });
});
