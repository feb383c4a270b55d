import type { Kysely } from 'kysely';

/**
 * One token refresh at a time per grant, across processes (ADR 0022): a process refreshes
 * only while it holds the grant's lease row; the others wait and read the refreshed tokens.
 * A lease carries its end, so a process that dies holding one blocks the grant for seconds,
 * not for ever.
 */
export const grantRefreshLease = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('grant_refresh_leases')
      // `<publisher key>:<provider user>` (or the store when the provider names no user).
      .addColumn('grant_key', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('grant_refresh_leases').ifExists().execute();
  },
});
