import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  adminGroupsQuery,
  adminList,
  agencyGroupSchema,
  DEFAULT_PER_PAGE,
  groupIdParams,
  groupJa,
  groupPayloadSchema,
  ok,
  pageQuery,
} from '@tenpo/domain';
import { done, okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import type { GroupsService } from './groups.service';
import { withRole } from '../../plugins/route-guards';

/**
 * Group changes (spec 3 §7 Agency: POST /agency/groups, PUT /agency/groups/{id}) and the
 * manager's /admin/groups (spec 3 §7 Admin), over one service (ADR 0048).
 */
export function registerGroupRoutes(
  app: FastifyInstance,
  deps: { groups: GroupsService; authenticate: preHandlerAsyncHookHandler },
): void {
  const r = withZod(app);
  const { groups } = deps;
  // An agency changes its own groups, a manager any agency's; only a manager reaches /admin/….
  const agencyOrManager = withRole(deps.authenticate, 'agency-or-manager');
  const manager = withRole(deps.authenticate, 'manager');
  const one = { 200: ok(agencyGroupSchema) };

  r.post(
    '/agency/groups',
    {
      ...agencyOrManager,
      schema: {
        tags: ['agency'],
        summary: 'Create a group (name, leader_id, store_list, agency_id)',
        body: groupPayloadSchema,
        response: one,
      },
    },
    async (req) => okData(await groups.create(actorOf(req), req.body), groupJa.created),
  );

  r.put(
    '/agency/groups/:id',
    {
      ...withRole(
        deps.authenticate,
        'agency-or-manager',
        "the group is the agency's own (the service looks it up by agency); a manager: any",
      ),
      schema: {
        tags: ['agency'],
        summary: 'Change a group (name, leader_id, store_list, agency_id)',
        params: groupIdParams,
        body: groupPayloadSchema,
        response: one,
      },
    },
    async (req) =>
      okData(await groups.update(actorOf(req), req.params.id, req.body), groupJa.updated),
  );

  r.get(
    '/admin/groups',
    {
      ...manager,
      schema: {
        tags: ['admin'],
        summary: "Every agency's groups (search by name; 10 a page)",
        querystring: pageQuery(DEFAULT_PER_PAGE).extend(adminGroupsQuery.shape),
        response: { 200: ok(adminList(agencyGroupSchema)) },
      },
    },
    async (req) => {
      const q = req.query;
      return okData(
        await groups.list({ search: q.search, agencyId: q.agency_id }, q.page, q.per_page),
      );
    },
  );

  r.get(
    '/admin/groups/:id',
    {
      ...manager,
      schema: {
        tags: ['admin'],
        summary: 'One group, for the manager',
        params: groupIdParams,
        response: one,
      },
    },
    async (req) => {
      return okData(await groups.get(req.params.id));
    },
  );

  r.post(
    '/admin/groups',
    {
      ...manager,
      schema: {
        tags: ['admin'],
        summary: 'Create a group for an agency (agency_id required)',
        body: groupPayloadSchema,
        response: one,
      },
    },
    async (req) => okData(await groups.create(actorOf(req), req.body), groupJa.created),
  );

  r.put(
    '/admin/groups/:id',
    {
      ...manager,
      schema: {
        tags: ['admin'],
        summary: 'Change any agency’s group',
        params: groupIdParams,
        body: groupPayloadSchema,
        response: one,
      },
    },
    async (req) =>
      okData(await groups.update(actorOf(req), req.params.id, req.body), groupJa.updated),
  );

  r.delete(
    '/admin/groups/:id',
    {
      ...manager,
      schema: {
        tags: ['admin'],
        summary: 'Delete a group (its leader’s is_leader is recomputed)',
        params: groupIdParams,
        response: { 200: z.object({ status_code: z.number().int(), message: z.string() }) },
      },
    },
    async (req) => {
      await groups.remove(actorOf(req), req.params.id);
      return done(groupJa.deleted);
    },
  );
}
