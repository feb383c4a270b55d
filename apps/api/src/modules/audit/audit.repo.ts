import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { statementBatches } from '../../db/batches';
import type { Database, UserRow } from '../../db/types';
import { iso, type Clock } from '../../lib/clock';
import type { Seek } from '../../lib/keyset';
import { seekRows, type KeysetOrder } from '../../lib/keyset.repo';

/** What a change is about (ADR 0047). */
export type AuditEntity =
  | 'store'
  | 'group'
  | 'account'
  | 'connection'
  | 'post'
  | 'agency'
  | 'review';
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

/**
 * Whose history a reader sees (ADR 0047): everything; an agency's (its own rows and its stores');
 * or one store's (or one account's) own.
 */
export type AuditScope =
  | { kind: 'all' }
  | { kind: 'agency'; agencyId: number }
  | { kind: 'store'; storeId: number };

export type AuditFilter = {
  storeId?: number;
  entity?: string;
  action?: string;
  /** Part of the actor's e-mail, or the actor's id (digits). */
  actor?: string;
  /** ISO instants: `at >= since` and `at < until`. */
  since?: string | null;
  until?: string | null;
};

export type AuditListRow = {
  id: number;
  at: string;
  actor_id: number | null;
  actor_email: string | null;
  actor_role: number | null;
  store_id: number | null;
  store_name: string | null;
  agency_id: number | null;
  entity: string;
  entity_id: string | null;
  action: string;
  summary: string | null;
  before: string | null;
  after: string | null;
};

type Eb = ExpressionBuilder<Database, 'audit_log'>;

const scopeOf = (eb: Eb, scope: AuditScope) => {
  switch (scope.kind) {
    case 'all':
      return eb.and([]);
    case 'agency':
      return eb.or([
        eb('audit_log.agency_id', '=', scope.agencyId),
        eb('audit_log.store_id', '=', scope.agencyId),
        eb(
          'audit_log.store_id',
          'in',
          eb.selectFrom('users').select('users.id').where('users.agency_id', '=', scope.agencyId),
        ),
      ]);
    case 'store':
      return eb('audit_log.store_id', '=', scope.storeId);
  }
};

const filterOf = (eb: Eb, f: AuditFilter) => {
  const all = [];
  if (f.storeId !== undefined) all.push(eb('audit_log.store_id', '=', f.storeId));
  if (f.entity) all.push(eb('audit_log.entity', '=', f.entity));
  if (f.action) all.push(eb('audit_log.action', '=', f.action));
  if (f.since) all.push(eb('audit_log.at', '>=', f.since));
  if (f.until) all.push(eb('audit_log.at', '<', f.until));
  const who = f.actor?.trim();
  if (who) {
    const like = `%${who.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const byEmail = eb(
      sql<string>`lower(coalesce(${sql.ref('audit_log.actor_email')}, ''))`,
      'like',
      sql<string>`${like} escape '\\'`,
    );
    all.push(
      /^\d{1,9}$/.test(who)
        ? eb.or([eb('audit_log.actor_id', '=', Number(who)), byEmail])
        : byEmail,
    );
  }
  return eb.and(all);
};

/** Newest first: the id, which the indexes on (store_id, id) and (agency_id, id) end in. */
const NEWEST_FIRST: KeysetOrder = { keys: [sql.ref('audit_log.id')], direction: 'desc' };

/**
 * The history a reader may see, newest first, filtered (ADR 0047): how many rows match, and a
 * page of them as `seek` says (keyset paging, ADR 0098).
 */
export function auditList(db: Kysely<Database>, scope: AuditScope, filter: AuditFilter) {
  const where = (eb: Eb) => eb.and([scopeOf(eb, scope), filterOf(eb, filter)]);
  return {
    async count(): Promise<number> {
      const count = await db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(where)
        .executeTakeFirst();
      return Number(count?.n ?? 0);
    },
    rows: (seek: Seek): Promise<AuditListRow[]> =>
      seekRows(
        db
          .selectFrom('audit_log')
          .leftJoin('users as s', 's.id', 'audit_log.store_id')
          .select([
            'audit_log.id',
            'audit_log.at',
            'audit_log.actor_id',
            'audit_log.actor_email',
            'audit_log.actor_role',
            'audit_log.store_id',
            'audit_log.agency_id',
            'audit_log.entity',
            'audit_log.entity_id',
            'audit_log.action',
            'audit_log.summary',
            'audit_log.before',
            'audit_log.after',
          ])
          .select((eb) => eb.fn.coalesce('s.store_name', 's.name').as('store_name'))
          .where(where),
        NEWEST_FIRST,
        seek,
      ),
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

/** A change's row in `audit_log`, its agency already known. */
const rowOf = (entry: AuditEntry, agencyId: number | null, at: string) => ({
  at,
  actor_id: entry.actor?.id ?? null,
  actor_email: entry.actor?.email ?? null,
  actor_role: entry.actor?.role ?? null,
  store_id: entry.storeId ?? null,
  agency_id: agencyId,
  entity: entry.entity,
  entity_id: entry.entityId === null ? null : String(entry.entityId),
  action: entry.action,
  summary: entry.summary ?? null,
  before: clean(entry.before),
  after: clean(entry.after),
});

export function createAuditLog(db: Kysely<Database>, clock: Clock) {
  return {
    /** The history a reader may see (see `auditList`). */
    list: (scope: AuditScope, filter: AuditFilter) => auditList(db, scope, filter),
    /** An account as an actor, for a change made where no session is at hand (an OAuth return). */
    actorById: async (id: number): Promise<AuditActor | null> =>
      (await db
        .selectFrom('users')
        .select(['id', 'email', 'role'])
        .where('id', '=', id)
        .executeTakeFirst()) ?? null,
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
        .values(rowOf(entry, agencyId ?? null, iso(clock.now())))
        .execute();
    },
    /**
     * Records many changes (a post to many stores) in as few statements as the databases' limit
     * on parameters allows; each entry names its agency (`agencyId`, null for none): no store is
     * read back.
     */
    async recordMany(
      entries: readonly (AuditEntry & { agencyId: number | null })[],
      trx: Kysely<Database> | Transaction<Database> = db,
    ) {
      const at = iso(clock.now());
      const rows = entries.map((entry) => rowOf(entry, entry.agencyId, at));
      for (const batch of statementBatches(rows))
        await trx.insertInto('audit_log').values(batch).execute();
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
