import { createHmac } from 'node:crypto';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  adjustmentReportSchema,
  boxDataBody,
  boxDataSchema,
  csvDownloadQuery,
  csvExportSchema,
  customerCallSchema,
  customerSearchSchema,
  customerViewSchema,
  dashboardBody,
  dashboardRangeParams,
  dashboardTimeRangeParams,
  DEFAULT_DASHBOARD_RANGE,
  fixedReportBody,
  fixedReportSchema,
  impressionsGraphSchema,
  ja,
  keywordTimeRangeParams,
  multiReportBody,
  multiStoreReportSchema,
  multiStoreReviewsSchema,
  ok,
  reactionsGraphSchema,
  searchKeywordsSchema,
  singleReportBody,
} from '@tenpo/domain';
import type { StoreName } from '../users/users.repo';
import type { Clock } from '../../lib/clock';
import { AppError, validationError } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import { createUrlSigner } from '../../storage';
import type { StoreAccess } from '../stores/access';
import { multiStoreReportBytes } from './reports.bytes';
import {
  monthCsvReviews,
  reportCsv,
  storeCsvReviews,
  type ReportRange,
  type ReportsService,
} from './reports.service';
import { signedIn, storeRoute, storeOf, storeNamesOf } from '../../plugins/route-guards';

/** How long a CSV link works (ADR 0036). */
export const CSV_URL_TTL_SECONDS = 600;

const nameOf = (u: StoreName): string => u.store_name ?? u.company_name ?? u.email;

type ReportRouteDeps = {
  reports: ReportsService;
  access: StoreAccess;
  clock: Clock;
  secretKey: Buffer;
  publicUrl: string;
  authenticate: preHandlerAsyncHookHandler;
};

const tags = ['reports'];

/** The dashboard's boxes and graphs, the single- and multi-store reports and their CSVs. */
export function registerReportRoutes(app: FastifyInstance, deps: ReportRouteDeps): void {
  registerDashboardRoutes(app, deps);
  registerPeriodReportRoutes(app, deps);
  registerCsvRoutes(app, deps);
}

/** The dashboard: its boxes, doughnut, graphs and search keywords, for one store. */
function registerDashboardRoutes(app: FastifyInstance, deps: ReportRouteDeps): void {
  const r = withZod(app);
  const { reports } = deps;

  r.post(
    '/dashboard/box-data',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body'),
      schema: {
        tags,
        summary:
          "The six boxes over `range` ('7' days, '1' month, '3' months; default '1'), each with its percent change against the previous period of equal length (null: nothing before). Beyond the spec, `reviews`: the store's Google reviews over the same period, a day a point (issue 25 item 7).",
        body: boxDataBody,
        response: { 200: ok(z.object({ data: boxDataSchema })) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      const range = req.body.range ?? DEFAULT_DASHBOARD_RANGE;
      return okData({ data: await reports.boxData(store.id, range) });
    },
  );

  r.post(
    '/dashboard/customer-search/:range',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body'),
      schema: {
        tags,
        summary: 'The doughnut: the four search impressions over the period, and their total.',
        params: dashboardRangeParams,
        body: dashboardBody,
        response: { 200: ok(z.object({ data: customerSearchSchema })) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData({ data: await reports.customerSearch(store.id, req.params.range) });
    },
  );

  r.post(
    '/dashboard/customer-call/:range',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body'),
      schema: {
        tags,
        summary: 'Calls a day (`YYYY/MM/DD`, every day of the period) and their total.',
        params: dashboardRangeParams,
        body: dashboardBody,
        response: { 200: ok(z.object({ data: customerCallSchema })) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData({ data: await reports.customerCall(store.id, req.params.range) });
    },
  );

  const graphs = [
    ['customer-view', customerViewSchema, 'Views (the four impressions) a day and their total.'],
    ['impressions-graph', impressionsGraphSchema, 'The four impressions, each a day series.'],
    ['reactions-graph', reactionsGraphSchema, 'The six customer actions, each a day series.'],
  ] as const;
  for (const [path, schema, summary] of graphs) {
    r.post(
      `/dashboard/${path}/:timeRange`,
      {
        ...storeRoute(deps.authenticate, deps.access, 'read', 'body'),
        schema: {
          tags,
          summary: `${summary} Period '7', '1' or '3', ending yesterday (Tokyo).`,
          params: dashboardTimeRangeParams,
          body: dashboardBody,
          response: { 200: ok(z.object({ data: schema })) },
        },
      },
      async (req) => {
        const store = storeOf(req);
        const range = req.params.timeRange;
        const data =
          path === 'customer-view'
            ? await reports.customerView(store.id, range)
            : path === 'impressions-graph'
              ? await reports.impressionsGraph(store.id, range)
              : await reports.reactionsGraph(store.id, range);
        return okData({ data });
      },
    );
  }

  r.post(
    '/dashboard/search-keywords/:timeRange',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body'),
      schema: {
        tags,
        summary:
          "The top 10 search keywords of the last '1' or '3' complete months, largest first: `value_N` exact, `threshold_N` fewer than N (ADR 0036).",
        params: keywordTimeRangeParams,
        body: dashboardBody,
        response: { 200: ok(z.object({ data: searchKeywordsSchema })) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData({ data: await reports.searchKeywords(store.id, req.params.timeRange) });
    },
  );
}

/** The reports: one store's fixed and adjustable periods, several stores' totals. */
function registerPeriodReportRoutes(app: FastifyInstance, deps: ReportRouteDeps): void {
  const r = withZod(app);
  const { reports } = deps;

  r.post(
    '/report/single-store/fixed-period',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body'),
      schema: {
        tags,
        summary:
          'This year (January to this month, up to yesterday) against the same months of last year: discovery search, listing on maps, customer actions.',
        body: fixedReportBody,
        response: { 200: ok(z.object({ data: fixedReportSchema })) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData({ data: await reports.fixed(store.id) });
    },
  );

  r.post(
    '/report/single-store/adjustment-period',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body'),
      schema: {
        tags,
        summary:
          "Per month and in total over start_date..end_date (YYYY-MM-DD or YYYY/MM/DD, within the last 25 months). Beyond the spec, `reviews`: the store's Google reviews over the range, a month a point (issue 25 item 7).",
        body: singleReportBody,
        response: { 200: ok(z.object({ data: adjustmentReportSchema })) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      const range = reports.checkRange(req.body.start_date, req.body.end_date);
      return okData({ data: await reports.adjustment(store.id, range) });
    },
  );

  r.post(
    '/report/multiple-store/adjustment-period',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body', { names: true }),
      // Its answer straight into bytes (ADR 0097). Typed by the type provider for this route's
      // schema; the compiler takes any zod schema.
      serializerCompiler: multiStoreReportBytes as never,
      schema: {
        tags,
        summary:
          "Totals per store over the range, keyed by store name; `not_linked` names the stores with no Google location. user_id: an array or a comma-separated string. Each store's Google reviews are POST /report/multiple-store/reviews.",
        body: multiReportBody,
        response: { 200: ok(z.object({ data: multiStoreReportSchema })) },
      },
    },
    async (req) => {
      const stores = storeNamesOf(req);
      const range = reports.checkRange(req.body.start_date, req.body.end_date);
      const list = stores.map((s) => ({ id: s.id, name: nameOf(s) }));
      return okData({ data: await reports.multiple(list, range) });
    },
  );

  r.post(
    '/report/multiple-store/reviews',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body', { names: true }),
      schema: {
        tags,
        summary:
          "Beyond the spec (issue 25 item 7): each linked store's Google reviews over the range (the single-store report's period figures: new, average held, reply rate, median hours to reply), keyed as the multi-store report's `stores`. The same body as /report/multiple-store/adjustment-period; a call of its own so the report's totals do not wait for it.",
        body: multiReportBody,
        response: { 200: ok(z.object({ data: multiStoreReviewsSchema })) },
      },
    },
    async (req) => {
      const stores = storeNamesOf(req);
      const range = reports.checkRange(req.body.start_date, req.body.end_date);
      const list = stores.map((s) => ({ id: s.id, name: nameOf(s) }));
      return okData({ data: await reports.multipleReviews(list, range) });
    },
  );
}

/** The reports as CSV: a signed link for one or several stores, and the download it names. */
function registerCsvRoutes(app: FastifyInstance, deps: ReportRouteDeps): void {
  const r = withZod(app);
  const { reports, access } = deps;
  // Its own key, so a media signature can never pass for a CSV link or the reverse.
  const signer = createUrlSigner(
    createHmac('sha256', deps.secretKey).update('tenpo report csv v1').digest(),
    () => deps.clock.now().getTime(),
  );
  /** What a CSV link stands for, as the signature covers it. */
  const csvKey = (kind: string, ids: string, range: ReportRange) =>
    `${kind}\n${ids}\n${range.start_date}\n${range.end_date}`;

  const csvUrl = (kind: 'single' | 'multiple', ids: number[], range: ReportRange): string => {
    const idList = ids.join(',');
    const signed = signer.sign(csvKey(kind, idList, range), CSV_URL_TTL_SECONDS);
    const q = new URLSearchParams({
      kind,
      user_id: idList,
      start_date: range.start_date,
      end_date: range.end_date,
      ...signed,
    });
    return `${deps.publicUrl}/api/report/csv?${q.toString()}`;
  };

  r.post(
    '/report/single-store/csv',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body'),
      schema: {
        tags,
        summary: `A CSV of the single-store report (one row a month, then a total; the review figures as trailing columns after the spec's). csv_url works for ${CSV_URL_TTL_SECONDS / 60} minutes, with the Authorization header of a session that may act for the store.`,
        body: singleReportBody,
        response: { 200: csvExportSchema },
      },
    },
    async (req) => {
      const store = storeOf(req);
      const range = reports.checkRange(req.body.start_date, req.body.end_date);
      return { status_code: 200, data: { csv_url: csvUrl('single', [store.id], range) } };
    },
  );

  r.post(
    '/report/multiple-store/csv',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body', { names: true }),
      schema: {
        tags,
        summary: `A CSV of the multi-store report (one row a linked store, then a total; each store's review figures as trailing columns after the spec's, empty on the total row). csv_url works for ${CSV_URL_TTL_SECONDS / 60} minutes, with the Authorization header of a session that may act for every store in it.`,
        body: multiReportBody,
        response: { 200: csvExportSchema },
      },
    },
    async (req) => {
      const stores = storeNamesOf(req);
      const range = reports.checkRange(req.body.start_date, req.body.end_date);
      return {
        status_code: 200,
        data: {
          csv_url: csvUrl(
            'multiple',
            stores.map((s) => s.id),
            range,
          ),
        },
      };
    },
  );

  r.get(
    '/report/csv',
    {
      ...signedIn(deps.authenticate),
      config: {
        access: {
          who: 'signed-in',
          store: { mode: 'read', from: 'handler' },
          owner: 'a signed link; its stores are checked again for the session',
        },
      },
      schema: {
        tags,
        summary:
          'The CSV a csv_url names, made again from its signed parameters: UTF-8 with BOM, CRLF, Japanese header. 403 once expired or altered; 404 for a session that may not act for every store in it.',
        querystring: csvDownloadQuery,
      },
    },
    async (req, reply) => {
      const q = req.query;
      const range = { start_date: q.start_date, end_date: q.end_date };
      if (!signer.verify(csvKey(q.kind, q.user_id, range), q))
        throw new AppError(403, 'csv_link_expired', ja.reportCsvLinkExpired);
      const ids = q.user_id.split(',').map(Number);
      const stores = await access.storeNamesFor(actorOf(req), ids, 'read');
      let csv: string;
      if (q.kind === 'single') {
        const store = stores[0];
        if (!store || stores.length !== 1)
          throw validationError({ user_id: [ja.reportStoreInvalid] });
        const report = await reports.adjustment(store.id, range);
        csv = reportCsv(
          ja.reportCsvMonth,
          Object.entries(report.months),
          monthCsvReviews(report.reviews),
        );
      } else {
        const list = stores.map((s) => ({ id: s.id, name: nameOf(s) }));
        const [report, reviews] = await Promise.all([
          reports.multiple(list, range),
          reports.multipleReviews(list, range),
        ]);
        csv = reportCsv(
          ja.reportCsvStore,
          Object.entries(report.stores),
          storeCsvReviews(reviews.reviews),
        );
      }
      const base = `${q.kind === 'single' ? 'レポート' : '複数店舗レポート'}_${range.start_date}_${range.end_date}.csv`;
      const ascii = `report_${range.start_date}_${range.end_date}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`,
        )
        .header('cache-control', 'private, no-store')
        .send(csv);
    },
  );
}
