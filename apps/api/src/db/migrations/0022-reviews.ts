import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Reviews (issue 25, ADR 0090).
 * - `reviews`: Tenpo's copy of each Google review of a store's chosen location, by Google's
 *   name (unique per store), with the store's reply and Google's moderation of it. `has_reply`
 *   (0/1) and `star_rating` are columns of their own so that the inbox's filters use indexes.
 *   Times are ISO instants as Google gives them (`created_at`: createTime). `notified_at`: the
 *   new-review mail went out (once).
 * - `review_syncs`: what the sync has done for a store: the location it read, the newest
 *   `updateTime` held (the next run reads pages until it reaches it), Google's totals.
 */
export const reviews = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  const real = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('reviews')
        .addColumn('id', idType, id)
        .addColumn('store_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('reviewer_name', 'text', (c) => c.notNull())
        .addColumn('reviewer_photo_url', 'text')
        .addColumn('is_anonymous', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('star_rating', 'integer', (c) => c.notNull())
        .addColumn('comment', 'text')
        .addColumn('media', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('has_reply', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('reply_comment', 'text')
        .addColumn('reply_updated_at', 'text')
        .addColumn('reply_state', 'text')
        .addColumn('reply_policy_violation', 'text')
        .addColumn('reply_url', 'text')
        .addColumn('first_seen_at', 'text', (c) => c.notNull())
        .addColumn('notified_at', 'text')
        .addUniqueConstraint('reviews_store_name', ['store_id', 'name'])
        .execute();
      await db.schema
        .createIndex('reviews_store_created')
        .on('reviews')
        .columns(['store_id', 'created_at'])
        .execute();
      // The inbox's filters (store, replied, stars) and its order, with the id for the page's
      // deferred join: a filtered page and its count read this index alone (bench/reviews.ts).
      await db.schema
        .createIndex('reviews_inbox')
        .on('reviews')
        .columns(['store_id', 'has_reply', 'star_rating', 'created_at', 'id'])
        .execute();
      await db.schema
        .createTable('review_syncs')
        .addColumn('store_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('location_id', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('newest_update', 'text')
        .addColumn('average_rating', real)
        .addColumn('total_review_count', 'integer')
        .addColumn('first_synced_at', 'text')
        .addColumn('synced_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('review_syncs').ifExists().execute();
      await db.schema.dropTable('reviews').ifExists().execute();
    },
  };
};
