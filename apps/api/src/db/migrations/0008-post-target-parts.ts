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
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('post_targets').dropColumn('account').execute();
    await db.schema.alterTable('post_targets').dropColumn('parts').execute();
  },
});
