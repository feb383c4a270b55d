import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { LoginResponseData, User } from '@tenpo/domain';
import { Providers } from '../app/providers';
import { followDocumentTitle } from '../app/document-title';
import { routes } from '../app/routes';
import { brandTitle, DEFAULT_TITLE } from '../lib/branding';
import { createQueryClient } from '../lib/query-client';
import { applyLogin, clearSession } from '../lib/session';
import { clearSelection } from '../lib/selection';

export type MockReply =
  | { status?: number; body: unknown }
  | ((req: MockRequest) => { status?: number; body: unknown });
export type MockRequest = {
  method: string;
  path: string;
  url: URL;
  headers: Headers;
  body: unknown;
};

/**
 * Calls that no table answered. A caller may swallow the error thrown at it (a token rotation
 * treats any failure as "signed out"), so the suite's afterEach also fails the test on them.
 */
export const unexpectedCalls: string[] = [];

const zeroBoxes = {
  view_total: 0,
  percent_view_total: null,
  search_keywords_total: 0,
  percent_search_keywords_total: null,
  action_total: 0,
  percent_action_total: null,
  action_website: 0,
  percent_action_website: null,
  action_driving_direction: 0,
  percent_action_driving_direction: null,
  action_phone: 0,
  percent_action_phone: null,
};

const emptyYears = { current_year: {}, latest_year: {} };
const QUIET: Record<string, unknown> = {
  'box-data': zeroBoxes,
  'search-keywords': { search_keywords_total: 0, search_keywords: {} },
  'customer-search': { total: 0 },
  'single-store/adjustment-period': { months: {}, total: {} },
  'single-store/fixed-period': {
    search_graph: emptyYears,
    impressions_graph: emptyYears,
    reactions_graph: emptyYears,
  },
  'multiple-store/adjustment-period': { stores: {}, not_linked: [] },
};

/**
 * /dashboard is where most shell tests land, and the side bar leads to /report: both load their
 * figures at once. Unless a table answers those reads itself, they get a store with no figures
 * yet (ADR 0037). Exports (CSV) are never answered by default.
 */
const quietReports = (method: string, path: string): MockReply | undefined => {
  const m =
    /^\/(?:dashboard\/([a-z-]+)(?:\/[^/]+)?|report\/([a-z-]+\/adjustment-period|single-store\/fixed-period))$/.exec(
      path,
    );
  if (method !== 'POST' || !m) return undefined;
  const key = m[1] ?? m[2] ?? '';
  return ok({ data: QUIET[key] ?? {} });
};

/** The header's bell reads the user's notices on every screen: none, unless a table answers. */
const quietNotices = (method: string, path: string): MockReply | undefined =>
  method === 'GET' && path === '/notices'
    ? ok({
        data: {
          data: [],
          current_page: 1,
          last_page: 1,
          total: 0,
          per_page: 10,
          from: null,
          to: null,
        },
        unread: 0,
      })
    : undefined;

/**
 * Replaces fetch with a table of answers keyed "METHOD /path" (the path after /api, without
 * the query). An unexpected call fails the test loudly.
 */
export const mockApi = (table: Record<string, MockReply>) => {
  const calls: MockRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(/^\/api/, '');
    let body: unknown = init?.body;
    if (typeof body === 'string') body = JSON.parse(body);
    const req: MockRequest = { method, path, url, headers: new Headers(init?.headers), body };
    calls.push(req);
    const reply =
      table[`${method} ${path}`] ?? quietReports(method, path) ?? quietNotices(method, path);
    if (!reply) {
      unexpectedCalls.push(`${method} ${path}`);
      throw new Error(`unexpected call ${method} ${path}`);
    }
    const r = typeof reply === 'function' ? reply(req) : reply;
    return new Response(JSON.stringify(r.body), {
      status: r.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
};

export const ok = <T,>(data: T, message?: string) => ({
  body: { status_code: 200, ...(message ? { message } : {}), data },
});
export const fail = (status: number, errors: Record<string, string[]>, message = 'error') => ({
  status,
  body: { status_code: status, message, errors },
});

export const demoUser = (over: Partial<User> = {}): User => ({
  id: 1,
  email: 'shop@tenpo.example',
  name: '青木 翼',
  role: 1,
  is_leader: false,
  agreed_terms: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  phone: '0312345678',
  company_name: '青木ベーカリー株式会社',
  store_name: '青木ベーカリー 恵比寿店',
  logo_url: null,
  agent_code: '0000',
  in_trial: false,
  trial_ends_at: null,
  payment_fail: false,
  agency_logo: null,
  status: 1,
  ...over,
});

export const loginData = (over: Partial<User> = {}, connect = true): LoginResponseData => ({
  token: 'token-1',
  connect_GMB: connect,
  user: demoUser(over),
});

/** Starts signed in (as after a login in this tab). */
export const signIn = (over: Partial<User> = {}, connect = true): void => {
  applyLogin(loginData(over, connect));
};

let stopTitle = (): void => undefined;

/** Renders the whole app at `path` in a memory router. */
export const renderAt = (path: string) => {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // One router's title at a time: the previous test's router stops following.
  stopTitle();
  stopTitle = followDocumentTitle(router);
  const utils = render(
    <Providers client={createQueryClient()} env="test">
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...utils, router };
};

export const resetState = (): void => {
  clearSession();
  clearSelection();
  brandTitle.set(DEFAULT_TITLE);
};

/**
 * The reads of /register-payment for a store with nothing chosen yet (issue 13): for tests that
 * only pass through the payment settings (a pay-required panel's button, a report's prompt).
 */
export const paymentReads = (): Record<string, MockReply> => ({
  'GET /payment/provider': ok({
    token_script_url: 'http://sandbox.test/sbps/sbpstoken/com_sbps_system_token.js',
    merchant_id: '30132',
    service_id: '103',
  }),
  'GET /payment-methods': ok([
    { key: 'credit_card', name: 'クレジットカード', payment_btn_disable: false },
    { key: 'agency_invoice', name: '代理店請求', payment_btn_disable: true },
  ]),
  'GET /payment-plans': ok([
    { key: 1, name: 'スタンダード', price: 6980, amount: 6980 },
    { key: 2, name: 'プレミアム', price: 20000, amount: 20000 },
  ]),
  'GET /payment/selected-payment-method': ok(null),
  'GET /payment/selected-payment-plan': ok(null),
  'GET /payment/credit-card/reference': ok(null),
});
