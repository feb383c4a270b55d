import { compiledOnce } from '../../db/compiled';
import { changeStampOf, type Db } from '../../db/kysely';
import type { SessionRow, UserRow } from '../../db/types';

export type AuthRepo = ReturnType<typeof createAuthRepo>;

/**
 * The lookups every authenticated call makes: the session by its token hash (or by id, for a
 * rotation's successor), then its user by primary key. Two point lookups rather than one join:
 * with better-sqlite3 13 (SQLite 3.54) the join of the two rows took 4–5 times as long as both
 * lookups together (ADR 0016).
 */
const sessionQuery = (db: Db, column: 'token_hash' | 'id') =>
  compiledOnce(db, (value: string | number) =>
    db.selectFrom('sessions').selectAll().where(column, '=', value),
  );
const userQuery = (db: Db) =>
  compiledOnce(db, (id: number) => db.selectFrom('users').selectAll().where('id', '=', id));

type Found = { session: SessionRow; user: UserRow };

/** Most sessions a process keeps the lookup of (ADR 0031); past it, the table starts afresh. */
const KNOWN_SESSIONS_MAX = 1000;

const queries = (db: Db) => {
  // Compiled once per handle: the lookups every authenticated call makes (ADR 0016).
  const byHash = sessionQuery(db, 'token_hash');
  const byId = sessionQuery(db, 'id');
  const userById = userQuery(db);
  const withUser = async (
    session: SessionRow | undefined,
  ): Promise<{ session: SessionRow; user: UserRow } | undefined> => {
    if (!session) return undefined;
    const user = (await userById(session.user_id))[0];
    return user ? { session, user } : undefined;
  };
  // On SQLite, a token's session and user as last read, kept while the database's change stamp
  // stays the same: no write on this connection and no commit by any other since (ADR 0031).
  // The rows are frozen: every request that reuses them shares them.
  const changeStamp = changeStampOf(db);
  const known = new Map<string, { stamp: number; found: Found | undefined }>();
  const read = async (tokenHash: string) => withUser((await byHash(tokenHash))[0]);
  const lookUp = async (tokenHash: string): Promise<Found | undefined> => {
    const stamp = changeStamp?.() ?? null;
    if (stamp === null) return read(tokenHash);
    const hit = known.get(tokenHash);
    if (hit?.stamp === stamp) return hit.found;
    const found = await read(tokenHash);
    if (found) {
      Object.freeze(found.session);
      Object.freeze(found.user);
    }
    if (known.size >= KNOWN_SESSIONS_MAX) known.clear();
    known.set(tokenHash, { stamp, found });
    return found;
  };
  return {
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
    sessionByHash: lookUp,

    /** The same by session id: the successor a rotation recorded in `replaced_by`. */
    sessionById: async (id: number) => withUser((await byId(id))[0]),

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

    // ---- Failed sign-ins per address (ADR 0065): compare-and-set, so that every process counts.

    throttleOf: (email: string) =>
      db.selectFrom('login_throttle').selectAll().where('email', '=', email).executeTakeFirst(),

    /** The first failure of a run; false when another request wrote the row first. */
    async throttleStart(email: string, at: string): Promise<boolean> {
      const row = await db
        .insertInto('login_throttle')
        .values({ email, failures: 1, last_failed_at: at, locked_until: null, notified: 0 })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('email')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** One more failure, only if the row is still as read; false when another request won. */
    async throttleNext(
      email: string,
      seen: { failures: number; last_failed_at: string },
      next: { failures: number; last_failed_at: string; locked_until: string | null },
      restart: boolean,
    ): Promise<boolean> {
      const res = await db
        .updateTable('login_throttle')
        .set({ ...next, ...(restart ? { notified: 0 } : {}) })
        .where('email', '=', email)
        .where('failures', '=', seen.failures)
        .where('last_failed_at', '=', seen.last_failed_at)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Marks the run as mailed to its owner; true for the one request that did it. */
    async throttleNotify(email: string): Promise<boolean> {
      const res = await db
        .updateTable('login_throttle')
        .set({ notified: 1 })
        .where('email', '=', email)
        .where('notified', '=', 0)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async throttleClear(email: string): Promise<void> {
      await db.deleteFrom('login_throttle').where('email', '=', email).execute();
    },

    async setPassword(userId: number, passwordHash: string, at: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: at })
        .where('id', '=', userId)
        .execute();
    },
  };
};

export function createAuthRepo(db: Db) {
  return {
    ...queries(db),
    /** One unit of work: the queries on a transaction, and the transaction (for mail, jobs). */
    transaction: <T>(fn: (repo: ReturnType<typeof queries>, trx: Db) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}
