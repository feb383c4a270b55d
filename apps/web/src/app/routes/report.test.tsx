import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import {
  sliderMonth,
  sliderRange,
  tokyoDay,
  type AdjustmentReport,
  type FixedReport,
  type MonthFigures,
  type MultiStoreReport,
  type MultiStoreReviews,
  type ReviewFigures,
  type ReviewMetrics,
  type StoreRow,
  type User,
} from '@tenpo/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syncSelection } from '../../lib/selection';
import { useCsvExport } from '../../features/reports/use-csv-export';
import {
  fail,
  loginData,
  mockApi,
  ok,
  paymentReads,
  renderAt,
  resetState,
  signIn,
  type MockRequest,
} from '../../test/render';

const pdf = vi.hoisted(() => ({
  addImage: vi.fn(),
  addPage: vi.fn(),
  save: vi.fn(),
  html2canvas: vi.fn(),
}));
vi.mock('jspdf', () => ({
  jsPDF: class {
    addImage = pdf.addImage;
    addPage = pdf.addPage;
    save = pdf.save;
  },
}));
vi.mock('html2canvas', () => ({ default: pdf.html2canvas }));

const figures = (n: number): MonthFigures => ({
  business_impressions_desktop_maps: n,
  business_impressions_mobile_maps: n * 2,
  business_impressions_desktop_search: n * 3,
  business_impressions_mobile_search: n * 4,
  business_bookings: 1,
  business_conversations: 2,
  business_direction_requests: n,
  business_food_orders: 0,
  call_clicks: 3,
  website_clicks: n * 5,
  search_keywords: n * 10,
});

const reviewMonth = (review_count: number, average_rating: number | null): ReviewFigures => ({
  review_count,
  total_review_count: 20 + review_count,
  average_rating,
  period_average_rating: average_rating,
  replied_count: review_count,
  reply_rate: review_count ? 100 : null,
  median_reply_hours: review_count ? 3 : null,
});

/** The range's reviews (issue 25 item 7): 8 new, ★4.3 held at the end, replied after ~2 days. */
const reviewMetrics: ReviewMetrics = {
  status: 'ready',
  synced_at: '2026-11-24T00:15:00.000Z',
  starting_average_rating: 4.05,
  period: {
    review_count: 8,
    total_review_count: 28,
    average_rating: 4.3,
    period_average_rating: 4.6,
    replied_count: 5,
    reply_rate: 62.5,
    median_reply_hours: 50,
  },
  series: { '2026/10': reviewMonth(3, 4.1), '2026/11': reviewMonth(5, 4.3) },
};

const adjustment = (r: { start_date: string; end_date: string }): AdjustmentReport => ({
  ...r,
  months: { '2026/10': figures(100), '2026/11': figures(1200) },
  total: figures(1300),
  reviews: reviewMetrics,
});

const fixed: FixedReport = {
  search_graph: {
    current_year: { '01': 500, '02': 600 },
    latest_year: { '01': 300, '02': 400 },
  },
  // As JSON.parse builds it: the integer-like '10' comes first.
  impressions_graph: JSON.parse(
    '{"current_year":{"01":50,"02":60,"10":70},"latest_year":{"01":30,"02":40,"10":45}}',
  ) as FixedReport['impressions_graph'],
  reactions_graph: { current_year: { '01': 5, '02': 6 }, latest_year: { '01': 3, '02': 4 } },
};

const today = () => tokyoDay(Date.now());
const slash = (d: string) => d.replaceAll('-', '/');
const adjustmentCalls = (calls: MockRequest[]) =>
  calls.filter((c) => c.path === '/report/single-store/adjustment-period');

const singleApi = (over: Record<string, unknown> = {}) =>
  mockApi({
    'POST /report/single-store/adjustment-period': (req) =>
      ok({ data: adjustment(req.body as { start_date: string; end_date: string }) }),
    'POST /report/single-store/fixed-period': ok({ data: fixed }),
    ...over,
  });

const card = (name: string) => screen.getByRole('region', { name });

describe('/report', () => {
  beforeEach(() => {
    resetState();
    pdf.addImage.mockReset();
    pdf.addPage.mockReset();
    pdf.save.mockReset();
    pdf.html2canvas.mockReset();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads the last six months and this year against last year, and draws them', async () => {
    const { calls } = singleApi();
    signIn();
    renderAt('/report');
    const range = sliderRange(-6, 0, today());
    expect(await screen.findByTestId('report-range')).toHaveTextContent(
      `${slash(range.start_date)} 〜 ${slash(range.end_date)}`,
    );
    const search = await screen.findByRole('region', { name: 'ビジネスプロフィールの検索' });
    // The region is drawn with a loader until its chart's chunk and figures are in.
    expect(await within(search).findByText('labels: 2026/10 | 2026/11')).toBeInTheDocument();
    expect(within(search).getByText('Google 検索（モバイル）: 400 | 4800')).toBeInTheDocument();
    expect(
      within(card('検索キーワード経由の表示')).getByText('検索キーワード経由の表示: 1000 | 12000'),
    ).toBeInTheDocument();
    expect(within(card('ユーザーのアクション')).getAllByText(/^予約: 1 \| 1$/)).toHaveLength(1);
    const maps = await screen.findByRole('region', { name: 'Google マップでの表示' });
    // The region is drawn with a loader until its chart's chunk and figures are in.
    expect(await within(maps).findByText('labels: 1月 | 2月 | 10月')).toBeInTheDocument();
    expect(within(maps).getByText('昨年: 30 | 40 | 45')).toBeInTheDocument();
    expect(within(maps).getByText('今年: 50 | 60 | 70')).toBeInTheDocument();
    expect(adjustmentCalls(calls)).toHaveLength(1);
    expect(adjustmentCalls(calls)[0]?.body).toEqual({ user_id: 1, ...range });
    expect(calls.find((c) => c.path === '/report/single-store/fixed-period')?.body).toEqual({
      user_id: 1,
      fixed_report: true,
    });
  });

  it('the slider shows its dates at once and reloads once, after 600 ms of quiet', async () => {
    const { calls } = singleApi();
    signIn();
    renderAt('/report');
    await screen.findByRole('region', { name: 'ビジネスプロフィールの検索' });
    expect(adjustmentCalls(calls)).toHaveLength(1);
    const start = screen.getByRole('slider', { name: '開始月' });
    expect(start).toHaveAttribute('aria-valuenow', '-6');
    // Read aloud as the month it stands for, in Japanese (ADR 0073).
    const [y, m] = sliderMonth(-6, today()).split('-');
    expect(start).toHaveAttribute('aria-valuetext', `${y}年${Number(m)}月`);
    expect(screen.getByRole('slider', { name: '終了月' })).toHaveAttribute(
      'aria-valuetext',
      `${today().slice(0, 4)}年${Number(today().slice(5, 7))}月`,
    );

    vi.useFakeTimers({ shouldAdvanceTime: false });
    act(() => start.focus());
    for (let i = 0; i < 3; i++) {
      fireEvent.keyDown(start, { key: 'ArrowLeft' });
      await act(() => vi.advanceTimersByTimeAsync(300));
    }
    const moved = sliderRange(-9, 0, today());
    expect(screen.getByTestId('report-range')).toHaveTextContent(slash(moved.start_date));
    expect(screen.getByText('レポートを読み込み中…')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(299));
    expect(adjustmentCalls(calls)).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await act(() => vi.advanceTimersByTimeAsync(50));
    vi.useRealTimers();
    await waitFor(() => expect(adjustmentCalls(calls)).toHaveLength(2));
    expect(adjustmentCalls(calls)[1]?.body).toEqual({ user_id: 1, ...moved });
    await waitFor(() =>
      expect(screen.queryByText('レポートを読み込み中…')).not.toBeInTheDocument(),
    );
  });

  it('a report error replaces the charts with a red message', async () => {
    singleApi({
      'POST /report/single-store/adjustment-period': fail(422, {
        start_date: ['開始日が正しくありません。'],
      }),
    });
    signIn();
    renderAt('/report');
    const error = await screen.findByTestId('report-error');
    expect(error).toHaveTextContent('データが読み込めません。');
    expect(screen.queryByRole('region', { name: 'ビジネスプロフィールの検索' })).toBeNull();
    // The yearly comparison answered: it stays.
    expect(
      await screen.findByRole('region', { name: 'Google マップでの表示' }),
    ).toBeInTheDocument();
  });

  it('CSV: a spinner while it runs, a second press ignored, then the file is saved', async () => {
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const { calls, fetchMock } = singleApi({
      'POST /report/single-store/csv': ok({ csv_url: 'http://localhost/api/report/csv/abc?e=1' }),
      'GET /report/csv/abc': ok('csv'),
    });
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/report/single-store/csv')) await held;
      return fetchMock(input, init);
    });
    const created = vi.fn(() => 'blob:report');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    signIn();
    renderAt('/report');
    await screen.findByRole('region', { name: 'ビジネスプロフィールの検索' });
    const button = screen.getByRole('button', { name: 'CSV ダウンロード' });
    fireEvent.click(button);
    await waitFor(() => expect(button).toHaveAttribute('data-loading'));
    fireEvent.click(button);
    release();
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(button).not.toHaveAttribute('data-loading'));
    const csvCalls = calls.filter((c) => c.path === '/report/single-store/csv');
    expect(csvCalls).toHaveLength(1);
    const range = sliderRange(-6, 0, today());
    expect(csvCalls[0]?.body).toEqual({ user_id: 1, ...range });
    const file = calls.find((c) => c.path === '/report/csv/abc');
    expect(file?.url.searchParams.get('e')).toBe('1');
    expect(file?.headers.get('Authorization')).toBe('Bearer token-1');
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe(
      `report_${range.start_date.replaceAll('-', '')}-${range.end_date.replaceAll('-', '')}.csv`,
    );
  });

  it('CSV: a failure shows the first server error as a danger notice', async () => {
    singleApi({
      'POST /report/single-store/csv': fail(422, {
        end_date: ['終了日は開始日以降の日付を指定してください。', '二つ目'],
      }),
    });
    signIn();
    renderAt('/report');
    await screen.findByRole('region', { name: 'ビジネスプロフィールの検索' });
    await userEvent.click(screen.getByRole('button', { name: 'CSV ダウンロード' }));
    expect(
      await screen.findByText('終了日は開始日以降の日付を指定してください。'),
    ).toBeInTheDocument();
    expect(screen.queryByText('二つ目')).not.toBeInTheDocument();
  });

  it('CSV: a missing date shows the specify-the-periods notice and calls nothing', async () => {
    const { calls } = mockApi({});
    const show = vi.spyOn(notifications, 'show');
    const { result } = renderHook(() => useCsvExport());
    await act(() => result.current.run('single', 1, { start_date: '2026-01-01', end_date: '' }));
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ color: 'red', message: '集計期間を指定してください。' }),
    );
    expect(calls).toHaveLength(0);
  });

  it('PDF: two A4 pages at scale 2 and 800 px, with a spinner meanwhile', async () => {
    singleApi();
    pdf.html2canvas.mockResolvedValue({
      width: 1600,
      height: 2000,
      toDataURL: () => 'data:image/jpeg;base64,',
    });
    signIn();
    renderAt('/report');
    await screen.findByRole('region', { name: 'Google マップでの表示' });
    const button = screen.getByRole('button', { name: 'PDF ダウンロード' });
    fireEvent.click(button);
    await waitFor(() => expect(button).toHaveAttribute('data-loading'));
    await waitFor(() => expect(pdf.save).toHaveBeenCalledTimes(1));
    expect(pdf.html2canvas).toHaveBeenCalledTimes(2);
    expect(pdf.html2canvas.mock.calls[0]?.[1]).toMatchObject({ scale: 2, width: 800 });
    expect(pdf.addPage).toHaveBeenCalledTimes(1);
    expect(pdf.addImage).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(button).not.toHaveAttribute('data-loading'));
  });

  it('a free user pressing download is offered the payment settings, or cancel', async () => {
    // Leaving for /register-payment is a route change, which rotates the session.
    const { calls } = singleApi({
      'GET /refresh-token': ok(loginData({ role: 0, in_trial: true })),
      ...paymentReads(),
    });
    signIn({ role: 0, in_trial: true });
    const { router } = renderAt('/report');
    await screen.findByRole('region', { name: 'ビジネスプロフィールの検索' });
    await userEvent.click(screen.getByRole('button', { name: 'CSV ダウンロード' }));
    let dialog = await screen.findByRole('dialog', { name: '有料プランの機能です' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'PDF ダウンロード' }));
    dialog = await screen.findByRole('dialog', { name: '有料プランの機能です' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'お支払い設定へ' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register-payment'));
    await waitFor(() => expect(calls.some((c) => c.path === '/refresh-token')).toBe(true));
    expect(calls.some((c) => c.path.endsWith('/csv'))).toBe(false);
    expect(pdf.html2canvas).not.toHaveBeenCalled();
  });
});

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
const agencyUser: Partial<User> = { id: 6, role: 11, email: 'agency@tenpo.example' };
const multi: MultiStoreReport = {
  start_date: '2026-05-01',
  end_date: '2026-11-24',
  stores: { 店舗8: figures(10), 店舗9: figures(20), 店舗11: figures(0) },
  not_linked: [{ id: 10, name: '店舗10' }],
};
const multiReviews: MultiStoreReviews = {
  start_date: '2026-05-01',
  end_date: '2026-11-24',
  reviews: {
    店舗8: {
      status: 'ready',
      synced_at: '2026-11-24T01:00:00.000Z',
      period: {
        review_count: 12,
        total_review_count: 40,
        average_rating: 4.25,
        period_average_rating: 4,
        replied_count: 9,
        reply_rate: 75,
        median_reply_hours: 30.5,
      },
    },
    店舗9: { status: 'not_connected', synced_at: null, period: null },
    店舗11: { status: 'not_synced', synced_at: null, period: null },
  },
};

const agencyApi = (over: Record<string, unknown> = {}) =>
  mockApi({
    'GET /refresh-token': ok(loginData(agencyUser)),
    'GET /agency/stores': ok({
      data: [store(8), store(9), store(10)],
      current_page: 1,
      last_page: 1,
      total: 3,
      per_page: 5,
      from: 1,
      to: 3,
    }),
    'GET /agency/groups': ok([]),
    'POST /report/multiple-store/adjustment-period': ok({ data: multi }),
    'POST /report/multiple-store/reviews': ok({ data: multiReviews }),
    'POST /report/single-store/adjustment-period': (req) =>
      ok({ data: adjustment(req.body as { start_date: string; end_date: string }) }),
    'POST /report/single-store/fixed-period': ok({ data: fixed }),
    ...over,
  });

describe('/report: the 口コミ section (issue 25 item 7)', () => {
  beforeEach(resetState);

  it('the 口コミ section: the range’s figures, new reviews a month and the average held', async () => {
    singleApi();
    signIn();
    renderAt('/report');
    const section = await screen.findByTestId('report-reviews');
    // It is drawn in the second PDF page.
    expect(screen.getByTestId('report-page-2')).toContainElement(section);
    const range = sliderRange(-6, 0, today());
    expect(within(section).getByRole('heading', { level: 3 })).toHaveTextContent(
      `口コミ（${slash(range.start_date)} 〜 ${slash(range.end_date)}）`,
    );
    await waitFor(() =>
      expect(within(section).getByTestId('reviews-average-value')).toHaveTextContent('★ 4.3'),
    );
    expect(within(section).getByTestId('reviews-count-value')).toHaveTextContent('8件');
    expect(within(section).getByTestId('reviews-reply-rate-value')).toHaveTextContent('62.5%');
    expect(within(section).getByTestId('reviews-reply-time-value')).toHaveTextContent('2.1日');
    const counts = within(section).getByRole('region', { name: '口コミ数の推移' });
    expect(await within(counts).findByText('新しい口コミ: 3 | 5')).toBeInTheDocument();
    expect(within(counts).getByText('labels: 2026/10 | 2026/11')).toBeInTheDocument();
    const average = within(section).getByRole('region', { name: '平均評価の推移（累計）' });
    expect(await within(average).findByText('平均評価: 4.1 | 4.3')).toBeInTheDocument();
  });

  it('the 口コミ section of a store without Google says so instead of figures', async () => {
    singleApi({
      'POST /report/single-store/adjustment-period': (req: MockRequest) =>
        ok({
          data: {
            ...adjustment(req.body as { start_date: string; end_date: string }),
            reviews: {
              status: 'not_connected',
              synced_at: null,
              starting_average_rating: null,
              period: null,
              series: {},
            },
          },
        }),
    });
    signIn();
    renderAt('/report');
    const section = await screen.findByTestId('report-reviews');
    expect(await within(section).findByTestId('reviews-status')).toHaveTextContent(
      'Google ビジネスプロフィールと連携していないため、口コミの指標はありません。',
    );
    expect(within(section).queryByRole('region', { name: '口コミ数の推移' })).toBeNull();
  });
});

describe('/report-multiple', () => {
  beforeEach(resetState);

  it('several stores on /report go to /report-multiple: one bar per store, unlinked stores named', async () => {
    const { calls } = agencyApi();
    signIn(agencyUser);
    localStorage.setItem('userIds', '8,9,10');
    syncSelection();
    const { router } = renderAt('/report');
    await waitFor(() => expect(router.state.location.pathname).toBe('/report-multiple'));
    const search = await screen.findByRole('region', { name: 'ビジネスプロフィールの検索' });
    // The region is drawn with a loader until its chart's chunk and figures are in.
    expect(await within(search).findByText('labels: 店舗8 | 店舗9 | 店舗11')).toBeInTheDocument();
    expect(within(search).getByText('Google マップ（パソコン）: 10 | 20 | 0')).toBeInTheDocument();
    const notice = screen.getByTestId('not-linked');
    expect(notice).toHaveTextContent('連携していない店舗があります');
    expect(within(notice).getByRole('listitem')).toHaveTextContent('店舗10');
    const body = calls.find((c) => c.path === '/report/multiple-store/adjustment-period')?.body;
    expect(body).toEqual({ user_id: [8, 9, 10], ...sliderRange(-6, 0, today()) });
    expect(calls.some((c) => c.path === '/report/single-store/adjustment-period')).toBe(false);
    // No yearly comparison for several stores.
    expect(screen.queryByRole('region', { name: 'Google マップでの表示' })).toBeNull();
  });

  it('the 口コミ table: a row a store with the single report’s figures, — and why without them', async () => {
    agencyApi();
    signIn(agencyUser);
    localStorage.setItem('userIds', '8,9,10');
    syncSelection();
    renderAt('/report-multiple');
    const range = sliderRange(-6, 0, today());
    const section = await screen.findByRole('region', {
      name: `口コミ（${slash(range.start_date)} 〜 ${slash(range.end_date)}）`,
    });
    // Drawn in the PDF's second page, after the spec's charts.
    expect(screen.getByTestId('report-page-2')).toContainElement(section);
    const table = within(section).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['店舗名', '平均評価', '新しい口コミ', '返信率', '返信までの時間（中央値）']);
    await within(table).findByText('店舗8');
    const rows = within(table).getAllByRole('row');
    const cells = (name: string) =>
      within(rows.find((r) => within(r).queryByText(name)) as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells('店舗8')).toEqual(['店舗8', '★ 4.3', '12件', '75%', '30.5時間']);
    // Never zeros for a store Tenpo cannot see: — and the reason.
    expect(cells('店舗9')).toEqual(['店舗9Google 未連携', '—', '—', '—', '—']);
    expect(cells('店舗11')).toEqual(['店舗11未取得', '—', '—', '—', '—']);
    expect(within(table).getAllByTitle('口コミの指標なし（未取得）')).toHaveLength(4);
    // The store without a Google location is in the notice, not in the table.
    expect(within(table).queryByText('店舗10')).toBeNull();
    // Phones: the table becomes a card a store (cards-on-phone), each cell under its label.
    expect(table.closest('.cards-on-phone')).not.toBeNull();
    expect(within(table).getAllByTestId('store-reviews-average')[0]).toHaveAttribute(
      'data-label',
      '平均評価',
    );
  });

  it('one store or none sends /report-multiple back to /report', async () => {
    const { calls } = agencyApi();
    signIn(agencyUser);
    localStorage.setItem('userIds', '8');
    syncSelection();
    const { router } = renderAt('/report-multiple');
    await waitFor(() => expect(router.state.location.pathname).toBe('/report'));
    await screen.findByRole('region', { name: 'Google マップでの表示' });
    expect(calls.find((c) => c.path === '/report/single-store/adjustment-period')?.body).toEqual({
      user_id: 8,
      ...sliderRange(-6, 0, today()),
    });
    expect(calls.some((c) => c.path === '/report/multiple-store/adjustment-period')).toBe(false);
  });
});
