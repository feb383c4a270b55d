import type { Readable } from 'node:stream';
import { CONNECTED_PUBLISHER_STATUSES, ja, mayUsePublisher, type PhotoItem } from '@tenpo/domain';
import {
  ChannelError,
  credentialHandle,
  type ChannelRegistry,
  type CredentialHandle,
  type KeepsMediaLibrary,
  type LibraryMedia,
} from '../../channels/channel';
import type { PhotoRow, UserRow } from '../../db/types';
import { addMs, iso, type Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { MediaStorage } from '../../storage';
import type { PublisherService } from '../publisher/publisher.service';
import type { PhotoPatch, PhotosRepo } from './photos.repo';

const GOOGLE = 'google_my_business' as const;
/** How long one sender holds a photo: well past a create's time-out, so holds never overlap. */
export const PHOTO_CLAIM_MS = 2 * 60_000;
/** Sends of one photo (retries by later lists included) before it stays failed. */
export const PHOTO_MAX_ATTEMPTS = 5;

/** A file of an upload, measured from its bytes and stored (photos.routes.ts). */
export type PhotoUpload = {
  storageKey: string;
  /** Bytes stored (the file is read back from storage when it is sent, never held). */
  size: number;
  contentType: string;
  format: 'PHOTO' | 'VIDEO';
  width: number;
  height: number;
};

export type PhotosService = ReturnType<typeof createPhotosService>;

type Log = { warn: (obj: object, msg: string) => void };

/**
 * The photo library of a store, kept in step with Google's v4 media of its chosen location
 * (ADR 0043). Uploads are sent to Google in the request; each is recorded before any call
 * (`sending`), its upload slot before the create that names it, and Google's name after, so a
 * crash or a create without an answer is settled by the next list (the item is found by its
 * slot) and never sent twice. A list also picks up what was added or removed on Google's side.
 */
export function createPhotosService(deps: {
  repo: PhotosRepo;
  publishers: PublisherService;
  registry: ChannelRegistry;
  storage: MediaStorage;
  clock: Clock;
  log: Log;
}) {
  const { repo, storage, clock } = deps;
  const now = () => iso(clock.now());
  const library = (): KeepsMediaLibrary => deps.registry.require(GOOGLE, 'mediaLibrary');

  /** The store's Google grant when a location is connected, else null (photos stay local). */
  const googleOf = async (store: UserRow): Promise<CredentialHandle | null> => {
    if (!mayUsePublisher(store.role, GOOGLE)) return null;
    const row = await deps.publishers.row(store, GOOGLE);
    const connected = (CONNECTED_PUBLISHER_STATUSES as readonly number[]).includes(row.status);
    return connected && row.entity_id ? credentialHandle(store.id, GOOGLE) : null;
  };

  const failureOf = (err: ChannelError): PhotoPatch => {
    if (err.kind === 'invalid')
      return { sync_state: 'failed', sync_error: ja.photoGoogleRefused, retryable: 0 };
    if (err.kind === 'reauth')
      return { sync_state: 'failed', sync_error: ja.photoGoogleReauth, retryable: 1 };
    return { sync_state: 'failed', sync_error: ja.photoGoogleUnreachable, retryable: 1 };
  };

  const syncedPatch = (m: LibraryMedia): PhotoPatch => ({
    google_name: m.name,
    google_url: m.url,
    sync_state: 'synced',
    sync_error: null,
    retryable: 0,
    claimed_until: null,
    updated_at: now(),
  });

  /**
   * Sends one photo the caller has claimed. With a slot recorded already, Google is read first:
   * the item the slot made is taken as it is (a create sent before, answered or not, is never
   * sent again). Otherwise the bytes are staged, the slot recorded, then the item created once.
   */
  async function send(
    row: PhotoRow,
    h: CredentialHandle,
    known?: LibraryMedia[],
    bytes?: Buffer,
  ): Promise<void> {
    let ref = row.upload_ref;
    try {
      // Every send counts, also one that fails before the create (a list retries at most 5).
      await repo.update(row.id, { attempts: row.attempts + 1, updated_at: now() });
      if (ref) {
        const found = (known ?? (await library().list(h))).find((m) => m.uploadRef === ref);
        if (found) return await repo.update(row.id, syncedPatch(found));
      } else {
        if (!row.storage_key) return;
        const body = bytes ?? (await readAll(await storage.open(row.storage_key)));
        ref = await library().stage(h, {
          kind: row.media_format === 'VIDEO' ? 'video' : 'photo',
          contentType: row.mime ?? 'application/octet-stream',
          bytes: body,
        });
        await repo.update(row.id, { upload_ref: ref, updated_at: now() });
      }
      await repo.update(row.id, { sync_state: 'sending', updated_at: now() });
      const created = await library().create(h, ref, row.media_format);
      await repo.update(row.id, syncedPatch(created));
    } catch (err) {
      if (!(err instanceof ChannelError)) throw err;
      // No answer to the create: it may have made the item. It stays `sending`, held until its
      // claim runs out; the next list after that finds it by its slot, or sends it then.
      if (err.kind === 'outcome_unknown') return;
      await repo.update(row.id, { ...failureOf(err), claimed_until: null, updated_at: now() });
    }
  }

  /**
   * Brings the library in step with Google: items made on Google's side are added, items gone
   * from Google are dropped, and photos left `sending` (their sender gone) or failed for a
   * reason that may pass are settled or sent again, each by one list only (its claim).
   */
  async function sync(store: UserRow, h: CredentialHandle): Promise<void> {
    // Read before Google: a photo synced by then was at Google when the list was asked for, so
    // missing from the answer means deleted there (one synced meanwhile is not judged here).
    const before = await repo.list(store.id);
    const remote = await library().list(h);
    // Read after Google: a slot recorded by then is matched to the item it made.
    const rows = await repo.list(store.id);
    const byName = new Map(rows.filter((r) => r.google_name).map((r) => [r.google_name, r]));
    const byRef = new Map(rows.filter((r) => r.upload_ref).map((r) => [r.upload_ref, r]));
    const stamp = now();
    for (const m of remote) {
      const held = byName.get(m.name) ?? (m.uploadRef ? byRef.get(m.uploadRef) : undefined);
      if (held) {
        if (
          held.google_name !== m.name ||
          held.google_url !== m.url ||
          held.sync_state !== 'synced'
        )
          await repo.update(held.id, syncedPatch(m));
        held.google_name = m.name;
        held.sync_state = 'synced';
      } else if (m.url)
        await repo.insertFromGoogle({
          store_id: store.id,
          media_format: m.format,
          sync_state: 'synced',
          google_name: m.name,
          google_url: m.url,
          created_at: stamp,
          updated_at: stamp,
        });
    }
    const names = new Set(remote.map((m) => m.name));
    const gone = new Set<number>();
    for (const r of before)
      if (r.sync_state === 'synced' && r.google_name && !names.has(r.google_name)) {
        // Deleted on Google's side: gone from the library too.
        await repo.remove(r.id);
        if (r.storage_key) await storage.delete(r.storage_key);
        gone.add(r.id);
      }
    for (const r of rows) {
      if (gone.has(r.id)) continue;
      const stuck =
        r.sync_state === 'sending' ||
        r.sync_state === 'local' ||
        (r.sync_state === 'failed' && r.retryable === 1 && r.attempts < PHOTO_MAX_ATTEMPTS);
      if (!stuck || !(await repo.claim(r.id, stamp, iso(addMs(clock.now(), PHOTO_CLAIM_MS)))))
        continue;
      // Read again under the claim: the sender that held it may have finished meanwhile.
      const fresh = await repo.one(store.id, r.id);
      if (fresh && fresh.sync_state !== 'synced') await send(fresh, h);
    }
  }

  const present = async (rows: PhotoRow[]): Promise<PhotoItem[]> => {
    const out: PhotoItem[] = [];
    for (const r of rows) {
      const url = r.storage_key ? await storage.browserUrl(r.storage_key) : r.google_url;
      // Spec 2 §3: an item without a photo_url is not shown.
      if (!url) continue;
      out.push({
        id: r.id,
        photo_id: r.google_name ? (r.google_name.split('/').pop() ?? null) : null,
        photo_url: url,
        gmb_media_type: r.media_format,
        sync_state: r.sync_state,
        sync_error: r.sync_error,
        created_at: r.created_at,
      });
    }
    return out;
  };

  return {
    googleOf,

    /**
     * The store's photos for its knowledge tag: Google's URL where Google has the photo (public
     * and lasting), else Tenpo's; read from Tenpo's rows only (an embed call never asks Google).
     */
    async publicPhotoUrls(storeId: number): Promise<string[]> {
      const out: string[] = [];
      for (const r of await repo.list(storeId)) {
        if (r.media_format !== 'PHOTO') continue;
        const url = r.google_url ?? (r.storage_key ? await storage.url(r.storage_key) : null);
        if (url) out.push(url);
      }
      return out;
    },

    /** The library, after a sync with Google; Google unreachable, Tenpo's copy is shown. */
    async list(store: UserRow): Promise<PhotoItem[]> {
      const h = await googleOf(store);
      if (h)
        try {
          await sync(store, h);
        } catch (err) {
          if (!(err instanceof ChannelError)) throw err;
          deps.log.warn({ err, storeId: store.id }, 'photo library: Google could not be read');
        }
      return present(await repo.list(store.id));
    },

    /** Records every file first, then sends each to Google in turn (ADR 0043). */
    async upload(store: UserRow, files: PhotoUpload[]): Promise<PhotoItem[]> {
      const h = await googleOf(store);
      const stamp = now();
      const rows: PhotoRow[] = [];
      for (const f of files)
        rows.push(
          await repo.insert({
            store_id: store.id,
            media_format: f.format,
            storage_key: f.storageKey,
            mime: f.contentType,
            bytes: f.size,
            width: f.width,
            height: f.height,
            sync_state: h ? 'sending' : 'local',
            claimed_until: h ? iso(addMs(clock.now(), PHOTO_CLAIM_MS)) : null,
            created_at: stamp,
            updated_at: stamp,
          }),
        );
      if (h) for (const row of rows) await send(row, h, []);
      const ids = new Set(rows.map((r) => r.id));
      return present((await repo.list(store.id)).filter((r) => ids.has(r.id)));
    },

    /**
     * Deletes at Google first (an item already gone there counts as deleted), then here. A
     * photo whose create may still be landing is found by its slot and deleted there too.
     */
    async remove(store: UserRow, id: number): Promise<void> {
      const row = await repo.one(store.id, id);
      if (!row) throw notFound();
      if (row.sync_state === 'sending' && row.claimed_until && row.claimed_until > now())
        throw new AppError(409, 'busy', ja.photoBusy);
      const h = await googleOf(store);
      if (h && (row.google_name || row.upload_ref)) {
        try {
          let name = row.google_name;
          if (!name && row.upload_ref)
            name =
              (await library().list(h)).find((m) => m.uploadRef === row.upload_ref)?.name ?? null;
          if (name) await library().remove(h, name);
        } catch (err) {
          if (err instanceof ChannelError)
            throw new AppError(502, 'provider_failed', ja.photoDeleteFailed);
          throw err;
        }
      }
      await repo.remove(row.id);
      if (row.storage_key) await storage.delete(row.storage_key);
    },
  };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}
