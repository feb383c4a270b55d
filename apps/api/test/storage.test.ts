import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../src/plugins/error-handler';
import {
  createLocalStorage,
  createS3Storage,
  createUrlSigner,
  MediaNotFoundError,
  registerMediaRoutes,
  type MediaStorage,
} from '../src/storage';
import { S3RVER_KEY, startS3, type TestS3 } from './s3';

/** A driver under test, with a way to look at what it really holds. */
type Fixture = {
  storage: MediaStorage;
  /** Every object key the store holds, read behind the driver's back. */
  keys: () => Promise<string[]>;
  close: () => Promise<void>;
};

const secret = randomBytes(32);

/** The local driver behind the API's real /uploads/ route, listening on a free port. */
async function localFixture(): Promise<Fixture> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-media-'));
  const app: FastifyInstance = Fastify({ logger: false });
  registerErrorHandler(app);
  const signer = createUrlSigner(secret);
  let baseUrl = '';
  const storage = createLocalStorage({
    root,
    get baseUrl() {
      return baseUrl;
    },
    private: true,
    urlTtlSeconds: 3600,
    signer,
  });
  registerMediaRoutes(app, { storage, signer, private: true });
  baseUrl = `${await app.listen({ host: '127.0.0.1', port: 0 })}/uploads`;
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)]));
  return {
    storage,
    // Hidden files too: a temporary file left by a failed put counts.
    keys: async () => walk(root).map((f) => path.relative(root, f).split(path.sep).join('/')),
    close: async () => {
      await app.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

let s3: TestS3;
async function s3Fixture(): Promise<Fixture> {
  s3 ??= await startS3();
  const storage = createS3Storage({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    forcePathStyle: true,
    publicUrl: null,
    private: true,
    urlTtlSeconds: 3600,
  });
  return { storage, keys: s3.keys, close: () => storage.close() };
}

afterAll(async () => {
  await s3?.close();
});

const readAll = async (stream: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

/** `size` bytes made on demand in 64 KiB chunks; `failAt` makes the stream fail there. */
const generated = (
  size: number,
  opts: { failAt?: number; onChunk?: (made: number) => void } = {},
) => {
  let made = 0;
  return new Readable({
    read() {
      if (opts.failAt !== undefined && made >= opts.failAt) {
        this.destroy(new Error('the client went away'));
        return;
      }
      if (made >= size) {
        this.push(null);
        return;
      }
      const n = Math.min(64 * 1024, size - made);
      const chunk = Buffer.alloc(n, made % 251);
      made += n;
      opts.onChunk?.(made);
      this.push(chunk);
    },
  });
};

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const liveBytes = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

describe.each([
  ['local disk', localFixture],
  ['S3-compatible (s3rver)', s3Fixture],
])('MediaStorage contract: %s', (_name, make) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await make();
  });
  afterAll(async () => {
    await f.close();
  });

  it('puts a stream, then stats, reads and deletes it', async () => {
    const data = randomBytes(70_000);
    const put = await f.storage.put(Readable.from([data.subarray(0, 1000), data.subarray(1000)]), {
      folder: 'media/7',
      ext: 'png',
      contentType: 'image/png',
    });
    expect(put.key).toMatch(/^media\/7\/[\w-]{24}\.png$/);
    expect(put.size).toBe(data.length);
    expect(await f.storage.stat(put.key)).toEqual({ size: data.length, contentType: 'image/png' });
    expect((await readAll(await f.storage.open(put.key))).equals(data)).toBe(true);
    expect(await f.keys()).toContain(put.key);

    await f.storage.delete(put.key);
    expect(await f.storage.stat(put.key)).toBeNull();
    await expect(f.storage.open(put.key)).rejects.toBeInstanceOf(MediaNotFoundError);
    await f.storage.delete(put.key); // a second delete is no error
    expect(await f.keys()).not.toContain(put.key);
  });

  it('gives every put its own key and refuses keys it did not make', async () => {
    const a = await f.storage.put(Readable.from([Buffer.from('a')]), {
      folder: 'logos',
      ext: 'gif',
      contentType: 'image/gif',
    });
    const b = await f.storage.put(Readable.from([Buffer.from('b')]), {
      folder: 'logos',
      ext: 'gif',
      contentType: 'image/gif',
    });
    expect(a.key).not.toBe(b.key);
    for (const bad of ['../secret.key', 'logos/../../secret.key', '/etc/passwd', 'logos/.x.json'])
      await expect(f.storage.stat(bad)).rejects.toThrow(/not a media key/);
    await expect(
      f.storage.put(Readable.from([]), { folder: '../x', ext: 'png', contentType: 'image/png' }),
    ).rejects.toThrow(/not a media folder/);
    await Promise.all([f.storage.delete(a.key), f.storage.delete(b.key)]);
  });

  it('leaves nothing behind when the stream fails, in the first part or after several', async () => {
    const before = await f.keys();
    for (const failAt of [100 * 1024, 12 * 1024 * 1024]) {
      await expect(
        f.storage.put(generated(16 * 1024 * 1024, { failAt }), {
          folder: 'media/7',
          ext: 'mp4',
          contentType: 'video/mp4',
        }),
      ).rejects.toThrow();
      expect(await f.keys()).toEqual(before);
    }
  });

  // 48 MB through the store: 17.5 s in a loaded CI run, against the 20 s default.
  it('streams a large upload: memory does not grow with the file', async () => {
    const size = 48 * 1024 * 1024;
    const base = liveBytes();
    let peak = 0;
    let chunks = 0;
    const put = await f.storage.put(
      generated(size, {
        onChunk: (made) => {
          chunks += 1;
          // Sampled every 2 MiB read from the source, after a collection: what is really held.
          if (made % (2 * 1024 * 1024) === 0) peak = Math.max(peak, liveBytes() - base);
        },
      }),
      { folder: 'media/7', ext: 'mp4', contentType: 'video/mp4' },
    );
    expect(put.size).toBe(size);
    expect(chunks).toBe(size / (64 * 1024));
    // A driver that gathered the file before storing it would hold all 48 MiB; the S3 driver holds about two 5 MiB parts.
    expect(peak).toBeLessThan(size / 2);
    expect((await f.storage.stat(put.key))?.size).toBe(size);
    const back = await f.storage.open(put.key);
    let total = 0;
    for await (const c of back) total += (c as Buffer).length;
    expect(total).toBe(size);
    await f.storage.delete(put.key);
  }, 60_000);

  it('gives the web app a URL that works on the host the page was opened on (issue 23 item 7)', async () => {
    const data = randomBytes(3000);
    const { key } = await f.storage.put(Readable.from([data]), {
      folder: 'media/7',
      ext: 'jpg',
      contentType: 'image/jpeg',
    });
    const shown = await f.storage.browserUrl(key);
    if (f.storage.driver === 'local') {
      // A path, signed as the store is private: the page's own origin (and CSP) serves it.
      expect(shown).toMatch(new RegExp(`^/uploads/${key}\\?expires=\\d+&signature=`));
      const absolute = await f.storage.url(key);
      const res = await fetch(`${new URL(absolute).origin}${shown}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
    } else {
      // The bucket's own URL: the page cannot serve it from its origin.
      expect(new URL(shown).pathname).toContain(key);
    }
  });

  it('signs URLs that plain fetch can follow, and refuses them tampered or expired', async () => {
    const data = randomBytes(5000);
    const { key } = await f.storage.put(Readable.from([data]), {
      folder: 'media/7',
      ext: 'jpg',
      contentType: 'image/jpeg',
    });
    const other = await f.storage.put(Readable.from([Buffer.from('other')]), {
      folder: 'media/7',
      ext: 'jpg',
      contentType: 'image/jpeg',
    });
    const url = await f.storage.url(key);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);

    if (f.storage.driver === 'local') {
      // Our guard (media.routes.ts): unsigned, another key under this signature, a changed
      // signature, a later expiry.
      const u = new URL(url);
      const flipped = new URL(url);
      const sig = flipped.searchParams.get('signature') ?? '';
      flipped.searchParams.set('signature', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
      // The same MAC spelt another way: the last character's two unused bits set.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const respelt = new URL(url);
      respelt.searchParams.set(
        'signature',
        `${sig.slice(0, -1)}${alphabet[alphabet.indexOf(sig.slice(-1)) | 1]}`,
      );
      const later = new URL(url);
      later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 60));
      for (const bad of [
        `${u.origin}${u.pathname}`,
        url.replace(key, other.key),
        flipped.toString(),
        respelt.toString(),
        later.toString(),
      ]) {
        const r = await fetch(bad);
        expect(r.status, bad).toBe(403);
        await r.arrayBuffer();
      }
    } else {
      // A SigV4 presigned GET of this very key. Checking the signature is the server's part, and
      // s3rver does not (its source: "Signature version 4 calculation is unimplemented"); it does
      // check the expiry, below.
      const u = new URL(url);
      expect(u.pathname).toBe(`/${s3.bucket}/${key}`);
      expect(u.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(u.searchParams.get('X-Amz-Expires')).toBe('3600');
      expect(u.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    }

    // Three seconds, not one: a SigV4 date is whole seconds, so a URL signed late in a second
    // and fetched on a loaded machine had already run out (a CI run saw 403 for the first fetch).
    const short = await f.storage.url(key, { expiresInSeconds: 3 });
    expect((await fetch(short)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 4100));
    const expired = await fetch(short);
    expect(expired.status).toBe(403);
    await expired.arrayBuffer();
    await Promise.all([f.storage.delete(key), f.storage.delete(other.key)]);
  });
});
