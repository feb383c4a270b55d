import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import { IMAGE_MAX_PIXELS, IMAGE_MAX_PIXELS_LABEL, IMAGE_SIZE_LIMIT_KB, ja } from '@tenpo/domain';
import { declaredImageSize, PROBE_HEAD_BYTES } from '../media/inspect';
import { mediaPath, type MediaStorage } from '../storage';
import { AppError, validationError } from './errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** Upload bytes in flight, per user and per process (issue 22); set by buildApp. */
    uploadBudget?: UploadBudget;
  }
}

/** Every upload is capped at 20 MB (DESIGN §10); narrower limits apply beneath it. */
export const UPLOAD_CAP_BYTES = 20 * 1024 * 1024;

/**
 * Multipart bodies outside the upload routes are accepted and left unread, as @fastify/multipart's
 * own parser leaves them: a route that takes no upload answers a multipart call as it did when the
 * plugin was global (ADR 0029).
 */
export function acceptMultipartUnread(app: FastifyInstance): void {
  app.addContentTypeParser('multipart/form-data', (_req, _payload, done) => {
    done(null);
  });
}

/**
 * Registers the routes that read multipart bodies (`withMultipart`) in a scope of their own with
 * @fastify/multipart, so its request decorators and its async `onResponse` hook run on these
 * routes only, not on every response of the app (ADR 0029).
 */
export function registerUploadRoutes(
  app: FastifyInstance,
  routes: (scope: FastifyInstance) => void,
): void {
  void app.register(async (scope) => {
    scope.removeContentTypeParser('multipart/form-data');
    await scope.register(multipart, {
      limits: { fileSize: UPLOAD_CAP_BYTES, files: 10, fields: 100 },
    });
    // A multipart type without its boundary cannot be read at all: said before anything else
    // (the parser threw a plain error at the first read, a 500; issue 22).
    scope.addHook('preValidation', async (req) => {
      if (req.isMultipart() && !/;\s*boundary=/i.test(req.headers['content-type'] ?? ''))
        throw malformed();
    });
    routes(scope);
  });
}

const malformed = () => new AppError(400, 'multipart_malformed', ja.multipartMalformed);

/**
 * The next part of a multipart body. The parser's own refusals (limits: 413) keep their status;
 * anything else it throws (a body cut short, a broken part header) is the client's: 400.
 */
export const nextPart = (parts: AsyncIterator<Multipart>): Promise<IteratorResult<Multipart>> =>
  readOrMalformed(parts);

/** The next chunk of a part or the next part; the parser's plain errors become a 400. */
export async function readOrMalformed<T>(it: AsyncIterator<T>): Promise<IteratorResult<T>> {
  try {
    return await it.next();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const status = (err as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw err;
    throw malformed();
  }
}

/**
 * Upload bytes in flight (issue 22), counted by the length each request declares (a request
 * without one counts as the largest the route takes): at most `perUser` for one user, at most
 * `perProcess` in all. Beyond either the request is refused before a byte is read: 429 for the
 * user, 503 for the server.
 */
export type UploadBudget = {
  take(userId: number, bytes: number): () => void;
  /** Bytes in flight now (for tests and the bench). */
  inFlight(): { total: number; users: number };
};

export function createUploadBudget(limits: { perUser: number; perProcess: number }): UploadBudget {
  const users = new Map<number, number>();
  let total = 0;
  return {
    take(userId, bytes) {
      const mine = users.get(userId) ?? 0;
      if (mine + bytes > limits.perUser && mine > 0)
        throw new AppError(429, 'uploads_busy', ja.uploadBusyUser);
      if (total + bytes > limits.perProcess && total > 0)
        throw new AppError(503, 'uploads_busy', ja.uploadBusyServer);
      users.set(userId, mine + bytes);
      total += bytes;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total -= bytes;
        const left = (users.get(userId) ?? 0) - bytes;
        if (left > 0) users.set(userId, left);
        else users.delete(userId);
      };
    },
    inFlight: () => ({ total, users: users.size }),
  };
}

/** The largest body an upload route takes: ten files at the cap, and room for the fields. */
export const UPLOAD_REQUEST_MAX_BYTES = 10 * (UPLOAD_CAP_BYTES + 1) + 1024 * 1024;

/**
 * Takes the request's declared bytes from the budget (a request without a length counts as the
 * largest); returns the release. Without a budget (an app built without one) nothing is counted.
 */
export function admitUpload(request: FastifyRequest, userId: number): () => void {
  const budget = request.server.uploadBudget;
  if (!budget) return () => undefined;
  const declared = Number(request.headers['content-length']);
  const bytes =
    Number.isFinite(declared) && declared > 0
      ? Math.min(declared, UPLOAD_REQUEST_MAX_BYTES)
      : UPLOAD_REQUEST_MAX_BYTES;
  return budget.take(userId, bytes);
}

/**
 * What a file field accepts, judged by its bytes (not its name): an image of at most `limitKb`,
 * or (`media`) a post's photo or video (MP4/MOV) of at most `limitKb` (default: the 20 MB cap).
 */
export type ImageRule = { accept: 'image' | 'media'; folder: string; limitKb?: number };

/** A file that went to storage: `path` is what rows keep (`/uploads/<key>`). */
export type StoredUpload = {
  field: string;
  filename: string;
  key: string;
  path: string;
  size: number;
  contentType: string;
  /** photo or video (what the bytes are). */
  kind: 'photo' | 'video';
};

/**
 * A file field's outcome. A refusal is kept, not thrown at once, so that the route checks its
 * text fields first and answers as it did when files were read whole (`accepted` throws it).
 */
export type FilePart = { ok: true; upload: StoredUpload } | { ok: false; error: AppError };

export const accepted = (part: FilePart): StoredUpload => {
  if (!part.ok) throw part.error;
  return part.upload;
};

export type MultipartBody = {
  fields: Record<string, string>;
  files: Partial<Record<string, FilePart>>;
};

const IMAGE_KINDS: { ext: string; type: string; test: (b: Buffer) => boolean }[] = [
  {
    ext: 'png',
    type: 'image/png',
    test: (b) =>
      b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { ext: 'jpg', type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: 'gif', type: 'image/gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    ext: 'webp',
    type: 'image/webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];
/** ISO base media (MP4/MOV): a `ftyp` box first; QuickTime's brand is `qt  `. */
const isoBrand = (b: Buffer): string | null =>
  b.subarray(4, 8).toString('latin1') === 'ftyp' ? b.subarray(8, 12).toString('latin1') : null;

/** What a post may carry (ADR 0026, 0062): photos the spec lists, and MP4/MOV video. No WebP. */
const MEDIA_KINDS: { ext: string; type: string; test: (b: Buffer) => boolean }[] = [
  ...IMAGE_KINDS.filter((k) => k.ext !== 'webp'),
  { ext: 'bmp', type: 'image/bmp', test: (b) => b.subarray(0, 2).toString('latin1') === 'BM' },
  {
    ext: 'tiff',
    type: 'image/tiff',
    test: (b) => ['II*\0', 'MM\0*'].includes(b.subarray(0, 4).toString('latin1')),
  },
  // iPhone photos: made into JPEG for the channels that take no HEIC when sent (ADR 0062).
  {
    ext: 'heic',
    type: 'image/heic',
    test: (b) => /^(hei[cxms]|hev[cxms]|mif1|msf1)$/.test(isoBrand(b) ?? ''),
  },
  { ext: 'mov', type: 'video/quicktime', test: (b) => isoBrand(b) === 'qt  ' },
  {
    ext: 'mp4',
    type: 'video/mp4',
    test: (b) => {
      const brand = isoBrand(b);
      return brand !== null && brand !== 'qt  ' && !/^(hei|mif|avif)/.test(brand);
    },
  },
];

/** The most bytes any signature above needs. */
const HEAD_BYTES = 12;

/** The image kind of a file's first bytes, or undefined when they are no image we take. */
export const imageKindOf = (head: Buffer) => IMAGE_KINDS.find((k) => k.test(head));

/** A file part's chunks; a body cut short inside it is the client's error (400), not a 500. */
export function partChunks(part: MultipartFile): AsyncIterator<Buffer> {
  const it = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return { next: () => readOrMalformed(it) };
}

/** A refusal of the file being read: the stream stops, the partial object is removed. */
class Refused extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
  }
}

/**
 * Streams one file part to storage: its type is judged from its first bytes and its size counted
 * as it passes, against the rule's limit and the 20 MB cap. Only a chunk at a time is held.
 */
async function storeImage(
  part: MultipartFile,
  storage: MediaStorage,
  rule: ImageRule,
): Promise<FilePart> {
  const field = part.fieldname;
  const media = rule.accept === 'media';
  const limitKb = rule.limitKb ?? (media ? UPLOAD_CAP_BYTES / 1024 : IMAGE_SIZE_LIMIT_KB);
  const limit = Math.min(UPLOAD_CAP_BYTES, limitKb * 1024);
  const chunks = partChunks(part);
  const drain = async () => {
    while (!(await chunks.next()).done);
  };
  let head = Buffer.alloc(0);
  let ended = false;
  while (head.length < HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head = Buffer.concat([head, next.value]);
  }
  const kind = media ? MEDIA_KINDS.find((k) => k.test(head)) : imageKindOf(head);
  if (!kind) {
    if (!ended) await drain();
    return {
      ok: false,
      error: validationError({ [field]: [media ? ja.postFileFormat : ja.imageOnly] }),
    };
  }
  // An image field's head, kept to read the size it declares (never decoded here).
  const kept: Buffer[] = [];
  let keptBytes = 0;
  const keep = (b: Buffer) => {
    if (media || keptBytes >= PROBE_HEAD_BYTES) return;
    const part = b.subarray(0, PROBE_HEAD_BYTES - keptBytes);
    kept.push(Buffer.from(part));
    keptBytes += part.length;
  };
  let size = 0;
  const tooLarge = () =>
    new Refused(
      validationError({ [field]: [media ? ja.postFileTooLarge : ja.imageTooLarge(limitKb)] }),
    );
  async function* body() {
    size += head.length;
    if (size > limit) throw tooLarge();
    keep(head);
    yield head;
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      size += next.value.length;
      if (size > limit) throw tooLarge();
      keep(next.value);
      yield next.value;
    }
  }
  let stored;
  try {
    stored = await storage.put(Readable.from(body(), { objectMode: false }), {
      folder: rule.folder,
      ext: kind.ext,
      contentType: kind.type,
    });
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    // Read the rest, as a whole read would have, so the fields after it still arrive.
    await drain();
    return { ok: false, error: err.error };
  }
  if (part.file.truncated) {
    // Cut at the 20 MB cap by the multipart parser, which fails the request (413).
    await storage.delete(stored.key);
    throw new AppError(413, 'file_too_large', ja.fileTooLarge);
  }
  if (!media) {
    // Issue 22: a few bytes may declare 50000×50000; whoever decodes it pays for every pixel.
    const declared = await declaredImageSize(Buffer.concat(kept, keptBytes));
    const refusal = !declared
      ? ja.imageOnly
      : declared.width * declared.height > IMAGE_MAX_PIXELS
        ? ja.imageTooManyPixels(IMAGE_MAX_PIXELS_LABEL)
        : null;
    if (refusal) {
      await storage.delete(stored.key);
      return { ok: false, error: validationError({ [field]: [refusal] }) };
    }
  }
  return {
    ok: true,
    upload: {
      field,
      filename: part.filename,
      key: stored.key,
      path: mediaPath(stored.key),
      size: stored.size,
      contentType: kind.type,
      kind: kind.type.startsWith('video/') ? 'video' : 'photo',
    },
  };
}

/**
 * Reads a multipart body (text fields as strings; the named file fields streamed to storage) and
 * hands it to `handle`. If anything fails before `handle` returns, every object stored for this
 * request is deleted: a refused request leaves no file behind.
 */
export async function withMultipart<T>(
  request: FastifyRequest,
  storage: MediaStorage,
  rules: Record<string, ImageRule>,
  handle: (body: MultipartBody) => Promise<T>,
  options: {
    /** Text fields that may be sent several times: their values are joined with commas. */
    repeated?: readonly string[];
    /**
     * Who may send it, checked from the fields read so far before the first byte of a file is
     * read (or, with no file, before `handle`): a foreign store is refused while its files are
     * still unread (issue 22). Fields come in the order the client sent them, so a client that
     * sends its files before `user_id` is checked by `handle` only, after they are stored.
     */
    authorize?: (fields: Record<string, string>) => Promise<void>;
    /** The user whose upload bytes these are (issue 22's budget); without it nothing is counted. */
    userId?: number;
  } = {},
): Promise<T> {
  const fields: Record<string, string> = {};
  const files: Partial<Record<string, FilePart>> = {};
  const stored: string[] = [];
  if (typeof request.isMultipart !== 'function')
    throw new Error('withMultipart: register the route with registerUploadRoutes (ADR 0029)');
  let authorized = false;
  const authorize = async () => {
    if (authorized) return;
    authorized = true;
    await options.authorize?.(fields);
  };
  const release =
    options.userId !== undefined && request.isMultipart()
      ? admitUpload(request, options.userId)
      : () => undefined;
  try {
    if (!request.isMultipart()) {
      // A JSON body is accepted too, for clients that send no file.
      const body = (request.body ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(body))
        if (typeof v === 'string' || typeof v === 'number') fields[k] = String(v);
      await authorize();
      return await handle({ fields, files });
    }
    const parts = request.parts()[Symbol.asyncIterator]();
    for (let next = await nextPart(parts); !next.done; next = await nextPart(parts)) {
      const part = next.value;
      if (part.type === 'file') {
        // Even a file the route drops unread is read off the wire: the check comes first.
        await authorize();
        const rule = rules[part.fieldname];
        if (rule && part.filename) {
          const result = await storeImage(part, storage, rule);
          if (result.ok) stored.push(result.upload.key);
          // A field sent twice keeps its last file, as a whole read did; the first one goes.
          const earlier = files[part.fieldname];
          if (earlier?.ok) await storage.delete(earlier.upload.key);
          files[part.fieldname] = result;
        } else {
          part.file.resume();
        }
      } else if (typeof part.value === 'string') {
        const earlier = fields[part.fieldname];
        fields[part.fieldname] =
          earlier !== undefined && options.repeated?.includes(part.fieldname)
            ? `${earlier},${part.value}`
            : part.value;
      }
    }
    await authorize();
    return await handle({ fields, files });
  } catch (err) {
    await Promise.all(
      stored.map((key) =>
        storage.delete(key).catch((cause: unknown) => {
          request.log.warn({ err: cause, key }, 'could not remove the upload of a refused request');
        }),
      ),
    );
    throw err;
  } finally {
    release();
  }
}
