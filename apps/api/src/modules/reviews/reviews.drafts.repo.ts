import type { Selectable } from 'kysely';
import type { Db } from '../../db/kysely';
import type { ReplyTemplatesTable } from '../../db/types';

export type ReplyTemplateRow = Selectable<ReplyTemplatesTable>;
export type DraftsRepo = ReturnType<typeof createDraftsRepo>;

/** Reply templates and the template each store drew last per band (migration 0023, ADR 0091). */
export const createDraftsRepo = (db: Db) => ({
  /** The templates of these owners (a store and its agency), oldest first. */
  async templatesOf(ownerIds: readonly number[]): Promise<ReplyTemplateRow[]> {
    if (ownerIds.length === 0) return [];
    return db
      .selectFrom('reply_templates')
      .selectAll()
      .where('owner_id', 'in', [...new Set(ownerIds)])
      .orderBy('id')
      .execute();
  },

  byId: (id: number) =>
    db.selectFrom('reply_templates').selectAll().where('id', '=', id).executeTakeFirst(),

  async countOf(ownerId: number, band: string): Promise<number> {
    const r = await db
      .selectFrom('reply_templates')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('owner_id', '=', ownerId)
      .where('star_band', '=', band)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  },

  async insert(row: Omit<ReplyTemplateRow, 'id'>): Promise<ReplyTemplateRow> {
    return db.insertInto('reply_templates').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async update(
    id: number,
    patch: Partial<Pick<ReplyTemplateRow, 'star_band' | 'body'>> & { updated_at: string },
  ): Promise<ReplyTemplateRow | undefined> {
    return db
      .updateTable('reply_templates')
      .set(patch)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },

  async remove(id: number): Promise<void> {
    await db.deleteFrom('reply_templates').where('id', '=', id).execute();
  },

  /** The key of the template the store drew last for the band, if any. */
  async lastUsed(storeId: number, band: string): Promise<string | null> {
    const r = await db
      .selectFrom('reply_template_uses')
      .select('template_key')
      .where('store_id', '=', storeId)
      .where('star_band', '=', band)
      .executeTakeFirst();
    return r?.template_key ?? null;
  },

  async markUsed(storeId: number, band: string, key: string, now: string): Promise<void> {
    await db
      .insertInto('reply_template_uses')
      .values({ store_id: storeId, star_band: band, template_key: key, used_at: now })
      .onConflict((oc) =>
        oc.columns(['store_id', 'star_band']).doUpdateSet({ template_key: key, used_at: now }),
      )
      .execute();
  },
});
