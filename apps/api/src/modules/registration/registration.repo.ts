import type { Db } from '../../db/kysely';
import type { Insertable } from 'kysely';
import type { RegistrationRequestsTable } from '../../db/types';

export type RegistrationRepo = ReturnType<typeof createRegistrationRepo>;

export function createRegistrationRepo(db: Db) {
  return {
    async createRequest(
      r: Insertable<RegistrationRequestsTable>,
      token: { token_hash: string; expires_at: string },
    ): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const req = await trx
          .insertInto('registration_requests')
          .values(r)
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
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
      });
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

    /** Uses the token and links the request to its new user in one transaction with the insert. */
    transaction: <T>(fn: (trx: Db) => Promise<T>): Promise<T> => db.transaction().execute(fn),

    async useToken(
      trx: Db,
      tokenId: number,
      requestId: number,
      userId: number,
      at: string,
    ): Promise<boolean> {
      const res = await trx
        .updateTable('registration_tokens')
        .set({ used_at: at })
        .where('id', '=', tokenId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      await trx
        .updateTable('registration_requests')
        .set({ user_id: userId })
        .where('id', '=', requestId)
        .execute();
      return Number(res.numUpdatedRows) === 1;
    },
  };
}
