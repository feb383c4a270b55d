import { sql } from 'kysely';
import type { Db } from '../../db/kysely';
import type { KnowledgeTagRow } from '../../db/types';

export type KnowledgeTagRepo = ReturnType<typeof createKnowledgeTagRepo>;

/** The knowledge_tags table (ADR 0045). */
export function createKnowledgeTagRepo(db: Db) {
  return {
    byStore: (storeId: number): Promise<KnowledgeTagRow | undefined> =>
      db
        .selectFrom('knowledge_tags')
        .selectAll()
        .where('store_id', '=', storeId)
        .executeTakeFirst(),

    byApiKey: (apiKey: string): Promise<KnowledgeTagRow | undefined> =>
      db.selectFrom('knowledge_tags').selectAll().where('api_key', '=', apiKey).executeTakeFirst(),

    /** The store's row with these keys, unless it already has one (two first reads at once). */
    async create(storeId: number, keys: { api_key: string; app_key: string }, now: string) {
      await db
        .insertInto('knowledge_tags')
        .values({
          store_id: storeId,
          ...keys,
          analytics_option: null,
          template: null,
          first_seen_at: null,
          last_seen_at: null,
          page_origin: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('store_id').doNothing())
        .execute();
    },

    async update(
      storeId: number,
      patch: Partial<Pick<KnowledgeTagRow, 'analytics_option' | 'template'>>,
      now: string,
    ) {
      await db
        .updateTable('knowledge_tags')
        .set({ ...patch, updated_at: now })
        .where('store_id', '=', storeId)
        .execute();
    },

    /** An embed call: counted, and dated (the first sighting is kept). */
    async seen(storeId: number, origin: string | null, now: string) {
      await db
        .updateTable('knowledge_tags')
        .set({
          first_seen_at: sql<string>`coalesce(first_seen_at, ${now})`,
          last_seen_at: now,
          page_origin: origin === null ? sql<string | null>`page_origin` : origin,
          embed_count: sql<number>`embed_count + 1`,
        })
        .where('store_id', '=', storeId)
        .execute();
    },

    async viewed(storeId: number) {
      await db
        .updateTable('knowledge_tags')
        .set({ view_count: sql<number>`view_count + 1` })
        .where('store_id', '=', storeId)
        .execute();
    },
  };
}
