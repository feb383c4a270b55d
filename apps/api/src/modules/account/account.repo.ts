import type { Db } from '../../db/kysely';

export type AccountRepo = ReturnType<typeof createAccountRepo>;

export function createAccountRepo(db: Db) {
  return {
    async emailTakenByOther(email: string, userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email.toLowerCase())
        .where('id', '!=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
