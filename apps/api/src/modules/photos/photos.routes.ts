import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { z } from 'zod';
import {
  idParams,
  isIdText,
  ja,
  ok,
  PHOTO_UPLOAD_MAX_FILES,
  photoListSchema,
  photoStoreQuery,
  UPLOAD_MAX_BYTES,
} from '@tenpo/domain';
import { detectFormat, MediaProbe } from '../../media/inspect';
import { validationError, type FieldErrors } from '../../lib/errors';
import { done, okData, withZod } from '../../lib/route';
import { admitUpload, nextPart, partChunks, registerUploadRoutes } from '../../lib/uploads';
import { actorOf } from '../../plugins/auth';
import type { MediaStorage } from '../../storage';
import type { UserRow } from '../../db/types';
import type { StoreAccess } from '../stores/access';
import type { AuditLog } from '../audit/audit.repo';
import type { PhotosService, PhotoUpload } from './photos.service';
import { multipartStoreRoute, storeRoute, storeOf } from '../../plugins/route-guards';

/** Library files are stored here (ADR 0021 key layout). */
const FOLDER = 'media/photos';
/**
 * One file past the limit is let in, to be refused with the spec's words rather than a 413; a
 * file past the cap is cut one byte over it and refused here too (the parser's own throw is off:
 * @fastify/multipart reads `throwFileSizeLimit` per call, though its type leaves it out).
 */
const PARTS = {
  limits: { files: PHOTO_UPLOAD_MAX_FILES + 1, fileSize: UPLOAD_MAX_BYTES + 1 },
  throwFileSizeLimit: false,
} as Parameters<FastifyRequest['parts']>[0];
/** `photos`, `photos[]` or `photos[n]`, each sent as often as there are files. */
const PHOTO_FIELD = /^photos(?:\[\d*\])?$/;

export function registerPhotoRoutes(
  app: FastifyInstance,
  deps: {
    photos: PhotosService;
    access: StoreAccess;
    storage: MediaStorage;
    /** Photos added and deleted are recorded as changes to the store (ADR 0047). */
    audit?: AuditLog;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const { photos, access, storage } = deps;

  r.get(
    '/photos',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags: ['photos'],
        summary:
          "The store's photo library, newest first (spec 2 §3 Media item; items without a photo_url are left out). Read after a sync with the Google location's v4 media: photos added or removed on Google's side show here (ADR 0043).",
        querystring: photoStoreQuery,
        response: { 200: ok(photoListSchema) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await photos.list(store));
    },
  );

  r.delete(
    '/photos/:id',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'query'),
      schema: {
        tags: ['photos'],
        summary:
          "Delete a photo of the library by its id: removed from the Google location's media first, then here.",
        params: idParams,
        querystring: photoStoreQuery,
        response: { 200: z.object({ status_code: z.number(), message: z.string() }) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      await photos.remove(store, req.params.id);
      await deps.audit?.record({
        actor: actor.user,
        entity: 'store',
        entityId: store.id,
        storeId: store.id,
        agencyId: store.agency_id,
        action: 'delete',
        summary: '写真を削除',
        before: { photo_id: req.params.id },
      });
      return done(ja.photoDeleted);
    },
  );

  registerUploadRoutes(app, (scope) => {
    withZod(scope).post(
      '/photos/upload',
      {
        ...multipartStoreRoute(deps.authenticate, 'write'),
        schema: {
          tags: ['photos'],
          summary: `Upload photos or videos to the library (multipart: user_id, and \`photos\` once per file, at most ${PHOTO_UPLOAD_MAX_FILES}, each at most 20 MB; the type is read from the bytes, WebP refused). Each is sent to the Google location's v4 media in the request; one Google refuses or cannot take now is kept with sync_state failed (ADR 0043).`,
          consumes: ['multipart/form-data'],
          response: { 200: ok(photoListSchema) },
        },
      },
      async (req) => okData(await upload(req), ja.photoUploaded),
    );
  });

  /**
   * Reads the body: each file streamed to storage and measured from its bytes as they pass, never
   * held whole (issue 22). The store's access is checked before the first byte of a file is read
   * when user_id came first (as the web app sends it), else once the body is read; either way
   * before any refusal of a file is reported (a foreign store is 404, whatever it was sent).
   * Anything refused leaves no stored file behind.
   */
  async function upload(req: FastifyRequest) {
    const actor = actorOf(req);
    if (!req.isMultipart()) throw validationError({ photos: [ja.photoFileRequired] });
    const release = admitUpload(req, actor.user.id);
    const fields: Record<string, string> = {};
    const files: PhotoUpload[] = [];
    const errors: FieldErrors = {};
    let count = 0;
    let store: UserRow | null = null;
    const storeNow = () =>
      // Digits only (issue 22 item 8): `0x1` or `1.0` is no store, as on every other route.
      access.storeFor(
        actor,
        fields.user_id && isIdText(fields.user_id) ? Number(fields.user_id) : 0,
        'write',
      );
    try {
      try {
        const parts = req.parts(PARTS)[Symbol.asyncIterator]();
        for (let next = await nextPart(parts); !next.done; next = await nextPart(parts)) {
          const part = next.value;
          if (part.type === 'field') {
            if (typeof part.value === 'string') fields[part.fieldname] = part.value;
            continue;
          }
          // Before any byte of a file is read off the wire: the store, when user_id came first.
          if (!store && fields.user_id !== undefined) store = await storeNow();
          if (!PHOTO_FIELD.test(part.fieldname) || !part.filename) {
            part.file.resume();
            continue;
          }
          count += 1;
          if (count > PHOTO_UPLOAD_MAX_FILES) {
            part.file.resume();
            continue;
          }
          const got = await readPart(storage, part);
          if ('error' in got) (errors[`photos.${count - 1}`] ??= []).push(got.error);
          else files.push(got.upload);
        }
      } catch (err) {
        if ((err as { code?: string }).code !== 'FST_FILES_LIMIT') throw err;
        count = PHOTO_UPLOAD_MAX_FILES + 1;
      }
      store ??= await storeNow();
      if (count > PHOTO_UPLOAD_MAX_FILES)
        throw validationError({ photos: [ja.postTooManyFiles(PHOTO_UPLOAD_MAX_FILES)] });
      if (Object.keys(errors).length) throw validationError(errors);
      if (!files.length) throw validationError({ photos: [ja.photoFileRequired] });
      const added = await photos.upload(store, files);
      await deps.audit?.record({
        actor: actor.user,
        entity: 'store',
        entityId: store.id,
        storeId: store.id,
        agencyId: store.agency_id,
        action: 'create',
        summary: `写真を${files.length}件追加`,
        after: { photos: files.length },
      });
      return added;
    } catch (err) {
      await Promise.all(files.map((f) => storage.delete(f.storageKey).catch(() => undefined)));
      throw err;
    } finally {
      release();
    }
  }
}

/**
 * One file: its format read from its first bytes, then its bytes streamed to storage through
 * the probe that measures it (a chunk at a time is held, plus the probe's bounded part).
 */
async function readPart(
  storage: MediaStorage,
  part: MultipartFile,
): Promise<{ upload: PhotoUpload } | { error: string }> {
  const chunks = partChunks(part);
  const drain = async () => {
    while (!(await chunks.next()).done);
  };
  const probe = new MediaProbe();
  let head = Buffer.alloc(0);
  let ended = false;
  while (head.length < 64) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head = Buffer.concat([head, next.value]);
  }
  const format = detectFormat(head.subarray(0, 64));
  if (!format || format.ext === 'webp') {
    if (!ended) await drain();
    // WebP is refused as WebP (spec 2 §5), whatever name it came under.
    return { error: format ? ja.mediaWebpUnsupported : ja.mediaUnreadable };
  }
  async function* body() {
    probe.push(head);
    yield head;
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      probe.push(next.value);
      // Past the cap: stop storing; the rest is read (and dropped) below.
      if (probe.overCap) throw new OverCap();
      yield next.value;
    }
  }
  let stored;
  try {
    stored = await storage.put(Readable.from(body(), { objectMode: false }), {
      folder: FOLDER,
      ext: format.ext === 'jpeg' ? 'jpg' : format.ext,
      contentType: format.contentType,
    });
  } catch (err) {
    if (!(err instanceof OverCap)) throw err;
    await drain();
    return { error: ja.mediaUploadOver20Mb };
  }
  // The parser cuts a file one byte past the 20 MB cap, so a larger one reads as too large.
  const seen = await probe.result(part.filename);
  if (part.file.truncated || !seen.ok) {
    await storage.delete(stored.key);
    return { error: seen.ok ? ja.mediaUploadOver20Mb : seen.message };
  }
  return {
    upload: {
      storageKey: stored.key,
      size: stored.size,
      contentType: seen.contentType,
      format: seen.meta.kind === 'video' ? 'VIDEO' : 'PHOTO',
      width: seen.meta.width,
      height: seen.meta.height,
    },
  };
}

class OverCap extends Error {}
