import type { Kysely } from 'kysely';

/**
 * The host a consent started on (ADR 0015): the provider returns to PUBLIC_URL's callback,
 * and the callback sends the browser on to this origin, where its session lives. Null means
 * PUBLIC_URL's own origin.
 */
export const oauthReturnOrigin = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('oauth_states').addColumn('return_origin', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('oauth_states').dropColumn('return_origin').execute();
  },
});
