import type { StoreInfoSection } from '@tenpo/domain';
import type { Db } from '../../db/kysely';
import type { LocationEditsTable, StoreProfilesTable } from '../../db/types';
import type { Selectable } from 'kysely';

export type StoreInfoRepo = ReturnType<typeof createStoreInfoRepo>;
export type StoreInfoQueries = ReturnType<typeof queries>;
export type LocationEdit = Selectable<LocationEditsTable>;
export type StoreProfile = StoreProfilesTable;

const GOOGLE = 'google_my_business';

const queries = (db: Db) => ({
  /** The store's Google row: its chosen location and state. */
  googleConnection: (storeId: number) =>
    db
      .selectFrom('publisher_connections')
      .select(['entity_id', 'status'])
      .where('user_id', '=', storeId)
      .where('publisher_key', '=', GOOGLE)
      .executeTakeFirst(),

  profileOf: (storeId: number): Promise<StoreProfile | undefined> =>
    db.selectFrom('store_profiles').selectAll().where('store_id', '=', storeId).executeTakeFirst(),

  /** Writes the copy (not the send lease, which only its holder changes). */
  async saveProfile(row: Omit<StoreProfile, 'send_lease' | 'send_lease_until'>): Promise<void> {
    const { store_id: _id, ...rest } = row;
    await db
      .insertInto('store_profiles')
      .values(row)
      .onConflict((oc) => oc.column('store_id').doUpdateSet(rest))
      .execute();
  },

  /** Google's own version beside the copy (ADR 0061), as last looked at; null clears it. */
  async setGoogleVersion(storeId: number, json: string | null): Promise<void> {
    await db
      .updateTable('store_profiles')
      .set({ google_version: json })
      .where('store_id', '=', storeId)
      .execute();
  },

  /** Writes one section of the copy (a save of one form never rewrites the others). */
  async updateSection(
    storeId: number,
    section: StoreInfoSection,
    json: string,
    at: string,
  ): Promise<void> {
    await db
      .updateTable('store_profiles')
      .set(
        section === 'core'
          ? { core: json, updated_at: at }
          : section === 'details'
            ? { details: json, updated_at: at }
            : { contacts: json, updated_at: at },
      )
      .where('store_id', '=', storeId)
      .execute();
  },

  /**
   * Takes the store's send lease (one sender at a time, so that edits reach Google in the order
   * they were saved); false while another holds it. Expires by itself after a crash.
   */
  async takeLease(storeId: number, token: string, now: string, until: string): Promise<boolean> {
    const r = await db
      .updateTable('store_profiles')
      .set({ send_lease: token, send_lease_until: until })
      .where('store_id', '=', storeId)
      .where((eb) => eb.or([eb('send_lease_until', 'is', null), eb('send_lease_until', '<', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  async releaseLease(storeId: number, token: string): Promise<void> {
    await db
      .updateTable('store_profiles')
      .set({ send_lease: null, send_lease_until: null })
      .where('store_id', '=', storeId)
      .where('send_lease', '=', token)
      .execute();
  },

  async addEdit(
    edit: Pick<
      LocationEditsTable,
      'store_id' | 'location_id' | 'section' | 'update_mask' | 'patch' | 'created_at'
    >,
  ): Promise<number> {
    const r = await db
      .insertInto('location_edits')
      .values({ ...edit, status: 'queued', error: null, sent_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },

  /** The store's oldest edit not yet taken or refused by Google: the next to send. */
  oldestQueued: (storeId: number): Promise<LocationEdit | undefined> =>
    db
      .selectFrom('location_edits')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('status', '=', 'queued')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst(),

  async countAttempt(id: number): Promise<void> {
    await db
      .updateTable('location_edits')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
  },

  /** Settles a queued edit; false when it was no longer queued (another run settled it). */
  async settle(
    id: number,
    status: 'sent' | 'refused',
    at: string,
    error: string | null,
  ): Promise<boolean> {
    const r = await db
      .updateTable('location_edits')
      .set({ status, sent_at: at, error })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** Edits of another location, left queued when the store chose a new one: never sent. */
  async dropStale(storeId: number, locationId: string, at: string): Promise<void> {
    await db
      .updateTable('location_edits')
      .set({
        status: 'refused',
        sent_at: at,
        error: JSON.stringify({ message: 'location changed', fields: [] }),
      })
      .where('store_id', '=', storeId)
      .where('status', '=', 'queued')
      .where('location_id', '!=', locationId)
      .execute();
  },

  /** The store's edits since it chose this location, newest first (the sync state). */
  editsOf: (storeId: number, locationId: string, limit = 50): Promise<LocationEdit[]> =>
    db
      .selectFrom('location_edits')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('location_id', '=', locationId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),

  queuedCount: async (storeId: number): Promise<number> => {
    const r = await db
      .selectFrom('location_edits')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('store_id', '=', storeId)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  },

  /** The sections that have an edit still on its way (a pull must not overwrite them). */
  queuedSections: async (storeId: number): Promise<Set<StoreInfoSection>> => {
    const rows = await db
      .selectFrom('location_edits')
      .select('section')
      .distinct()
      .where('store_id', '=', storeId)
      .where('status', '=', 'queued')
      .execute();
    return new Set(rows.map((r) => r.section));
  },
});

export function createStoreInfoRepo(db: Db) {
  return {
    ...queries(db),
    /** `trx` for a job enqueued with the writes (it exists exactly when they commit). */
    transaction: <T>(fn: (repo: StoreInfoQueries, trx: Db) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}
