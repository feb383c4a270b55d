import { z } from 'zod';
import { idField } from '../ids';

/** Spec 2 §9: the upload dialog takes at most 10 files; the library refreshes every 30 s. */
export const PHOTO_UPLOAD_MAX_FILES = 10;
export const PHOTO_REFRESH_MS = 30_000;

/**
 * Where a photo stands with Google's v4 media of the store's location (ADR 0043):
 * - `synced`: Google has it (`photo_id` is its media key);
 * - `sending`: being sent, or sent without an answer (settled by the next list);
 * - `failed`: Google refused it or could not be reached; `sync_error` says why;
 * - `local`: the store has no Google location connected, so it is kept here only.
 */
export const PHOTO_SYNC_STATES = ['synced', 'sending', 'failed', 'local'] as const;
export type PhotoSyncState = (typeof PHOTO_SYNC_STATES)[number];

/** Spec 2 §3 "Media item", plus where the photo stands at Google. */
export const photoItemSchema = z.object({
  id: z.number().int(),
  /** Google's media key (the last part of the media name), null until Google has it. */
  photo_id: z.string().nullable(),
  photo_url: z.string().nullable(),
  gmb_media_type: z.enum(['PHOTO', 'VIDEO']),
  sync_state: z.enum(PHOTO_SYNC_STATES),
  sync_error: z.string().nullable(),
  created_at: z.string(),
});
export type PhotoItem = z.infer<typeof photoItemSchema>;

/** One store: `user_id` is the store's id (spec 2 §7, Media). */
export const photoStoreQuery = z.object({ user_id: idField() });

export const photoListSchema = z.array(photoItemSchema);
