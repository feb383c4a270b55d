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
  ROLE,
} from '@tenpo/domain';
import { forbidden } from '../../lib/errors';
import { done, okData, withZod } from '../../lib/route';
import { actorOf, type Actor } from '../../plugins/auth';
import type { GroupsService } from './groups.service';

const manager = (actor: Actor): Actor => {
  // As /admin/stores: only a manager reaches /admin/…, anyone else gets 403.
  if (actor.user.role !== ROLE.manager) throw forbidden();
  return actor;
};

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
  const pre = { preHandler: deps.authenticate };
  const one = { 200: ok(agencyGroupSchema) };

  r.post(
    '/agency/groups',
    {
      ...pre,
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
      ...pre,
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
      ...pre,
      schema: {
        tags: ['admin'],
        summary: "Every agency's groups (search by name; 10 a page)",
        querystring: pageQuery(DEFAULT_PER_PAGE).extend(adminGroupsQuery.shape),
        response: { 200: ok(adminList(agencyGroupSchema)) },
      },
    },
    async (req) => {
      manager(actorOf(req));
      const q = req.query;
      return okData(
        await groups.list({ search: q.search, agencyId: q.agency_id }, q.page, q.per_page),
      );
    },
  );

  r.get(
    '/admin/groups/:id',
    {
      ...pre,
      schema: {
        tags: ['admin'],
        summary: 'One group, for the manager',
        params: groupIdParams,
        response: one,
      },
    },
    async (req) => {
      manager(actorOf(req));
      return okData(await groups.get(req.params.id));
    },
  );

  r.post(
    '/admin/groups',
    {
      ...pre,
      schema: {
        tags: ['admin'],
        summary: 'Create a group for an agency (agency_id required)',
        body: groupPayloadSchema,
        response: one,
      },
    },
    async (req) => okData(await groups.create(manager(actorOf(req)), req.body), groupJa.created),
  );

  r.put(
    '/admin/groups/:id',
    {
      ...pre,
      schema: {
        tags: ['admin'],
        summary: 'Change any agency’s group',
        params: groupIdParams,
        body: groupPayloadSchema,
        response: one,
      },
    },
    async (req) =>
      okData(await groups.update(manager(actorOf(req)), req.params.id, req.body), groupJa.updated),
  );

  r.delete(
    '/admin/groups/:id',
    {
      ...pre,
      schema: {
        tags: ['admin'],
        summary: 'Delete a group (its leader’s is_leader is recomputed)',
        params: groupIdParams,
        response: { 200: z.object({ status_code: z.number().int(), message: z.string() }) },
      },
    },
    async (req) => {
      await groups.remove(manager(actorOf(req)), req.params.id);
      return done(groupJa.deleted);
    },
  );
}
