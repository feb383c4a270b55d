import type {
  AdjustmentReport,
  BoxData,
  CsvExport,
  CustomerCall,
  CustomerSearch,
  CustomerView,
  FixedReport,
  ImpressionsGraph,
  MultiStoreReport,
  MultiStoreReviews,
  ReactionsGraph,
  SearchKeywords,
} from '@tenpo/domain';
import { API_BASE } from '@/lib/env';
import { api, apiBlob } from '@/lib/api-client';

/** The dashboard and report calls of spec 3 §7: all POST, the answer is the envelope's `data.data`. */

const post = async <T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> =>
  (await api<{ data: T }>(path, { method: 'POST', body, signal })).data.data;

export type DashboardCall =
  | 'customer-search'
  | 'customer-call'
  | 'customer-view'
  | 'reactions-graph'
  | 'search-keywords'
  | 'impressions-graph';

export type DashboardAnswer = {
  'customer-search': CustomerSearch;
  'customer-call': CustomerCall;
  'customer-view': CustomerView;
  'reactions-graph': ReactionsGraph;
  'search-keywords': SearchKeywords;
  'impressions-graph': ImpressionsGraph;
};

export const reportKeys = {
  box: (userId: number, range: string) => ['dashboard', 'box-data', userId, range] as const,
  chart: (call: DashboardCall, userId: number, range: string) =>
    ['dashboard', call, userId, range] as const,
  fixed: (userId: number) => ['report', 'fixed', userId] as const,
  adjustment: (userId: number, start: string, end: string) =>
    ['report', 'adjustment', userId, start, end] as const,
  multiple: (ids: readonly number[], start: string, end: string) =>
    ['report', 'multiple', ids.join(','), start, end] as const,
};

export const boxDataCall = (userId: number, range: string, signal?: AbortSignal) =>
  post<BoxData>('/dashboard/box-data', { user_id: userId, range }, signal);

export const dashboardChartCall = <C extends DashboardCall>(
  call: C,
  userId: number,
  range: string,
  signal?: AbortSignal,
): Promise<DashboardAnswer[C]> =>
  post<DashboardAnswer[C]>(
    `/dashboard/${call}/${encodeURIComponent(range)}`,
    { user_id: userId },
    signal,
  );

export const fixedReportCall = (userId: number, signal?: AbortSignal) =>
  post<FixedReport>(
    '/report/single-store/fixed-period',
    { user_id: userId, fixed_report: true },
    signal,
  );

export type ReportRange = { start_date: string; end_date: string };

export const adjustmentReportCall = (userId: number, r: ReportRange, signal?: AbortSignal) =>
  post<AdjustmentReport>(
    '/report/single-store/adjustment-period',
    { user_id: userId, ...r },
    signal,
  );

export const multipleReportCall = (ids: readonly number[], r: ReportRange, signal?: AbortSignal) =>
  post<MultiStoreReport>(
    '/report/multiple-store/adjustment-period',
    { user_id: [...ids], ...r },
    signal,
  );

/** Beyond the spec (issue 25 item 7): each store's reviews over the range, keyed as `stores`. */
export const multipleReviewsCall = (ids: readonly number[], r: ReportRange, signal?: AbortSignal) =>
  post<MultiStoreReviews>('/report/multiple-store/reviews', { user_id: [...ids], ...r }, signal);

/** The CSV call answers `{ status_code, data: { csv_url } }` (no inner `data`). */
export const csvCall = async (
  kind: 'single' | 'multiple',
  body: { user_id: number | number[] } & ReportRange,
): Promise<string> =>
  (
    await api<CsvExport['data']>(`/report/${kind === 'single' ? 'single' : 'multiple'}-store/csv`, {
      method: 'POST',
      body,
    })
  ).data.csv_url;

/**
 * The CSV itself, fetched with the session (the URL works only for a session that may act for
 * every store in it). An absolute URL of this site or an `/api/…` path goes through the API
 * client; the path after the API base is what it wants.
 */
export const csvFileCall = (csvUrl: string): Promise<Blob> => {
  const url = new URL(csvUrl, window.location.origin);
  const path = url.pathname.startsWith(`${API_BASE}/`)
    ? url.pathname.slice(API_BASE.length)
    : url.pathname;
  return apiBlob(`${path}${url.search}`);
};
