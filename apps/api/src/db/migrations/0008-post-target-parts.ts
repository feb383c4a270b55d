import type { Kysely } from 'kysely';

/**
 * A target's provider posts and the account its limits count by (issue 9).
 * - `parts`: JSON list, one entry per provider post the target becomes (Facebook and X split
 *   photos from videos, spec 2 §4): its id and URL once live, its state, when it was last sent
 *   and the media uploaded for that send (what settling looks for). Null until the first send.
 * - `account`: the provider account the store's grant posts as (Instagram business account,
 *   X user, Facebook page, Google location), so stores sharing one account share its limits.
 */
export const postTargetParts = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('post_targets').addColumn('parts', 'text').execute();
    await db.schema.alterTable('post_targets').addColumn('account', 'text').execute();
    // Settling reads the ids the store's (or the account's) other targets on a channel recorded.
    await db.schema
      .createIndex('post_targets_store_channel')
      .on('post_targets')
      .columns(['store_id', 'publisher_key', 'id'])
      .execute();
    await db.schema
      .createIndex('post_targets_account_channel')
      .on('post_targets')
      .columns(['account', 'publisher_key', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('post_targets_account_channel').ifExists().execute();
    await db.schema.dropIndex('post_targets_store_channel').ifExists().execute();
    await db.schema.alterTable('post_targets').dropColumn('account').execute();
    await db.schema.alterTable('post_targets').dropColumn('parts').execute();
  },
});
