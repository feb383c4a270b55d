import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { z } from 'zod';
import {
  idParams,
  ja,
  ok,
  PHOTO_UPLOAD_MAX_FILES,
  photoListSchema,
  photoStoreQuery,
  UPLOAD_MAX_BYTES,
} from '@tenpo/domain';
import { detectFormat, inspectMedia } from '../../media/inspect';
import { validationError, type FieldErrors } from '../../lib/errors';
import { done, okData, withZod } from '../../lib/route';
import { registerUploadRoutes } from '../../lib/uploads';
import { actorOf } from '../../plugins/auth';
import type { MediaStorage } from '../../storage';
import type { StoreAccess } from '../stores/access';
import type { AuditLog } from '../audit/audit.repo';
import type { PhotosService, PhotoUpload } from './photos.service';
import { signedIn } from '../../plugins/route-guards';

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
  const pre = signedIn(deps.authenticate);

  r.get(
    '/photos',
    {
      ...pre,
      schema: {
        tags: ['photos'],
        summary:
          "The store's photo library, newest first (spec 2 §3 Media item; items without a photo_url are left out). Read after a sync with the Google location's v4 media: photos added or removed on Google's side show here (ADR 0043).",
        querystring: photoStoreQuery,
        response: { 200: ok(photoListSchema) },
      },
    },
    async (req) => {
      const store = await access.storeFor(actorOf(req), req.query.user_id, 'read');
      return okData(await photos.list(store));
    },
  );

  r.delete(
    '/photos/:id',
    {
      ...pre,
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
      const store = await access.storeFor(actor, req.query.user_id, 'write');
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
        ...pre,
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
   * Reads the body: each file measured from its bytes as it arrives and, when it passes, stored;
   * the store's access is checked before any refusal of a file is reported (a foreign store is
   * 404, whatever it was sent). Anything refused leaves no stored file behind.
   */
  async function upload(req: FastifyRequest) {
    const actor = actorOf(req);
    if (!req.isMultipart()) throw validationError({ photos: [ja.photoFileRequired] });
    const fields: Record<string, string> = {};
    const files: PhotoUpload[] = [];
    const errors: FieldErrors = {};
    let count = 0;
    try {
      try {
        for await (const part of req.parts(PARTS)) {
          if (part.type === 'field') {
            if (typeof part.value === 'string') fields[part.fieldname] = part.value;
            continue;
          }
          if (!PHOTO_FIELD.test(part.fieldname) || !part.filename) {
            part.file.resume();
            continue;
          }
          count += 1;
          if (count > PHOTO_UPLOAD_MAX_FILES) {
            part.file.resume();
            continue;
          }
          const got = await readPart(part);
          if ('error' in got) (errors[`photos.${count - 1}`] ??= []).push(got.error);
          else files.push(got.upload);
        }
      } catch (err) {
        if ((err as { code?: string }).code !== 'FST_FILES_LIMIT') throw err;
        count = PHOTO_UPLOAD_MAX_FILES + 1;
      }
      const store = await access.storeFor(
        actor,
        z.coerce.number().int().positive().catch(0).parse(fields.user_id),
        'write',
      );
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
    }
  }

  async function readPart(
    part: MultipartFile,
  ): Promise<{ upload: PhotoUpload } | { error: string }> {
    // The parser cuts a file one byte past the 20 MB cap, so a larger one reads as too large.
    const chunks: Buffer[] = [];
    for await (const c of part.file) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    if (part.file.truncated || bytes.length > UPLOAD_MAX_BYTES)
      return { error: ja.mediaUploadOver20Mb };
    // WebP is refused as WebP (spec 2 §5), whatever name it came under.
    if (detectFormat(bytes.subarray(0, 64))?.ext === 'webp')
      return { error: ja.mediaWebpUnsupported };
    const seen = await inspectMedia(bytes, part.filename);
    if (!seen.ok) return { error: seen.message };
    const stored = await storage.put(Readable.from([bytes]), {
      folder: FOLDER,
      ext: seen.meta.ext === 'jpeg' ? 'jpg' : seen.meta.ext,
      contentType: seen.contentType,
    });
    return {
      upload: {
        storageKey: stored.key,
        bytes,
        contentType: seen.contentType,
        format: seen.meta.kind === 'video' ? 'VIDEO' : 'PHOTO',
        width: seen.meta.width,
        height: seen.meta.height,
      },
    };
  }
}
