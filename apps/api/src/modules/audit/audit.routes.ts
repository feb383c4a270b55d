import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  auditLogQuery,
  auditLogResponse,
  ok,
  ROLE,
  tokyoDayBounds,
  type AuditRow,
} from '@tenpo/domain';
import { notFound } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import { actorOf, type Actor } from '../../plugins/auth';
import type { StoreAccess } from '../stores/access';
import type { AuditListRow, AuditLog, AuditScope } from './audit.repo';
import { storeRoute } from '../../plugins/route-guards';

/**
 * Whose history the caller reads (ADR 0047): a manager everything, an agency its own rows and its
 * stores', any other account (a shop, a free trial, a group leader) its own store's only.
 */
export const auditScopeOf = (actor: Actor): AuditScope => {
  switch (actor.user.role) {
    case ROLE.manager:
      return { kind: 'all' };
    case ROLE.agency:
      return { kind: 'agency', agencyId: actor.user.id };
    default:
      return { kind: 'store', storeId: actor.user.id };
  }
};

const parsed = (text: string | null): Record<string, unknown> | null => {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const present = (r: AuditListRow): AuditRow => ({
  id: r.id,
  at: r.at,
  actor: r.actor_id === null ? null : { id: r.actor_id, email: r.actor_email, role: r.actor_role },
  store: r.store_id === null ? null : { id: r.store_id, name: r.store_name },
  entity: r.entity,
  entity_id: r.entity_id,
  action: r.action,
  summary: r.summary,
  before: parsed(r.before),
  after: parsed(r.after),
});

/** `GET /audit-log`: the change history the caller may read, newest first (issue 12). */
export function registerAuditRoutes(
  app: FastifyInstance,
  deps: { audit: AuditLog; access: StoreAccess; authenticate: preHandlerAsyncHookHandler },
): void {
  withZod(app).get(
    '/audit-log',
    {
      // store_id, when given, goes through the store rule; without it the role's scope applies.
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query', { field: 'store_id' }),
      schema: {
        tags: ['audit'],
        summary:
          'The change history (who, when, what, values before and after), newest first, 20 a page: a manager reads everything, an agency its stores and itself, a store itself. Filters: store_id (another tenant’s store is 404), entity, action, actor (part of an e-mail or an id), from/to (Tokyo days, inclusive).',
        querystring: auditLogQuery,
        response: { 200: ok(auditLogResponse) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const q = req.query;
      const scope = auditScopeOf(actor);
      if (q.store_id) {
        // A group leader reads its group's stores elsewhere, but their history is not its own.
        if (scope.kind === 'store' && q.store_id !== actor.user.id) throw notFound();
      }
      const { since, until } = tokyoDayBounds(q.from || undefined, q.to || undefined);
      const { total, rows } = await deps.audit.page(
        scope,
        {
          ...(q.store_id ? { storeId: q.store_id } : {}),
          ...(q.entity ? { entity: q.entity } : {}),
          ...(q.action ? { action: q.action } : {}),
          ...(q.actor ? { actor: q.actor } : {}),
          since,
          until,
        },
        q.page,
        q.per_page,
      );
      return okData({
        data: rows.map(present),
        meta: {
          current_page: q.page,
          last_page: Math.max(1, Math.ceil(total / q.per_page)),
          per_page: q.per_page,
          total,
        },
      });
    },
  );
}
