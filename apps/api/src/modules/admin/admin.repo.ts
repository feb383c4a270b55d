import { sql, type Kysely, type Transaction } from 'kysely';
import { recomputeLeaders } from '../groups/groups.repo';
import { ROLE } from '@tenpo/domain';
import type { Db } from '../../db/kysely';
import type { Database, NewUser, UserRow, UserUpdate } from '../../db/types';
import type { Seek } from '../../lib/keyset';
import { seekRows, type KeysetOrder } from '../../lib/keyset.repo';
import { createReviewMetricsRepo } from '../reviews/review-metrics.repo';
import { CONNECTED_STATUSES, GOOGLE_KEY } from '../users/users.repo';

type Q = Kysely<Database> | Transaction<Database>;

export type AdminStoreFilter = {
  /** Only the stores of this agency. */
  agencyId?: number;
  /** Only the customers of the platform: stores of no agency (ADR 0049). */
  customersOnly?: boolean;
  /** Only the members of this group that belong to the group's own agency. */
  groupId?: number;
  search?: string;
};

/** A LIKE pattern for a search text, its wildcards escaped. */
const likeOf = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The white-label domain of an agency: the first one it has (one per agency in practice). */
export type AgencyDomain = {
  id: number;
  prefix: string;
  title: string;
  favicon_url: string | null;
};

export type AdminAgencyDbRow = UserRow & {
  prefix: string | null;
  title: string | null;
  favicon_url: string | null;
  store_count: number;
  google_connected: number;
};

export type AdminStoreDbRow = UserRow & {
  agency_name: string | null;
  agency_logo: string | null;
  app_name: string | null;
  google_connection: number | null;
  /** The method stored with the store's payments (ADR 0050); null: none chosen yet. */
  payment_account_method: string | null;
};

export type AdminRepo = ReturnType<typeof createAdminRepo>;
export type AdminTx = ReturnType<typeof adminQueries>;

/** The stores the manager lists, filtered. */
function listedStores(db: Q, f: AdminStoreFilter) {
  let q = db.selectFrom('users as u').where('u.role', 'in', [ROLE.freeTrial, ROLE.shop]);
  if (f.agencyId !== undefined) q = q.where('u.agency_id', '=', f.agencyId);
  if (f.customersOnly) q = q.where('u.agency_id', 'is', null);
  if (f.groupId !== undefined) {
    const groupId = f.groupId;
    // A member counts only while it is a store of the group's agency: with agency_id naming
    // another agency the list is empty, never that agency's or the group's foreign stores.
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('group_members as m')
          .innerJoin('store_groups as g', 'g.id', 'm.group_id')
          .select('m.user_id')
          .where('m.group_id', '=', groupId)
          .whereRef('m.user_id', '=', 'u.id')
          .whereRef('g.agency_id', '=', 'u.agency_id'),
      ),
    );
  }
  if (f.search) {
    const like = likeOf(f.search);
    q = q.where((eb) =>
      eb.or(
        (['u.store_name', 'u.company_name', 'u.email', 'u.name', 'u.phone'] as const).map((c) =>
          eb(sql`lower(coalesce(${sql.ref(c)}, ''))`, 'like', sql`${like} escape '\\'`),
        ),
      ),
    );
  }
  return q;
}

/** The agencies the manager lists, searched by name, e-mail or white-label domain. */
function listedAgencies(db: Q, search?: string) {
  let q = db.selectFrom('users as u').where('u.role', '=', ROLE.agency);
  if (search) {
    const like = likeOf(search);
    q = q.where((eb) =>
      eb.or([
        ...(['u.company_name', 'u.email', 'u.name'] as const).map((c) =>
          eb(sql`lower(coalesce(${sql.ref(c)}, ''))`, 'like', sql`${like} escape '\\'`),
        ),
        eb.exists(
          eb
            .selectFrom('agency_domains as d')
            .select('d.id')
            .whereRef('d.agency_id', '=', 'u.id')
            .where((e) =>
              e.or([
                e(sql`lower(d.prefix)`, 'like', sql`${like} escape '\\'`),
                e(sql`lower(d.title)`, 'like', sql`${like} escape '\\'`),
              ]),
            ),
        ),
      ]),
    );
  }
  return q;
}

/** The listed stores with their agency, app name, Google connection and payment method. */
const listedStoreRows = (db: Q, f: AdminStoreFilter) =>
  listedStores(db, f)
    .selectAll('u')
    .select((eb) => [
      eb
        .selectFrom('users as a')
        .select('a.company_name')
        .whereRef('a.id', '=', 'u.agency_id')
        .as('agency_name'),
      eb
        .selectFrom('users as a')
        .select('a.logo_url')
        .whereRef('a.id', '=', 'u.agency_id')
        .as('agency_logo'),
      eb
        .selectFrom('agency_domains as d')
        .select('d.title')
        .whereRef('d.agency_id', '=', 'u.agency_id')
        .orderBy('d.id')
        .limit(1)
        .as('app_name'),
      eb
        .selectFrom('publisher_connections as p')
        .select('p.status')
        .whereRef('p.user_id', '=', 'u.id')
        .where('p.publisher_key', '=', GOOGLE_KEY)
        .limit(1)
        .as('google_connection'),
      eb
        .selectFrom('payment_accounts as pa')
        .select('pa.method')
        .whereRef('pa.user_id', '=', 'u.id')
        .as('payment_account_method'),
    ]);

/** The listed agencies with their domain, store count and Google-connected stores. */
const listedAgencyRows = (db: Q, search?: string) =>
  listedAgencies(db, search)
    .selectAll('u')
    .select((eb) => [
      ...(['prefix', 'title', 'favicon_url'] as const).map((c) =>
        eb
          .selectFrom('agency_domains as d')
          .select(`d.${c}`)
          .whereRef('d.agency_id', '=', 'u.id')
          .orderBy('d.id')
          .limit(1)
          .as(c),
      ),
      eb
        .selectFrom('users as s')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('s.agency_id', '=', 'u.id')
        .where('s.role', 'in', [ROLE.freeTrial, ROLE.shop])
        .as('store_count'),
      eb
        .selectFrom('users as s')
        .innerJoin('publisher_connections as p', 'p.user_id', 's.id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('s.agency_id', '=', 'u.id')
        .where('p.publisher_key', '=', GOOGLE_KEY)
        .where('p.status', 'in', CONNECTED_STATUSES)
        .as('google_connected'),
    ]);

const asAgency = (r: Record<string, unknown>): AdminAgencyDbRow =>
  ({
    ...r,
    store_count: Number(r.store_count ?? 0),
    google_connected: Number(r.google_connected ?? 0),
  }) as AdminAgencyDbRow;

/** The manager's lists are in id order: the users primary key, or an index ending in id. */
const BY_ID: KeysetOrder = { keys: [sql.ref('u.id')], direction: 'asc' };

/** The manager's lists: stores and agencies, counted, paged and one by one. */
function listQueries(db: Q) {
  return {
    async countStores(f: AdminStoreFilter): Promise<number> {
      const r = await listedStores(db, f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** A page of the stores, by id, as `seek` says (keyset paging, ADR 0098). */
    async storePage(f: AdminStoreFilter, seek: Seek) {
      const rows = await seekRows(listedStoreRows(db, f), BY_ID, seek);
      return rows as AdminStoreDbRow[];
    },
    async store(id: number, f: AdminStoreFilter = {}): Promise<AdminStoreDbRow | undefined> {
      return (await listedStoreRows(db, f).where('u.id', '=', id).executeTakeFirst()) as
        | AdminStoreDbRow
        | undefined;
    },

    async countAgencies(search?: string): Promise<number> {
      const r = await listedAgencies(db, search)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** A page of the agencies, by id, as `seek` says (keyset paging, ADR 0098). */
    async agencyPage(search: string | undefined, seek: Seek) {
      const rows = await seekRows(listedAgencyRows(db, search), BY_ID, seek);
      return rows.map(asAgency);
    },
    async agency(id: number): Promise<AdminAgencyDbRow | undefined> {
      const r = await listedAgencyRows(db).where('u.id', '=', id).executeTakeFirst();
      return r ? asAgency(r) : undefined;
    },
  };
}

/** Accounts and white-label domains: uniqueness checks, users written, an agency's domain. */
function accountQueries(db: Q) {
  return {
    /** The user with this e-mail (any case), other than `exceptId`. */
    async emailTaken(email: string, exceptId?: number): Promise<boolean> {
      let q = db
        .selectFrom('users')
        .select('id')
        .where(sql`lower(email)`, '=', email.toLowerCase());
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    /** The agency that owns this prefix, if any. */
    async prefixOwner(prefix: string): Promise<number | undefined> {
      const r = await db
        .selectFrom('agency_domains')
        .select('agency_id')
        .where(sql`lower(prefix)`, '=', prefix.toLowerCase())
        .executeTakeFirst();
      return r?.agency_id;
    },

    async isAgency(id: number): Promise<boolean> {
      const r = await db
        .selectFrom('users')
        .select('id')
        .where('id', '=', id)
        .where('role', '=', ROLE.agency)
        .executeTakeFirst();
      return r !== undefined;
    },

    insertUser: (u: NewUser): Promise<UserRow> =>
      db.insertInto('users').values(u).returningAll().executeTakeFirstOrThrow(),

    updateUser: (id: number, patch: UserUpdate): Promise<UserRow> =>
      db
        .updateTable('users')
        .set(patch)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),

    domainOf: async (agencyId: number): Promise<AgencyDomain | undefined> =>
      db
        .selectFrom('agency_domains')
        .select(['id', 'prefix', 'title', 'favicon_url'])
        .where('agency_id', '=', agencyId)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst(),

    async saveDomain(
      agencyId: number,
      d: { prefix: string; title: string; favicon_url: string | null },
      now: string,
    ): Promise<void> {
      const found = await db
        .selectFrom('agency_domains')
        .select('id')
        .where('agency_id', '=', agencyId)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (found) await db.updateTable('agency_domains').set(d).where('id', '=', found.id).execute();
      else
        await db
          .insertInto('agency_domains')
          .values({ agency_id: agencyId, ...d, created_at: now })
          .execute();
    },
  };
}

/** Groups and the stores of an agency, and a store's leaving of groups. */
function groupQueries(db: Q) {
  return {
    /** The agency's groups, and the stores it owns. */
    groupsOf: (agencyId: number) =>
      db
        .selectFrom('store_groups')
        .select(['id', 'name', 'leader_id'])
        .where('agency_id', '=', agencyId)
        .orderBy('id')
        .execute(),
    storesOf: (agencyId: number) =>
      db
        .selectFrom('users')
        .selectAll()
        .where('agency_id', '=', agencyId)
        .where('role', 'in', [ROLE.freeTrial, ROLE.shop])
        .orderBy('id')
        .execute(),

    /** The groups of other agencies this store is in, or leads (after it moved agency). */
    foreignGroupsOf: (storeId: number, agencyId: number | null) => {
      let q = db
        .selectFrom('store_groups as g')
        .select(['g.id', 'g.name', 'g.agency_id', 'g.leader_id'])
        .where((eb) =>
          eb.or([
            eb('g.leader_id', '=', storeId),
            eb.exists(
              eb
                .selectFrom('group_members as m')
                .select('m.user_id')
                .whereRef('m.group_id', '=', 'g.id')
                .where('m.user_id', '=', storeId),
            ),
          ]),
        );
      if (agencyId !== null) q = q.where('g.agency_id', '!=', agencyId);
      return q.orderBy('g.id').execute();
    },

    /** Takes a store out of these groups: no longer a member, no longer their leader. */
    async leaveGroups(storeId: number, groupIds: number[]): Promise<void> {
      if (groupIds.length === 0) return;
      await db
        .deleteFrom('group_members')
        .where('user_id', '=', storeId)
        .where('group_id', 'in', groupIds)
        .execute();
      await db
        .updateTable('store_groups')
        .set({ leader_id: null })
        .where('leader_id', '=', storeId)
        .where('id', 'in', groupIds)
        .execute();
    },

    deleteGroups: async (ids: number[]): Promise<void> => {
      if (ids.length > 0) await db.deleteFrom('store_groups').where('id', 'in', ids).execute();
    },

    /**
     * `is_leader` is 1 exactly while the user leads a group: recomputed for these users after
     * a change to groups or their leaders.
     */
    recomputeLeaders: (userIds: readonly number[]) => recomputeLeaders(db, userIds),
  };
}

/** Removing an agency or a user, and what is kept or counted around it. */
function removalQueries(db: Q) {
  return {
    /** Detaches the agency's stores: they become customers of the platform (ADR 0049). */
    async detachStores(agencyId: number, patch: UserUpdate): Promise<void> {
      await db
        .updateTable('users')
        .set({ ...patch, agency_id: null })
        .where('agency_id', '=', agencyId)
        .execute();
    },

    /**
     * Posts this user wrote for other stores stay with their store: their author becomes the
     * store itself, so the user's removal does not take them along (posts.author_id cascades).
     */
    async handOverAuthoredPosts(userId: number): Promise<number> {
      const r = await db
        .updateTable('posts')
        .set((eb) => ({ author_id: eb.ref('store_id') }))
        .where('author_id', '=', userId)
        .where('store_id', '!=', userId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /** Removes a user and what cascades from it (sessions, connections, posts, photos…). */
    async deleteUser(id: number): Promise<void> {
      // Products first: their category reference is RESTRICT, and the cascade's order is not ours.
      await db.deleteFrom('products').where('store_id', '=', id).execute();
      await db.deleteFrom('users').where('id', '=', id).execute();
    },

    /** Ends the user's sessions (its password was changed by the manager). */
    async revokeSessions(userId: number, now: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /** What a store's removal leaves behind, counted for the audit row. */
    async storeFootprint(id: number) {
      const count = async (
        table: 'posts' | 'publisher_connections' | 'group_members' | 'photos' | 'sessions',
        column: 'store_id' | 'user_id',
      ) => {
        const r = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(sql.ref(column), '=', id)
          .executeTakeFirstOrThrow();
        return Number(r.n);
      };
      return {
        posts: await count('posts', 'store_id'),
        connections: await count('publisher_connections', 'user_id'),
        groups: await count('group_members', 'user_id'),
        photos: await count('photos', 'store_id'),
      };
    },
  };
}

/** The queries of the manager's admin, on the database or inside a transaction. */
function adminQueries(db: Q) {
  return {
    ...listQueries(db),
    ...accountQueries(db),
    ...groupQueries(db),
    ...removalQueries(db),
  };
}

export function createAdminRepo(db: Db) {
  const reviewMetrics = createReviewMetricsRepo(db);
  return {
    ...adminQueries(db),
    /** A page of stores' reviews as the copy holds them now (the overview's 平均評価, 未返信). */
    reviewSummaries: (storeIds: readonly number[]) => reviewMetrics.summaries(storeIds),
    /** Runs `work` in one transaction: nothing of it is saved unless all of it is. */
    transaction: <T>(work: (tx: AdminTx, trx: Transaction<Database>) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => work(adminQueries(trx), trx)),
  };
}
