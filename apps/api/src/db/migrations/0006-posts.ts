import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Posts (issue 9, ADR 0026): one row per store of a submission (`submission_id` ties a
 * multi-store submission together), its media in order, and one target per store × channel,
 * the unit of delivery with its own state, idempotency key and outcome.
 */
export const posts = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  const user = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('users.id').onDelete('cascade');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('posts')
        .addColumn('id', idType, id)
        .addColumn('submission_id', 'text', (c) => c.notNull())
        .addColumn('store_id', 'integer', user)
        .addColumn('author_id', 'integer', user)
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('button_type', 'integer', (c) => c.notNull())
        .addColumn('button_link', 'text')
        .addColumn('phone_number', 'text')
        // JSON list of publisher keys, in the order given (shared_sns_type).
        .addColumn('channels', 'text', (c) => c.notNull())
        .addColumn('publish_at', 'text', (c) => c.notNull())
        .addColumn('delete_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('posts_store_created')
        .on('posts')
        .columns(['store_id', 'created_at'])
        .execute();
      await db.schema.createIndex('posts_submission').on('posts').column('submission_id').execute();

      await db.schema
        .createTable('post_media')
        .addColumn('id', idType, id)
        .addColumn('post_id', 'integer', (c) =>
          c.notNull().references('posts.id').onDelete('cascade'),
        )
        .addColumn('position', 'integer', (c) => c.notNull())
        // Storage key (ADR 0021); the objects are shared by the posts of one submission.
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('duration_ms', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('post_media_post')
        .on('post_media')
        .columns(['post_id', 'position'])
        .execute();

      await db.schema
        .createTable('post_targets')
        .addColumn('id', idType, id)
        .addColumn('post_id', 'integer', (c) =>
          c.notNull().references('posts.id').onDelete('cascade'),
        )
        .addColumn('store_id', 'integer', user)
        .addColumn('publisher_key', 'text', (c) => c.notNull())
        // scheduled | publishing | published | failed | unknown | removing | removed
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
        .addColumn('external_id', 'text')
        .addColumn('external_url', 'text')
        .addColumn('error_kind', 'text')
        // JSON list of Japanese lines for the screen.
        .addColumn('error_lines', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        // How many times the screen asked for a retry (names the retry's job).
        .addColumn('retries', 'integer', (c) => c.notNull())
        // When the last publish call was sent: what settling compares the provider's posts with.
        .addColumn('sent_at', 'text')
        .addColumn('published_at', 'text')
        // null: no removal (none asked, or the channel cannot remove).
        .addColumn('remove_at', 'text')
        .addColumn('removed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('post_targets_post_store_key', ['post_id', 'publisher_key'])
        .execute();
      await db.schema
        .createIndex('post_targets_post')
        .on('post_targets')
        .column('post_id')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('post_targets').ifExists().execute();
      await db.schema.dropTable('post_media').ifExists().execute();
      await db.schema.dropTable('posts').ifExists().execute();
    },
  };
};
