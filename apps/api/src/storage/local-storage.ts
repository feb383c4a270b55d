import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import {
  assertMediaKey,
  MEDIA_PATH_PREFIX,
  byteCounter,
  MediaNotFoundError,
  newMediaKey,
  type MediaStat,
  type MediaStorage,
} from './media-storage';
import type { UrlSigner } from './url-signer';

export type LocalStorageOptions = {
  /** DATA_DIR/uploads: where the files are, and what /uploads/ served before this driver. */
  root: string;
  /** The absolute URL under which the API serves the objects (PUBLIC_URL + /uploads). */
  baseUrl: string;
  /** Private: every URL is signed and expires. */
  private: boolean;
  urlTtlSeconds: number;
  signer: UrlSigner;
};

/** Files kept before their content type was recorded beside them were all images. */
const TYPE_BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * Files under DATA_DIR/uploads, each with its content type in a hidden `.<name>.json` beside it.
 * A put writes to a hidden temporary file and renames it into place, so a reader never sees half
 * a file and a failed put leaves nothing.
 */
export function createLocalStorage(o: LocalStorageOptions): MediaStorage {
  const fileOf = (key: string) => path.join(o.root, ...assertMediaKey(key).split('/'));
  const metaOf = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.json`);
  const notFound = (err: unknown): boolean =>
    (err as NodeJS.ErrnoException).code === 'ENOENT' ||
    (err as NodeJS.ErrnoException).code === 'ENOTDIR';

  /** `<key>`, with its signature when the store is private. */
  const signedPath = (key: string, expiresInSeconds?: number): string => {
    const path = assertMediaKey(key);
    if (!o.private) return path;
    const q = o.signer.sign(key, expiresInSeconds ?? o.urlTtlSeconds);
    return `${path}?${new URLSearchParams(q).toString()}`;
  };
  return {
    driver: 'local',

    async put(body, options) {
      const key = newMediaKey(options);
      const file = fileOf(key);
      const tmp = path.join(
        path.dirname(file),
        `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
      );
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const counter = byteCounter();
      try {
        await pipeline(body, counter, fs.createWriteStream(tmp, { flags: 'wx' }));
        await fsp.writeFile(metaOf(file), JSON.stringify({ contentType: options.contentType }));
        await fsp.rename(tmp, file);
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        await fsp.rm(metaOf(file), { force: true });
        throw err;
      }
      return { key, size: counter.bytes };
    },

    async open(key) {
      try {
        const handle = await fsp.open(fileOf(key), 'r');
        return handle.createReadStream();
      } catch (err) {
        if (notFound(err)) throw new MediaNotFoundError(key);
        throw err;
      }
    },

    async stat(key): Promise<MediaStat | null> {
      const file = fileOf(key);
      let size: number;
      try {
        const s = await fsp.stat(file);
        if (!s.isFile()) return null;
        size = s.size;
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
      let contentType = TYPE_BY_EXT[key.slice(key.lastIndexOf('.') + 1)];
      try {
        contentType = (JSON.parse(await fsp.readFile(metaOf(file), 'utf8')) as MediaStat)
          .contentType;
      } catch (err) {
        if (!notFound(err)) throw err;
      }
      return { size, contentType: contentType ?? 'application/octet-stream' };
    },

    async delete(key) {
      const file = fileOf(key);
      await fsp.rm(file, { force: true });
      await fsp.rm(metaOf(file), { force: true });
    },

    async url(key, options) {
      return `${o.baseUrl}/${signedPath(key, options?.expiresInSeconds)}`;
    },

    async browserUrl(key) {
      return `${MEDIA_PATH_PREFIX}${signedPath(key)}`;
    },

    async close() {},
  };
}
