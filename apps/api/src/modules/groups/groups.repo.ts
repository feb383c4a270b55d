import { sql } from 'kysely';
import { ROLE, type AgencyGroup } from '@tenpo/domain';
import type { Db, Dialect } from '../../db/kysely';

export type GroupsRepo = ReturnType<typeof createGroupsRepo>;
export type GroupsQueries = ReturnType<typeof queries>;

/** A store as the group rules need it: whose it is, and whether it may lead. */
export type GroupStore = { id: number; role: number; agency_id: number | null };
export type GroupRow = { id: number; agency_id: number; name: string; leader_id: number | null };

const escapeLike = (s: string) => s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/** The queries, on the database or on a transaction (`transaction` below). */
/**
 * `is_leader` of these users becomes exactly "leads at least one group" (ADR 0048). Run it in
 * the change's transaction, after the change, for the old and the new leaders; the admin's
 * deletes use it too (ADR 0049).
 */
export async function recomputeLeaders(db: Db, userIds: readonly number[]): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return;
  await db
    .updateTable('users')
    .set((eb) => ({
      is_leader: eb
        .case()
        .when(
          eb.exists(
            eb
              .selectFrom('store_groups as g')
              .select('g.id')
              .whereRef('g.leader_id', '=', 'users.id'),
          ),
        )
        .then(1)
        .else(0)
        .end(),
    }))
    .where('id', 'in', ids)
    .execute();
}

const queries = (db: Db, dialect: Dialect) => {
  const present = async (
    groups: { id: number; agency_id: number; name: string; leader_id: number | null }[],
  ): Promise<AgencyGroup[]> => {
    if (groups.length === 0) return [];
    const ids = groups.map((g) => g.id);
    const members = await db
      .selectFrom('group_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.group_id', 'u.id', 'u.store_name', 'u.company_name', 'u.email'])
      .where('m.group_id', 'in', ids)
      .orderBy('u.id')
      .execute();
    const agencies = await db
      .selectFrom('users')
      .select(['id', 'company_name', 'name', 'email'])
      .where('id', 'in', [...new Set(groups.map((g) => g.agency_id))])
      .execute();
    return groups.map((g) => {
      const a = agencies.find((x) => x.id === g.agency_id);
      return {
        id: g.id,
        name: g.name,
        leader: g.leader_id,
        agency_id: g.agency_id,
        agency_name: a ? (a.company_name ?? a.name ?? a.email) : null,
        stores: members
          .filter((m) => m.group_id === g.id)
          .map((m) => ({ id: m.id, name: m.store_name ?? m.company_name ?? m.email })),
      };
    });
  };

  return {
    /** An agency account (role 11) by id, or undefined. */
    agency: (id: number) =>
      db
        .selectFrom('users')
        .select(['id'])
        .where('id', '=', id)
        .where('role', '=', ROLE.agency)
        .executeTakeFirst(),

    /**
     * A group by id. `lock` (inside a transaction) holds its row until commit on PostgreSQL, so
     * two changes of one group run one after the other; SQLite writes one transaction at a time.
     */
    async group(id: number, lock = false): Promise<GroupRow | undefined> {
      let q = db
        .selectFrom('store_groups')
        .select(['id', 'agency_id', 'name', 'leader_id'])
        .where('id', '=', id);
      if (lock && dialect === 'postgres') q = q.forUpdate();
      return q.executeTakeFirst();
    },

    memberIds: async (groupId: number): Promise<number[]> =>
      (
        await db
          .selectFrom('group_members')
          .select('user_id')
          .where('group_id', '=', groupId)
          .orderBy('user_id')
          .execute()
      ).map((r) => r.user_id),

    /** The users named, whatever they are (the service judges them). */
    stores: async (ids: readonly number[]): Promise<GroupStore[]> =>
      ids.length === 0
        ? []
        : db
            .selectFrom('users')
            .select(['id', 'role', 'agency_id'])
            .where('id', 'in', [...ids])
            .execute(),

    /** Holds the rows of these users until commit (PostgreSQL), in id order against deadlocks. */
    async lockUsers(ids: readonly number[]): Promise<void> {
      if (dialect !== 'postgres' || ids.length === 0) return;
      await db
        .selectFrom('users')
        .select('id')
        .where('id', 'in', [...ids])
        .orderBy('id')
        .forUpdate()
        .execute();
    },

    async insertGroup(g: Omit<GroupRow, 'id'>, at: string): Promise<number> {
      const row = await db
        .insertInto('store_groups')
        .values({ ...g, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async updateGroup(id: number, g: Pick<GroupRow, 'name' | 'leader_id'>, at: string) {
      await db
        .updateTable('store_groups')
        .set({ ...g, updated_at: at })
        .where('id', '=', id)
        .execute();
    },

    async setMembers(groupId: number, storeIds: readonly number[]): Promise<void> {
      await db.deleteFrom('group_members').where('group_id', '=', groupId).execute();
      if (storeIds.length > 0)
        await db
          .insertInto('group_members')
          .values(storeIds.map((user_id) => ({ group_id: groupId, user_id })))
          .execute();
    },

    async deleteGroup(id: number): Promise<void> {
      await db.deleteFrom('group_members').where('group_id', '=', id).execute();
      await db.deleteFrom('store_groups').where('id', '=', id).execute();
    },

    /**
     * `is_leader` of these users becomes exactly "leads at least one group" (ADR 0048). Run it
     * in the change's transaction, after the change, for the old and the new leaders.
     */
    recomputeLeaders: (userIds: readonly number[]) => recomputeLeaders(db, userIds),

    /** Groups with their stores and agency, in id order. */
    async view(ids: readonly number[]): Promise<AgencyGroup[]> {
      if (ids.length === 0) return [];
      return present(
        await db
          .selectFrom('store_groups')
          .select(['id', 'agency_id', 'name', 'leader_id'])
          .where('id', 'in', [...ids])
          .orderBy('id')
          .execute(),
      );
    },

    /** The manager's list: every agency's groups, searched by name, in id order. */
    async page(
      f: { search?: string; agencyId?: number },
      page: number,
      perPage: number,
    ): Promise<{ data: AgencyGroup[]; total: number }> {
      let q = db.selectFrom('store_groups');
      if (f.search)
        q = q.where(sql`lower(name)`, 'like', sql`${`%${escapeLike(f.search)}%`} escape '\\'`);
      if (f.agencyId !== undefined) q = q.where('agency_id', '=', f.agencyId);
      const total = await q
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const rows = await q
        .select(['id', 'agency_id', 'name', 'leader_id'])
        .orderBy('id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { data: await present(rows), total: Number(total.n) };
    },
  };
};

export function createGroupsRepo(db: Db, dialect: Dialect) {
  return {
    ...queries(db, dialect),
    /** One unit of work: the queries on a transaction, and the transaction (for the audit log). */
    transaction: <T>(fn: (repo: GroupsQueries, trx: Db) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx, dialect), trx)),
  };
}
