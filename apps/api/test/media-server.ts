import http from 'node:http';
import sharp from 'sharp';

/**
 * Tenpo's media URLs as the providers meet them: a real HTTP server on a free port, serving a
 * real JPEG (made with sharp), a short MP4 (just the boxes a provider reads), an HTML page that
 * claims to be a JPEG, and 404 for anything else. Requests are counted by path.
 */
export type MediaServer = {
  url: string;
  hits: Map<string, number>;
  close: () => Promise<void>;
};

/** An MP4 with ftyp and moov/mvhd carrying the duration, padded with a free box. */
export function tinyMp4(seconds: number, bytes = 120_000): Buffer {
  const ftyp = Buffer.alloc(16);
  ftyp.writeUInt32BE(16, 0);
  ftyp.write('ftypisom', 4, 'ascii');
  const mvhd = Buffer.alloc(108);
  mvhd.writeUInt32BE(108, 0);
  mvhd.write('mvhd', 4, 'ascii');
  mvhd.writeUInt32BE(1000, 20);
  mvhd.writeUInt32BE(Math.round(seconds * 1000), 24);
  const moov = Buffer.alloc(8);
  moov.writeUInt32BE(8 + mvhd.length, 0);
  moov.write('moov', 4, 'ascii');
  const head = Buffer.concat([ftyp, moov, mvhd]);
  const free = Buffer.alloc(Math.max(8, bytes - head.length));
  free.writeUInt32BE(free.length, 0);
  free.write('free', 4, 'ascii');
  return Buffer.concat([head, free]);
}

/**
 * A playable-looking MP4 as Tenpo's upload inspection reads it (ADR 0025): ftyp, then moov with
 * mvhd (the duration) and one video track whose tkhd carries the picture size, then mdat.
 */
export function videoMp4(width: number, height: number, seconds: number, bytes = 120_000): Buffer {
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n >>> 0);
    return b;
  };
  const box = (type: string, ...parts: Buffer[]) => {
    const payload = Buffer.concat(parts);
    return Buffer.concat([u32(8 + payload.length), Buffer.from(type, 'latin1'), payload]);
  };
  const identity = Buffer.concat(
    [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].map((n) => u32(n)),
  );
  const mvhd = box(
    'mvhd',
    u32(0),
    u32(0),
    u32(0),
    u32(1000),
    u32(Math.round(seconds * 1000)),
    u32(0x10000),
    Buffer.from([1, 0]),
    Buffer.alloc(10),
    identity,
    Buffer.alloc(24),
    u32(2),
  );
  const tkhd = box(
    'tkhd',
    u32(3),
    u32(0),
    u32(0),
    u32(1),
    u32(0),
    u32(Math.round(seconds * 1000)),
    Buffer.alloc(8),
    Buffer.alloc(8),
    identity,
    u32(width * 65536),
    u32(height * 65536),
  );
  const hdlr = box(
    'hdlr',
    u32(0),
    u32(0),
    Buffer.from('vide', 'latin1'),
    Buffer.alloc(12),
    Buffer.from('\0'),
  );
  const ftyp = box('ftyp', Buffer.from('isom', 'latin1'), u32(0), Buffer.from('isommp41'));
  const moov = box('moov', mvhd, box('trak', tkhd, box('mdia', hdlr)));
  const head = Buffer.concat([ftyp, moov]);
  return Buffer.concat([
    head,
    box('mdat', Buffer.alloc(Math.max(0, bytes - head.length - 8), 0xab)),
  ]);
}

export async function startMediaServer(): Promise<MediaServer> {
  // Noise, so the JPEG is over Google's 10 KB floor.
  const raw = Buffer.alloc(1080 * 1080 * 3);
  for (let i = 0; i < raw.length; i += 1) raw[i] = (i * 2654435761) >>> 24;
  const jpeg = await sharp(raw, { raw: { width: 1080, height: 1080, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const files: Record<string, { type: string; body: Buffer }> = {
    '/media/lunch.jpg': { type: 'image/jpeg', body: jpeg },
    '/media/cake.jpg': { type: 'image/jpeg', body: jpeg },
    '/media/shop.mp4': { type: 'video/mp4', body: tinyMp4(8) },
    '/media/page.jpg': { type: 'image/jpeg', body: Buffer.from('<!doctype html><p>login</p>') },
  };
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const f = files[p];
    if (!f) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    res.writeHead(200, { 'content-type': f.type, 'content-length': f.body.length }).end(f.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
