import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  adminAgencyCreateRequest,
  adminAgencySchema,
  adminAgencyUpdateRequest,
  adminDeleteResult,
  adminIdParams,
  adminJa,
  adminListQuery,
  adminStoreCreateRequest,
  adminStoreListQuery,
  adminStoreRowSchema,
  adminStoreSchema,
  adminStoreUpdateRequest,
  keysetAdminList,
  ok,
} from '@tenpo/domain';
import { fieldErrorsOf, validationError } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import { accepted, registerUploadRoutes, withMultipart } from '../../lib/uploads';
import { actorOf } from '../../plugins/auth';
import type { MediaStorage } from '../../storage';
import type { AdminService, StoreKind } from './admin.service';
import { withRole } from '../../plugins/route-guards';

type AdminRouteDeps = {
  admin: AdminService;
  storage: MediaStorage;
  authenticate: preHandlerAsyncHookHandler;
};

// Only a manager reaches /admin/… (spec 3 §6); everyone else is refused with 403, before the
// input is read.
const managerOnly = (authenticate: preHandlerAsyncHookHandler) =>
  withRole(authenticate, 'manager', 'a manager acts on every tenant');

const tags = ['admin'];

/**
 * The manager's admin (spec 3 §7 Admin): agencies, customers (stores of no agency) and stores,
 * each listed with `meta` paging, read, created, changed and deleted (ADR 0049).
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminRouteDeps): void {
  registerAgencyRoutes(app, deps);
  registerStoreRoutes(app, deps, 'customers');
  registerStoreRoutes(app, deps, 'stores');
}

/** Agencies: list and one; create and change take files (multipart). */
function registerAgencyRoutes(app: FastifyInstance, deps: AdminRouteDeps): void {
  const r = withZod(app);
  const { admin } = deps;
  const pre = managerOnly(deps.authenticate);

  r.get(
    '/admin/agencies',
    {
      ...pre,
      schema: {
        tags,
        summary: 'Agencies with their white-label domain (paged, 10 a page; search)',
        querystring: adminListQuery,
        response: { 200: ok(keysetAdminList(adminAgencySchema)) },
      },
    },
    async (req) => {
      return okData(await admin.listAgencies(req.query));
    },
  );

  r.get(
    '/admin/agencies/:id',
    {
      ...pre,
      schema: {
        tags,
        summary: 'One agency',
        params: adminIdParams,
        response: { 200: ok(adminAgencySchema) },
      },
    },
    async (req) => {
      return okData(await admin.agency(req.params.id));
    },
  );

  r.delete(
    '/admin/agencies/:id',
    {
      ...pre,
      schema: {
        tags,
        summary:
          'Delete an agency: its stores become customers of the platform, its groups and domain go',
        params: adminIdParams,
        response: { 200: ok(adminDeleteResult) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const result = await admin.deleteAgency(actor, req.params.id);
      return okData(result, adminJa.agencyDeleted(result.detached_stores));
    },
  );

  const agencyFiles = {
    logo: { accept: 'image', folder: 'logos' },
    // On the white-label login page before anyone signs in: a public folder (storage/).
    favicon: { accept: 'image', folder: 'logos' },
  } as const;
  const agencyForm =
    'multipart: email, name, company_name, phone, agent_code, status, password, prefix, title; files logo, favicon (images ≤ 3072 KB, judged by their bytes)';

  registerUploadRoutes(app, (scope) => {
    const u = withZod(scope);
    u.post(
      '/admin/agencies',
      {
        ...pre,
        schema: {
          tags,
          summary: 'Create an agency with its white-label prefix, title and favicon',
          description: agencyForm,
          consumes: ['multipart/form-data', 'application/json'],
          response: { 200: ok(adminAgencySchema) },
        },
      },
      async (req) => {
        const actor = actorOf(req);
        const row = await withMultipart(
          req,
          deps.storage,
          agencyFiles,
          async (body) => {
            const parsed = adminAgencyCreateRequest.safeParse(body.fields);
            if (!parsed.success) throw validationError(fieldErrorsOf(parsed.error));
            const { logo, favicon } = body.files;
            return admin.createAgency(actor, parsed.data, {
              logo: logo ? accepted(logo).path : undefined,
              favicon: favicon ? accepted(favicon).path : undefined,
            });
          },
          { userId: actor.user.id },
        );
        return okData(row, adminJa.agencyCreated);
      },
    );

    u.put(
      '/admin/agencies/:id',
      {
        ...pre,
        schema: {
          tags,
          summary: 'Change an agency, its white-label prefix, title and favicon',
          description: `${agencyForm}. A blank password keeps the old one; a missing file keeps the old one.`,
          params: adminIdParams,
          consumes: ['multipart/form-data', 'application/json'],
          response: { 200: ok(adminAgencySchema) },
        },
      },
      async (req) => {
        const actor = actorOf(req);
        const row = await withMultipart(
          req,
          deps.storage,
          agencyFiles,
          async (body) => {
            const parsed = adminAgencyUpdateRequest.safeParse(body.fields);
            if (!parsed.success) throw validationError(fieldErrorsOf(parsed.error));
            const { logo, favicon } = body.files;
            return admin.updateAgency(actor, req.params.id, parsed.data, {
              logo: logo ? accepted(logo).path : undefined,
              favicon: favicon ? accepted(favicon).path : undefined,
            });
          },
          { userId: actor.user.id },
        );
        return okData(row, adminJa.agencyUpdated);
      },
    );
  });
}

/** Customers (stores of no agency) or stores, by `kind`: JSON bodies. */
function registerStoreRoutes(app: FastifyInstance, deps: AdminRouteDeps, kind: StoreKind): void {
  const r = withZod(app);
  const { admin } = deps;
  const pre = managerOnly(deps.authenticate);
  const path = `/admin/${kind}`;
  const what = kind === 'customers' ? 'customer (a store of no agency)' : 'store';
  const msg =
    kind === 'customers'
      ? {
          created: adminJa.customerCreated,
          updated: adminJa.customerUpdated,
          deleted: adminJa.customerDeleted,
        }
      : {
          created: adminJa.storeCreated,
          updated: adminJa.storeUpdated,
          deleted: adminJa.storeDeleted,
        };

  r.get(
    path,
    {
      ...pre,
      schema: {
        tags,
        summary:
          kind === 'customers'
            ? "Customers of the platform: stores of no agency (paged, 10 a page; search). Beyond the spec, each row's `reviews`: its Google reviews as Tenpo holds them now (issue 25 item 7)."
            : "The manager's store list, every tenant (paged, 10 a page; search, agency_id, group_id). Beyond the spec, each row's `reviews`: its Google reviews as Tenpo holds them now (issue 25 item 7).",
        querystring: kind === 'customers' ? adminListQuery : adminStoreListQuery,
        response: { 200: ok(keysetAdminList(adminStoreRowSchema)) },
      },
    },
    async (req) => {
      actorOf(req);
      return okData(await admin.listStores(kind, req.query));
    },
  );

  r.get(
    `${path}/:id`,
    {
      ...pre,
      schema: {
        tags,
        summary: `One ${what}, for the manager`,
        params: adminIdParams,
        response: { 200: ok(adminStoreSchema) },
      },
    },
    async (req) => {
      actorOf(req);
      return okData(await admin.store(kind, req.params.id));
    },
  );

  r.post(
    path,
    {
      ...pre,
      schema: {
        tags,
        summary: `Create a ${what} with its login`,
        body: adminStoreCreateRequest,
        response: { 200: ok(adminStoreSchema) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      return okData(await admin.createStore(actor, kind, req.body), msg.created);
    },
  );

  r.put(
    `${path}/:id`,
    {
      ...pre,
      schema: {
        tags,
        summary: `Change a ${what} (a blank password keeps the old one)`,
        params: adminIdParams,
        body: adminStoreUpdateRequest,
        response: { 200: ok(adminStoreSchema) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      return okData(await admin.updateStore(actor, kind, req.params.id, req.body), msg.updated);
    },
  );

  r.delete(
    `${path}/:id`,
    {
      ...pre,
      schema: {
        tags,
        summary: `Delete a ${what}: its posts, connections, photos, sessions and group places go`,
        params: adminIdParams,
        response: { 200: ok(adminDeleteResult) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      return okData(await admin.deleteStore(actor, kind, req.params.id), msg.deleted);
    },
  );
}
