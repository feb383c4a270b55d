import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Products (issue 11 item 4, ADR 0046): Tenpo's own catalogue per store, in integer yen.
 * - `product_categories`: the store's categories, one row each, so a tab's id stays the same;
 *   a name is unique within its store;
 * - `products`: name, category, description, one price or a range, a button and its link, and
 *   the photos (JSON text of {key, width, height, mime, bytes}; the bytes are in media storage).
 */
export const products = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('product_categories')
        .addColumn('id', idType, id)
        .addColumn('store_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('product_categories_store_name', ['store_id', 'name'])
        .execute();

      await db.schema
        .createTable('products')
        .addColumn('id', idType, id)
        .addColumn('store_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('category_id', 'integer', (c) =>
          c.notNull().references('product_categories.id').onDelete('restrict'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        // 0: one price (or none); 1: min–max
        .addColumn('price_range', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('price', 'integer')
        .addColumn('min_price', 'integer')
        .addColumn('max_price', 'integer')
        .addColumn('button_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('button_link', 'text')
        .addColumn('photos', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('products_store_category')
        .on('products')
        .columns(['store_id', 'category_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('products').ifExists().execute();
      await db.schema.dropTable('product_categories').ifExists().execute();
    },
  };
};
