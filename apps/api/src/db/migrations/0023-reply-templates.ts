import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Reply templates (issue 25 item 4, ADR 0091).
 * - `reply_templates`: a template of its owner, by star band (`low` ★1–2, `mid` ★3, `high`
 *   ★4–5). The owner is a store (its own templates) or an agency (its templates serve every store
 *   of the agency). A store with none of either draws from the built-in set (domain).
 * - `reply_template_uses`: the template a store drew last for a band (a stored one's id as text,
 *   or a built-in's key), so the next draft of that band is another one.
 */
export const replyTemplates = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('reply_templates')
        .addColumn('id', idType, id)
        .addColumn('owner_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('star_band', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('reply_templates_owner')
        .on('reply_templates')
        .columns(['owner_id', 'star_band', 'id'])
        .execute();
      await db.schema
        .createTable('reply_template_uses')
        .addColumn('store_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('star_band', 'text', (c) => c.notNull())
        .addColumn('template_key', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('reply_template_uses_pk', ['store_id', 'star_band'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('reply_template_uses').ifExists().execute();
      await db.schema.dropTable('reply_templates').ifExists().execute();
    },
  };
};
