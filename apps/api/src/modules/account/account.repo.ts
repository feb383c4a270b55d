import type { Db } from '../../db/kysely';

export type AccountRepo = ReturnType<typeof createAccountRepo>;
export type AccountQueries = ReturnType<typeof queries>;

const queries = (db: Db) => ({
  async emailTakenByOther(email: string, userId: number): Promise<boolean> {
    const row = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email.toLowerCase())
      .where('id', '!=', userId)
      .executeTakeFirst();
    return row !== undefined;
  },

  // ---- A new login address waiting for its confirmation (ADR 0065) ----

  /** A new request replaces the user's earlier ones: only the latest link works. */
  async createEmailChange(c: {
    user_id: number;
    new_email: string;
    token_hash: string;
    created_at: string;
    expires_at: string;
  }): Promise<void> {
    await db
      .updateTable('email_changes')
      .set({ used_at: c.created_at })
      .where('user_id', '=', c.user_id)
      .where('used_at', 'is', null)
      .execute();
    await db
      .insertInto('email_changes')
      .values({ ...c, used_at: null })
      .execute();
  },

  emailChangeByHash: (tokenHash: string) =>
    db
      .selectFrom('email_changes')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst(),

  /** Uses the link once; false when another request used it first. */
  async useEmailChange(id: number, at: string): Promise<boolean> {
    const res = await db
      .updateTable('email_changes')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  async setEmail(userId: number, email: string, at: string): Promise<void> {
    await db.updateTable('users').set({ email, updated_at: at }).where('id', '=', userId).execute();
  },
});

export function createAccountRepo(db: Db) {
  return {
    ...queries(db),
    /** One unit of work: the queries on a transaction, and the transaction (for mail, audit). */
    transaction: <T>(fn: (repo: AccountQueries, trx: Db) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}
