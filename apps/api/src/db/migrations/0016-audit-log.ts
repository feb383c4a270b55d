import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * The audit log (issue 12, ADR 0047): one row per change to a store, a group, an account, a
 * connection or a post, with who made it, when, and the values before and after (JSON text).
 * - `store_id`: the store the change is about (null for an agency-level change such as a group);
 * - `agency_id`: the agency that owned the store or the group at the time, so an agency reads
 *   its history even for a store that has since left it;
 * - `actor_id` is not a foreign key: the row outlives the account that made it (its e-mail is
 *   copied into `actor_email`).
 */
export const auditLog = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', idType, id)
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'integer')
        .addColumn('actor_email', 'text')
        .addColumn('actor_role', 'integer')
        .addColumn('store_id', 'integer')
        .addColumn('agency_id', 'integer')
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('summary', 'text')
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .execute();
      await db.schema
        .createIndex('audit_log_store')
        .on('audit_log')
        .columns(['store_id', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_log_agency')
        .on('audit_log')
        .columns(['agency_id', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_log_actor')
        .on('audit_log')
        .columns(['actor_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('audit_log').ifExists().execute();
    },
  };
};
