import type { Db } from '../../db/kysely';
import type { Insertable } from 'kysely';
import type { RegistrationRequestsTable } from '../../db/types';

export type RegistrationRepo = ReturnType<typeof createRegistrationRepo>;
export type RegistrationQueries = ReturnType<typeof queries>;

/** The queries, on the database or on a transaction (`transaction` below). */
const queries = (db: Db) => ({
  /** The request and its token: two rows, so call it inside `transaction`. */
  async createRequest(
    r: Insertable<RegistrationRequestsTable>,
    token: { token_hash: string; expires_at: string },
  ): Promise<number> {
    const req = await db
      .insertInto('registration_requests')
      .values(r)
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('registration_tokens')
      .values({
        request_id: req.id,
        email: r.email,
        token_hash: token.token_hash,
        created_at: r.created_at,
        expires_at: token.expires_at,
        used_at: null,
      })
      .execute();
    return req.id;
  },

  tokenByHash: (tokenHash: string) =>
    db
      .selectFrom('registration_tokens as t')
      .innerJoin('registration_requests as r', 'r.id', 't.request_id')
      .select([
        't.id as token_id',
        't.email',
        't.expires_at',
        't.used_at',
        'r.id as request_id',
        'r.full_name',
        'r.company_name',
        'r.store_name',
        'r.phone',
        'r.agent_code',
      ])
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst(),

  /** Uses the token and links the request to its new user; false when it was already used. */
  async useToken(tokenId: number, requestId: number, userId: number, at: string): Promise<boolean> {
    const res = await db
      .updateTable('registration_tokens')
      .set({ used_at: at })
      .where('id', '=', tokenId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    await db
      .updateTable('registration_requests')
      .set({ user_id: userId })
      .where('id', '=', requestId)
      .execute();
    return Number(res.numUpdatedRows) === 1;
  },
});

export function createRegistrationRepo(db: Db) {
  return {
    ...queries(db),
    /** One unit of work: the queries on a transaction, and the transaction (for mail, jobs). */
    transaction: <T>(fn: (repo: RegistrationQueries, trx: Db) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}
