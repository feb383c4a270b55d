import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * The store's information and its edits on their way to Google (issue 11, ADR 0041):
 * - `store_profiles`: Tenpo's copy of the listing, one JSON text per form section (core,
 *   details, contacts: spec 2 §3's shapes) and what Tenpo keeps beside Google's fields (the
 *   map marker, the corporate code, e-mails, payment options…); `pulled_at` is when Google's
 *   copy was last read into it; `send_lease` lets one sender at a time send the store's edits;
 * - `location_edits`: every save, in order, with the Location patch and the update mask it
 *   sends: queued until Google took it (sent) or refused it (refused, with the fields named).
 */
export const storeInfo = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('store_profiles')
        .addColumn('store_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        // the Google location this copy is of (another choice starts a new copy)
        .addColumn('location_id', 'text', (c) => c.notNull())
        .addColumn('core', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('contacts', 'text', (c) => c.notNull())
        .addColumn('pulled_at', 'text')
        // one sender a store at a time (edits go out in order): who holds it, until when
        .addColumn('send_lease', 'text')
        .addColumn('send_lease_until', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('location_edits')
        .addColumn('id', idType, id)
        .addColumn('store_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('location_id', 'text', (c) => c.notNull())
        // core | details | contacts
        .addColumn('section', 'text', (c) => c.notNull())
        .addColumn('update_mask', 'text', (c) => c.notNull())
        // the partial Location, JSON
        .addColumn('patch', 'text', (c) => c.notNull())
        // queued | sent | refused
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // refused: { message, fields }
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema
        .createIndex('location_edits_store_status')
        .on('location_edits')
        .columns(['store_id', 'status', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('location_edits').ifExists().execute();
      await db.schema.dropTable('store_profiles').ifExists().execute();
    },
  };
};
