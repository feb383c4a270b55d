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
import { keysetPage } from '../../lib/keyset';
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
          'The change history (who, when, what, values before and after), newest first, 20 a page (by `page`, or `after` / `before` with the cursors of the page shown): a manager reads everything, an agency its stores and itself, a store itself. Filters: store_id (another tenant’s store is 404), entity, action, actor (part of an e-mail or an id), from/to (Tokyo days, inclusive).',
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
      const list = deps.audit.list(scope, {
        ...(q.store_id ? { storeId: q.store_id } : {}),
        ...(q.entity ? { entity: q.entity } : {}),
        ...(q.action ? { action: q.action } : {}),
        ...(q.actor ? { actor: q.actor } : {}),
        since,
        until,
      });
      const total = await list.count();
      // By number, or next to the page shown (`after` / `before`, ADR 0098): the scope stays.
      const page = await keysetPage(
        { page: q.page, perPage: q.per_page, after: q.after, before: q.before },
        {
          total,
          order: 'id,desc',
          keyTypes: ['number'],
          keyOf: (r) => [r.id],
          read: list.rows,
        },
      );
      return okData({
        data: page.rows.map(present),
        meta: {
          current_page: page.current_page,
          last_page: page.last_page,
          per_page: q.per_page,
          total,
        },
        next_cursor: page.next_cursor,
        prev_cursor: page.prev_cursor,
      });
    },
  );
}
