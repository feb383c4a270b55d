import type { Kysely } from 'kysely';

/**
 * The knowledge tag (issue 11 item 3, ADR 0045): one row per store, made when the store first
 * opens /add-knowledge-tag. `api_key` (unique, looked up) and `app_key` (compared in constant
 * time) are random and appear in the shop's page. The embed calls leave `first_seen_at`,
 * `last_seen_at`, `page_origin` and `embed_count` (step 3); the script's page views, as the
 * analytics option allows, `view_count`. `template` is the markup editor's JSON-LD, null for
 * the default.
 */
export const knowledgeTag = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('knowledge_tags')
      .addColumn('store_id', 'integer', (c) =>
        c.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('api_key', 'text', (c) => c.notNull().unique())
      .addColumn('app_key', 'text', (c) => c.notNull())
      .addColumn('analytics_option', 'integer')
      .addColumn('template', 'text')
      .addColumn('first_seen_at', 'text')
      .addColumn('last_seen_at', 'text')
      .addColumn('page_origin', 'text')
      .addColumn('embed_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('knowledge_tags').execute();
  },
});
