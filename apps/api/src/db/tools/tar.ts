import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * A small POSIX tar (ustar, with pax headers for long names and large sizes) writer and reader:
 * the backup archive is a tar.gz that `tar xzf` opens too, and these ~200 lines spare a
 * dependency. Both stream: no file is held in memory, whatever its size.
 */

const BLOCK = 512;
const ZERO = Buffer.alloc(BLOCK);

/** What a file became in the archive: its size and the SHA-256 of its bytes. */
export type Entry = { path: string; size: number; sha256: string };

const octal = (n: number, width: number): string => n.toString(8).padStart(width - 1, '0') + '\0';

const header = (name: string, size: number, type: '0' | 'x', mtime: number): Buffer => {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(0o600, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
};

const paxRecord = (key: string, value: string): string => {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len += 1;
  return `${len}${body}`;
};

/** Largest size the 11 octal digits of a ustar header hold. */
const USTAR_MAX_SIZE = 8 ** 11 - 1;

export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async write(chunk: Buffer): Promise<void> {
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  private async head(name: string, size: number, mtime: number): Promise<void> {
    const simple = /^[\x20-\x7e]{1,100}$/.test(name) && size <= USTAR_MAX_SIZE;
    if (!simple) {
      let pax = paxRecord('path', name);
      if (size > USTAR_MAX_SIZE) pax += paxRecord('size', String(size));
      const body = Buffer.from(pax, 'utf8');
      await this.write(header('PaxHeader', body.length, 'x', mtime));
      await this.write(body);
      await this.pad(body.length);
    }
    const shortName = simple ? name : name.slice(-100).replace(/[^\x20-\x7e]/g, '_');
    await this.write(header(shortName, Math.min(size, USTAR_MAX_SIZE), '0', mtime));
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await this.write(ZERO.subarray(0, BLOCK - rest));
  }

  async addBuffer(name: string, data: Buffer): Promise<Entry> {
    await this.head(name, data.length, Date.now());
    await this.write(data);
    await this.pad(data.length);
    return {
      path: name,
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    };
  }

  /**
   * Adds a file as it is on disk. Its size is taken once, at open: a file that shrinks while it
   * is read fails the backup rather than leaving a short entry.
   */
  async addFile(name: string, file: string): Promise<Entry> {
    const handle = await fsp.open(file, 'r');
    try {
      const st = await handle.stat();
      await this.head(name, st.size, st.mtimeMs);
      const hash = createHash('sha256');
      const buf = Buffer.alloc(1 << 16);
      let done = 0;
      while (done < st.size) {
        const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, st.size - done), done);
        if (bytesRead === 0) throw new Error(`${file} shrank while it was being archived`);
        const chunk = Buffer.from(buf.subarray(0, bytesRead));
        hash.update(chunk);
        await this.write(chunk);
        done += bytesRead;
      }
      await this.pad(st.size);
      return { path: name, size: st.size, sha256: hash.digest('hex') };
    } finally {
      await handle.close();
    }
  }

  /** The two zero blocks that end an archive; then ends the stream. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.out.end();
  }
}

/** Pulls exact byte counts out of a stream of chunks. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private ended = false;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.length < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else {
        this.buffered.push(next.value);
        this.length += next.value.length;
      }
    }
    return this.length >= n;
  }

  /** Up to `max` bytes (at least one), or null at the end. */
  async some(max: number): Promise<Buffer | null> {
    if (!(await this.fill(1))) return null;
    const all =
      this.buffered.length === 1 ? (this.buffered[0] as Buffer) : Buffer.concat(this.buffered);
    const take = all.subarray(0, Math.min(max, all.length));
    const rest = all.subarray(take.length);
    this.buffered = rest.length ? [rest] : [];
    this.length = rest.length;
    return take;
  }

  async exact(n: number): Promise<Buffer> {
    if (!(await this.fill(n))) throw new Error('the archive ends in the middle of an entry');
    const out = Buffer.alloc(n);
    let at = 0;
    while (at < n) {
      const part = await this.some(n - at);
      if (!part) throw new Error('the archive ends in the middle of an entry');
      part.copy(out, at);
      at += part.length;
    }
    return out;
  }
}

const field = (h: Buffer, start: number, len: number): string =>
  h.toString('utf8', start, start + len).replace(/\0.*$/s, '');

const parseOctal = (h: Buffer, start: number, len: number): number => {
  const text = field(h, start, len).trim();
  if (!/^[0-7]*$/.test(text)) throw new Error('the archive has a damaged header');
  return text ? parseInt(text, 8) : 0;
};

/**
 * Reads a tar stream, handing each regular file's bytes to `sink(path)` (a writable it opens)
 * and returning every file with its size and SHA-256. A header whose checksum does not add up
 * stops the read.
 */
export async function readTar(
  source: AsyncIterable<Buffer>,
  sink: (path: string) => Promise<Writable>,
): Promise<Entry[]> {
  const r = new ByteReader(source[Symbol.asyncIterator]());
  const entries: Entry[] = [];
  let pax: Record<string, string> = {};
  for (;;) {
    const h = await r.exact(BLOCK);
    if (h.equals(ZERO)) return entries;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] as number);
    if (sum !== parseOctal(h, 148, 8)) throw new Error('the archive has a damaged header');
    const type = field(h, 156, 1) || '0';
    const size = Number(pax.size ?? parseOctal(h, 124, 12));
    const prefix = field(h, 345, 155);
    const name = pax.path ?? (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      const body = (await r.exact(padded)).toString('utf8', 0, size);
      pax = {};
      for (const line of body.split('\n')) {
        const m = /^\d+ ([^=]+)=(.*)$/s.exec(line);
        if (m) pax[m[1] as string] = m[2] as string;
      }
      continue;
    }
    pax = {};
    if (type !== '0') {
      // Folders and anything else: nothing of ours is kept in them.
      await r.exact(padded);
      continue;
    }
    const out = await sink(name);
    const hash = createHash('sha256');
    let left = size;
    while (left > 0) {
      const chunk = await r.some(left);
      if (!chunk) throw new Error('the archive ends in the middle of an entry');
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
      left -= chunk.length;
    }
    out.end();
    await once(out, 'finish');
    if (padded > size) await r.exact(padded - size);
    entries.push({ path: name, size, sha256: hash.digest('hex') });
  }
}

/** A write stream that makes its folder first. */
export const fileSink = async (file: string, mode: number): Promise<Writable> => {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  return fs.createWriteStream(file, { flags: 'wx', mode });
};
