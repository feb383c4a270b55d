import { sql } from 'kysely';
import { compiledOnce } from '../../db/compiled';
import { amongIds, isPostgres } from '../../db/among-ids';
import type { Db } from '../../db/kysely';
import type { NewUser, UserRow, UserUpdate } from '../../db/types';

export const GOOGLE_KEY = 'google_my_business';
/** Connection statuses that count as connected: connected 1 and sync 2 (spec 2). */
export const CONNECTED_STATUSES = [1, 2];
/** A list row's `google_status`: 1 when the store's Google connection counts as connected. */
export const googleStatusOf = (connection: number | string | null): 0 | 1 =>
  connection !== null && CONNECTED_STATUSES.includes(Number(connection)) ? 1 : 0;

export type UsersRepo = ReturnType<typeof createUsersRepo>;

/** What the access rule reads of a store, and what names it (a report's rows). */
export const STORE_NAME_COLUMNS = [
  'id',
  'role',
  'agency_id',
  'store_name',
  'company_name',
  'email',
] as const;
export type StoreName = Pick<UserRow, (typeof STORE_NAME_COLUMNS)[number]>;

export function createUsersRepo(db: Db) {
  // Read on every presented user of an agency's store (GET /account-setting/information among
  // them): compiled once, as the session lookups are (ADR 0016, 0025).
  const logoById = compiledOnce(db, (id: number) =>
    db.selectFrom('users').select('logo_url').where('id', '=', id),
  );
  return {
    findById: (id: number): Promise<UserRow | undefined> =>
      db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),

    findByEmail: (email: string): Promise<UserRow | undefined> =>
      db
        .selectFrom('users')
        .selectAll()
        .where(sql`lower(email)`, '=', email.toLowerCase())
        .executeTakeFirst(),

    async create(user: NewUser): Promise<UserRow> {
      return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },

    async update(id: number, patch: UserUpdate): Promise<UserRow> {
      return db
        .updateTable('users')
        .set(patch)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async logoOf(userId: number | null): Promise<string | null> {
      if (userId === null) return null;
      const [row] = await logoById(userId);
      return row?.logo_url ?? null;
    },

    async googleConnected(userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('publisher_connections')
        .select('id')
        .where('user_id', '=', userId)
        .where('publisher_key', '=', GOOGLE_KEY)
        .where('status', 'in', CONNECTED_STATUSES)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Is `storeId` a member of a group that `leaderId` leads? */
    /** Many users in one query (a multi-store call's access check). */
    findByIds: async (ids: readonly number[]): Promise<UserRow[]> =>
      ids.length === 0 ? [] : db.selectFrom('users').selectAll().where('id', 'in', ids).execute(),

    /** The same with only what the access rule and a store's name need (a report's thousand). */
    namesByIds: async (ids: readonly number[]): Promise<StoreName[]> =>
      ids.length === 0
        ? []
        : db
            .selectFrom('users')
            .select(STORE_NAME_COLUMNS)
            .where(amongIds(isPostgres(db), 'id', ids))
            .execute(),

    /** Which of these stores are in a group this leader leads, in one query. */
    async ledAmong(leaderId: number, storeIds: readonly number[]): Promise<Set<number>> {
      if (storeIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('group_members as m')
        .innerJoin('store_groups as g', 'g.id', 'm.group_id')
        .select('m.user_id')
        .where('g.leader_id', '=', leaderId)
        .where('m.user_id', 'in', storeIds)
        .execute();
      return new Set(rows.map((r) => r.user_id));
    },

    async ledBy(leaderId: number, storeId: number): Promise<boolean> {
      const row = await db
        .selectFrom('group_members as m')
        .innerJoin('store_groups as g', 'g.id', 'm.group_id')
        .select('m.user_id')
        .where('g.leader_id', '=', leaderId)
        .where('m.user_id', '=', storeId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
