import type { Kysely, Transaction } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { iso, type Clock } from '../../lib/clock';

/** What a change is about (ADR 0047). */
export type AuditEntity = 'store' | 'group' | 'account' | 'connection' | 'post' | 'agency';
/** What happened to it. */
export type AuditAction = 'create' | 'update' | 'delete' | 'connect' | 'disconnect';

export type AuditActor = Pick<UserRow, 'id' | 'email' | 'role'>;

export type AuditEntry = {
  /** Who made the change; null for the system (a job, a sync from Google). */
  actor: AuditActor | null;
  entity: AuditEntity;
  entityId: number | string | null;
  action: AuditAction;
  /** The store the change is about, if any. */
  storeId?: number | null;
  /**
   * The agency that owns the store or the group. Left out with a `storeId`, it is read from
   * the store's row (in the same transaction).
   */
  agencyId?: number | null;
  /** A short line for the list, in Japanese (「グループ「東京」を作成」). */
  summary?: string;
  /** The values before and after; `changed` keeps only what differs. Null for create/delete. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

/** Keys never written to the log, whatever a caller passes. */
const SECRET = /password|token|secret|hash|credential|api_key|app_key/i;

const clean = (v: Record<string, unknown> | null | undefined): string | null => {
  if (!v) return null;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!SECRET.test(k) && x !== undefined) out[k] = x;
  return JSON.stringify(out);
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields that differ between two records, as before/after pairs; keys only one side has
 * count as changed. Used for updates so the log shows what changed, not the whole row.
 */
export function changed(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!same(before[k], after[k])) {
      b[k] = before[k] ?? null;
      a[k] = after[k] ?? null;
    }
  }
  return Object.keys(a).length === 0 ? null : { before: b, after: a };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

export function createAuditLog(db: Kysely<Database>, clock: Clock) {
  return {
    /**
     * Records one change. Pass the transaction that makes the change, so the change and its
     * record commit together or not at all.
     */
    async record(entry: AuditEntry, trx: Kysely<Database> | Transaction<Database> = db) {
      let agencyId = entry.agencyId;
      if (agencyId === undefined && entry.storeId != null) {
        const store = await trx
          .selectFrom('users')
          .select('agency_id')
          .where('id', '=', entry.storeId)
          .executeTakeFirst();
        agencyId = store?.agency_id ?? null;
      }
      await trx
        .insertInto('audit_log')
        .values({
          at: iso(clock.now()),
          actor_id: entry.actor?.id ?? null,
          actor_email: entry.actor?.email ?? null,
          actor_role: entry.actor?.role ?? null,
          store_id: entry.storeId ?? null,
          agency_id: agencyId ?? null,
          entity: entry.entity,
          entity_id: entry.entityId === null ? null : String(entry.entityId),
          action: entry.action,
          summary: entry.summary ?? null,
          before: clean(entry.before),
          after: clean(entry.after),
        })
        .execute();
    },
    /** Records an update only when something changed; returns whether it recorded. */
    async recordUpdate(
      entry: Omit<AuditEntry, 'action' | 'before' | 'after'>,
      before: Record<string, unknown>,
      after: Record<string, unknown>,
      trx: Kysely<Database> | Transaction<Database> = db,
    ): Promise<boolean> {
      const diff = changed(before, after);
      if (!diff) return false;
      await this.record({ ...entry, action: 'update', ...diff }, trx);
      return true;
    },
  };
}
