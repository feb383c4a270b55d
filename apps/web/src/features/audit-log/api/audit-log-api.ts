import type { AuditLogResponse } from '@tenpo/domain';
import { api } from '@/lib/api-client';

/** The filters of /audit-log as the call takes them (empty ones are left out). */
export type AuditFilters = {
  storeId: number | null;
  entity: string | null;
  action: string | null;
  actor: string;
  from: string;
  to: string;
  page: number;
  /** The page next to the one shown, by its cursor (ADR 0098); `page` otherwise. */
  after?: string;
  before?: string;
};

export const auditKeys = {
  all: ['audit-log'] as const,
  list: (f: AuditFilters) => ['audit-log', f] as const,
};

export const auditLogCall = async (f: AuditFilters): Promise<AuditLogResponse> =>
  (
    await api<AuditLogResponse>('/audit-log', {
      query: {
        store_id: f.storeId ?? undefined,
        entity: f.entity ?? undefined,
        action: f.action ?? undefined,
        actor: f.actor.trim() || undefined,
        from: f.from || undefined,
        to: f.to || undefined,
        page: f.page,
        after: f.after,
        before: f.before,
      },
    })
  ).data;
