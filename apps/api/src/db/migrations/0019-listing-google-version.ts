import type { Kysely } from 'kysely';

/**
 * What Google shows instead of the store's saved listing (issue 21 item 9, ADR 0061): JSON text
 * of the last look at `locations/{id}:getGoogleUpdated` after an edit — the fields Google
 * changed (its value and ours) and those it holds pending. Null: nothing to show.
 */
export const listingGoogleVersion = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('store_profiles').addColumn('google_version', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('store_profiles').dropColumn('google_version').execute();
  },
});
