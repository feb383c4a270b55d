import type { Db } from '../../db/kysely';
import type { SessionRow, UserRow } from '../../db/types';

export type AuthRepo = ReturnType<typeof createAuthRepo>;

/** A session and its user, in one round trip (every authenticated call asks). */
async function sessionWithUser(
  db: Db,
  column: 's.token_hash' | 's.id',
  value: string | number,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select([
      's.id as s_id',
      's.token_hash as s_token_hash',
      's.created_at as s_created_at',
      's.expires_at as s_expires_at',
      's.revoked_at as s_revoked_at',
      's.replaced_by as s_replaced_by',
      's.user_agent as s_user_agent',
      's.ip as s_ip',
    ])
    .where(column, '=', value)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    s_id,
    s_token_hash,
    s_created_at,
    s_expires_at,
    s_revoked_at,
    s_replaced_by,
    s_user_agent,
    s_ip,
    ...user
  } = row;
  const session: SessionRow = {
    id: s_id,
    user_id: user.id,
    token_hash: s_token_hash,
    created_at: s_created_at,
    expires_at: s_expires_at,
    revoked_at: s_revoked_at,
    replaced_by: s_replaced_by,
    user_agent: s_user_agent,
    ip: s_ip,
  };
  return { session, user };
}

const queries = (db: Db) => ({
  async createSession(s: {
    user_id: number;
    token_hash: string;
    created_at: string;
    expires_at: string;
    user_agent: string | null;
    ip: string | null;
  }): Promise<SessionRow> {
    return db
      .insertInto('sessions')
      .values({ ...s, revoked_at: null, replaced_by: null })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** The session of a token hash with its user. */
  sessionByHash: (tokenHash: string) => sessionWithUser(db, 's.token_hash', tokenHash),

  /** The same by session id: the successor a rotation recorded in `replaced_by`. */
  sessionById: (id: number) => sessionWithUser(db, 's.id', id),

  /** Revokes a session only if it is still live; false when another request revoked it first. */
  async revoke(id: number, at: string, replacedBy: number | null = null): Promise<boolean> {
    const res = await db
      .updateTable('sessions')
      .set({ revoked_at: at, replaced_by: replacedBy })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  async revokeAllOf(userId: number, at: string, exceptId: number | null = null): Promise<void> {
    let q = db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    await q.execute();
  },

  async deleteSession(id: number): Promise<void> {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
  },

  async createReset(r: {
    user_id: number;
    token_hash: string;
    created_at: string;
    expires_at: string;
  }): Promise<void> {
    await db
      .insertInto('password_resets')
      .values({ ...r, used_at: null })
      .execute();
  },

  resetByHash: (tokenHash: string) =>
    db
      .selectFrom('password_resets')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst(),

  async useReset(id: number, at: string): Promise<boolean> {
    const res = await db
      .updateTable('password_resets')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  async setPassword(userId: number, passwordHash: string, at: string): Promise<void> {
    await db
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: at })
      .where('id', '=', userId)
      .execute();
  },
});

export function createAuthRepo(db: Db) {
  return {
    ...queries(db),
    transaction: <T>(fn: (repo: ReturnType<typeof queries>) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx))),
  };
}
