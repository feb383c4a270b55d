import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  AGENCY_STORES_PER_PAGE,
  DEFAULT_PER_PAGE,
  groupSchema,
  idParams,
  ok,
  keysetPaged,
  pageQuery,
  storeListQuery,
  storeRowSchema,
} from '@tenpo/domain';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import type { UsersService } from '../users/users.service';
import type { StoreAccess } from './access';
import type { StoreFilter, StoresRepo } from './stores.repo';
import { withRole } from '../../plugins/route-guards';

const orderOf = (v: string | undefined): StoreFilter['orderBy'] => {
  if (!v) return undefined;
  const [column, direction] = v.split(',') as ['id' | 'name' | 'created_at', 'asc' | 'desc'];
  return { column, direction };
};

/** The page asked for: by number, or next to a page shown (ADR 0098). */
const keysetOf = (q: { page: number; per_page: number; after?: string; before?: string }) => ({
  page: q.page,
  perPage: q.per_page,
  after: q.after,
  before: q.before,
});

/** The store lists the store selector and the overviews need, by role (spec 3 §4). */
export function registerStoreRoutes(
  app: FastifyInstance,
  deps: {
    stores: StoresRepo;
    users: UsersService;
    access: StoreAccess;
    clock: Clock;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const { stores, clock } = deps;
  const agencyQuery = pageQuery(AGENCY_STORES_PER_PAGE).extend(storeListQuery.shape);
  const listQuery = pageQuery(DEFAULT_PER_PAGE).extend(storeListQuery.shape);
  const pagedStores = { 200: ok(keysetPaged(storeRowSchema)) };
  const groupParams = idParams;
  const agency = withRole(deps.authenticate, 'agency');
  const leader = withRole(deps.authenticate, 'leader');

  r.get(
    '/agency/stores',
    {
      ...agency,
      schema: {
        tags: ['agency'],
        summary:
          "The agency's stores (paged, 5 a page by default; by `page`, or `after` / `before` with the cursors of the page shown)",
        querystring: agencyQuery,
        response: pagedStores,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const q = req.query;
      return okData(
        await stores.page(
          { agencyId: actor.user.id, search: q.search, orderBy: orderOf(q.order_by) },
          keysetOf(q),
          clock.now(),
        ),
      );
    },
  );

  r.get(
    '/agency/groups',
    {
      ...agency,
      schema: {
        tags: ['agency'],
        summary: "The agency's groups with their stores and leader",
        response: { 200: ok(z.array(groupSchema)) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      return okData(await stores.groups({ agencyId: actor.user.id }));
    },
  );

  r.get(
    '/agency/groups/:id/stores',
    {
      ...withRole(deps.authenticate, 'agency', "the group is looked up among the agency's own"),
      schema: {
        tags: ['agency'],
        summary: "A group's stores (paged)",
        params: groupParams,
        querystring: agencyQuery,
        response: pagedStores,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const group = await stores.group(req.params.id);
      if (!group || group.agency_id !== actor.user.id) throw notFound();
      const q = req.query;
      return okData(
        await stores.page(
          {
            agencyId: actor.user.id,
            groupId: group.id,
            search: q.search,
            orderBy: orderOf(q.order_by),
          },
          keysetOf(q),
          clock.now(),
        ),
      );
    },
  );

  r.get(
    '/group-leader/groups',
    {
      ...leader,
      schema: {
        tags: ['group-leader'],
        summary: 'The groups this leader leads',
        response: { 200: ok(z.array(groupSchema)) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      return okData(await stores.groups({ leaderId: actor.user.id }));
    },
  );

  r.get(
    '/group-leader/stores',
    {
      ...leader,
      schema: {
        tags: ['group-leader'],
        summary: "Stores of the leader's groups (order_by id,asc)",
        querystring: listQuery,
        response: pagedStores,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const q = req.query;
      return okData(
        await stores.page(
          {
            leaderId: actor.user.id,
            search: q.search,
            orderBy: orderOf(q.order_by) ?? { column: 'id', direction: 'asc' },
          },
          keysetOf(q),
          clock.now(),
        ),
      );
    },
  );

  r.get(
    '/group-leader/groups/:id/stores',
    {
      ...withRole(deps.authenticate, 'leader', 'the group is looked up among those it leads'),
      schema: {
        tags: ['group-leader'],
        summary: 'Stores of one group this leader leads',
        params: groupParams,
        querystring: listQuery,
        response: pagedStores,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const group = await stores.group(req.params.id);
      if (!group || group.leader_id !== actor.user.id) throw notFound();
      const q = req.query;
      return okData(
        await stores.page(
          { groupId: group.id, search: q.search, orderBy: orderOf(q.order_by) },
          keysetOf(q),
          clock.now(),
        ),
      );
    },
  );
  // The manager's /admin/stores lists moved to modules/admin (ADR 0049).
}
