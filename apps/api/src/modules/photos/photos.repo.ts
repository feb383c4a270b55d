import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/kysely';
import type { PhotoRow, PhotosTable } from '../../db/types';

export type NewPhoto = Omit<Insertable<PhotosTable>, 'id'>;
export type PhotoPatch = Updateable<PhotosTable>;
export type PhotosRepo = ReturnType<typeof createPhotosRepo>;

export function createPhotosRepo(db: Db) {
  return {
    /** A store's library, newest first. */
    list: (storeId: number): Promise<PhotoRow[]> =>
      db
        .selectFrom('photos')
        .selectAll()
        .where('store_id', '=', storeId)
        .orderBy('id', 'desc')
        .execute(),

    one: (storeId: number, id: number): Promise<PhotoRow | undefined> =>
      db
        .selectFrom('photos')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst(),

    insert: (row: NewPhoto): Promise<PhotoRow> =>
      db.insertInto('photos').values(row).returningAll().executeTakeFirstOrThrow(),

    /** A Google item not held yet; nothing when another list took it first (unique name). */
    async insertFromGoogle(row: NewPhoto): Promise<void> {
      await db
        .insertInto('photos')
        .values(row)
        .onConflict((oc) => oc.columns(['store_id', 'google_name']).doNothing())
        .execute();
    },

    async update(id: number, patch: PhotoPatch): Promise<void> {
      await db.updateTable('photos').set(patch).where('id', '=', id).execute();
    },

    /**
     * Takes the photo for sending until `until`, when no one holds it (or their hold ran out):
     * of two lists settling it at once, one sends.
     */
    async claim(id: number, now: string, until: string): Promise<boolean> {
      const res = await db
        .updateTable('photos')
        .set({ claimed_until: until })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('photos').where('id', '=', id).execute();
    },
  };
}
