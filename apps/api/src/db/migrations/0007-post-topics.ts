import type { Kysely } from 'kysely';

/**
 * Offers, events and news (ADR 0030): a post's kind and the kind's fields. `post_type` is
 * `news` for every plain post (Google's STANDARD); `topic` is JSON (title, start/end instants,
 * coupon code, redeem link, terms), null for a plain post.
 */
export const postTopics = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('posts')
      .addColumn('post_type', 'text', (c) => c.notNull().defaultTo('news'))
      .execute();
    await db.schema.alterTable('posts').addColumn('topic', 'text').execute();
    await db.schema
      .createIndex('posts_store_type_idx')
      .on('posts')
      .columns(['store_id', 'post_type', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('posts_store_type_idx').ifExists().execute();
    await db.schema.alterTable('posts').dropColumn('topic').execute();
    await db.schema.alterTable('posts').dropColumn('post_type').execute();
  },
});
