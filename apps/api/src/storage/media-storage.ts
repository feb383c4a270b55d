import { randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';

/** What a stored object is: its key (`<folder>/<random>.<ext>`) and its size in bytes. */
export type StoredObject = { key: string; size: number };
export type MediaStat = { size: number; contentType: string };
export type PutOptions = {
  folder: string;
  ext: string;
  contentType: string;
  /**
   * A key of the caller's instead of a new random one (a rendition derived from another
   * object's key, ADR 0062): an object already there is replaced whole.
   */
  key?: string;
};

/**
 * Where media live (ADR 0021): local disk by default, S3-compatible object storage at scale.
 * Bodies are streams both ways; nothing here holds a whole file in memory.
 */
export interface MediaStorage {
  readonly driver: 'local' | 's3';
  /**
   * Stores a stream under a new random key in `folder`. If the stream fails (a size cap, a
   * client that went away) the promise rejects and no object is left behind.
   */
  put(body: Readable, options: PutOptions): Promise<StoredObject>;
  /** The object's bytes; rejects with `MediaNotFoundError` when there is none. */
  open(key: string): Promise<Readable>;
  stat(key: string): Promise<MediaStat | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * An absolute URL a provider can fetch. On a private store it is signed and stops working
   * after `expiresInSeconds` (default: the configured STORAGE_URL_TTL_SECONDS).
   */
  url(key: string, options?: { expiresInSeconds?: number }): Promise<string>;
  /**
   * The URL the web app shows the object at. On local disk a path (`/uploads/<key>`, signed when
   * private) that works on whatever host the page was opened on — an agency's white-label host,
   * a proxy's name — and under the page's own CSP; on S3 the same as `url` (issue 23 item 7).
   */
  browserUrl(key: string): Promise<string>;
  close(): Promise<void>;
}

export class MediaNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no media object ${key}`);
    this.name = 'MediaNotFoundError';
  }
}

/** Keys are ours: lower-case folders, then a random name and an extension. No dots, no `..`. */
const KEY = /^[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*\/[A-Za-z0-9_-]{8,64}\.[a-z0-9]{1,8}$/;
const FOLDER = /^[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*$/;
const EXT = /^[a-z0-9]{1,8}$/;

export const isMediaKey = (key: string): boolean => KEY.test(key);

export const assertMediaKey = (key: string): string => {
  if (!KEY.test(key)) throw new Error(`not a media key: ${JSON.stringify(key)}`);
  return key;
};

/** 144 random bits: a key cannot be guessed, which is what keeps an unsigned public URL private enough. */
export const newMediaKey = ({
  folder,
  ext,
  key,
}: Pick<PutOptions, 'folder' | 'ext' | 'key'>): string => {
  if (key !== undefined) return assertMediaKey(key);
  if (!FOLDER.test(folder)) throw new Error(`not a media folder: ${JSON.stringify(folder)}`);
  if (!EXT.test(ext)) throw new Error(`not a media extension: ${JSON.stringify(ext)}`);
  return `${folder}/${randomBytes(18).toString('base64url')}.${ext}`;
};

/**
 * Folders whose objects anyone may see at /uploads/ even on a private store: logos are shown on
 * an agency's white-label login page, before anyone has signed in.
 */
export const PUBLIC_FOLDERS: readonly string[] = ['logos'];

export const isPublicKey = (key: string): boolean =>
  PUBLIC_FOLDERS.some((f) => key.startsWith(`${f}/`));

/** The path under which the API serves an object, as stored in rows such as `logo_url`. */
export const MEDIA_PATH_PREFIX = '/uploads/';
export const mediaPath = (key: string): string => `${MEDIA_PATH_PREFIX}${key}`;

/** Counts the bytes that pass. */
export const byteCounter = (): Transform & { bytes: number } => {
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      counter.bytes += chunk.length;
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  counter.bytes = 0;
  return counter;
};
