import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * The photo library (issue 11, spec 2 §3 "Media item", ADR 0043): one row per photo or video
 * of a store, kept in step with Google's v4 media of its chosen location.
 * - `storage_key`: our copy (null for a photo added on Google's side, shown by `google_url`);
 * - `upload_ref`: the `startUpload` resource name, recorded before the media create that
 *   names it, so that a create without an answer is settled by finding it at Google (its
 *   `dataRef`) rather than sent twice;
 * - `google_name`: `accounts/{a}/locations/{l}/media/{key}` once Google has it;
 * - `claimed_until`: who is sending it right now (the upload, or one list's settlement).
 */
export const photos = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('photos')
        .addColumn('id', idType, id)
        .addColumn('store_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        // PHOTO | VIDEO (Google's mediaFormat)
        .addColumn('media_format', 'text', (c) => c.notNull())
        .addColumn('storage_key', 'text')
        .addColumn('mime', 'text')
        .addColumn('bytes', 'integer')
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        // synced | sending | failed | local
        .addColumn('sync_state', 'text', (c) => c.notNull())
        // Japanese line shown under a failed photo; `retryable` 1 = sent again by the next list
        .addColumn('sync_error', 'text')
        .addColumn('retryable', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('upload_ref', 'text')
        .addColumn('google_name', 'text')
        .addColumn('google_url', 'text')
        .addColumn('claimed_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // A Google media item is one row of one store, however many lists pick it up at once.
      await db.schema
        .createIndex('photos_google_name')
        .on('photos')
        .columns(['store_id', 'google_name'])
        .unique()
        .execute();
      await db.schema
        .createIndex('photos_store')
        .on('photos')
        .columns(['store_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('photos').ifExists().execute();
    },
  };
};
