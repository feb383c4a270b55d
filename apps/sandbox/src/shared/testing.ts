import fs from 'node:fs';
import http, { type ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { createMailbox, sandboxPlugin } from '../index';
import { s256 } from './oauth';

export const BASE = 'http://sandbox.test/sandbox';
export const CLIENT = { id: 'tenpo-sandbox', secret: 'tenpo-sandbox-secret' };
export const REDIRECT = 'http://tenpo.test/api/publisher/callback';

export const tempDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-sandbox-'));

/** The sandbox as the product mounts it: under /sandbox, on a data folder of the test's own. */
export async function buildSandbox(
  dataDir = tempDir(),
): Promise<{ app: FastifyInstance; dataDir: string }> {
  const app = Fastify({ logger: false });
  await app.register(
    async (scope) => {
      await scope.register(sandboxPlugin, { dataDir, baseUrl: BASE, mailbox: createMailbox(null) });
    },
    { prefix: '/sandbox' },
  );
  await app.ready();
  return { app, dataDir };
}

export const form = (o: Record<string, string | string[]>): string => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o))
    for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
  return p.toString();
};
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const basic = (id = CLIENT.id, secret = CLIENT.secret) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
});

/** Follows a consent form POST and returns the redirect's query. */
export function redirectQuery(location: string | undefined): URLSearchParams {
  if (!location) throw new Error('no redirect');
  return new URL(location).searchParams;
}

export const GOOGLE_SCOPE = 'https://www.googleapis.com/auth/business.manage openid email';

export async function googleTokens(
  app: FastifyInstance,
  account = 'shop@tenpo.example',
  extra: Record<string, string> = {},
) {
  const params = {
    client_id: CLIENT.id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: GOOGLE_SCOPE,
    state: 'st',
    access_type: 'offline',
    prompt: 'consent',
    ...extra,
  };
  const res = await app.inject({
    method: 'POST',
    url: '/sandbox/google/accounts/o/oauth2/v2/auth',
    headers: FORM,
    payload: form({ ...params, account, decision: 'allow' }),
  });
  const code = redirectQuery(res.headers.location as string).get('code') as string;
  const tok = await app.inject({
    method: 'POST',
    url: '/sandbox/google/oauth2/token',
    headers: FORM,
    payload: form({
      code,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
      redirect_uri: REDIRECT,
      grant_type: 'authorization_code',
      ...(extra.code_verifier ? { code_verifier: extra.code_verifier } : {}),
    }),
  });
  return tok.json() as { access_token: string; refresh_token?: string; expires_in: number };
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

export async function facebookUserToken(
  app: FastifyInstance,
  opts: { scopes?: string[]; pages?: string[]; long?: boolean } = {},
) {
  const scopes = opts.scopes ?? [
    'pages_show_list',
    'pages_read_engagement',
    'pages_manage_posts',
    'instagram_basic',
    'instagram_content_publish',
    'business_management',
  ];
  const res = await app.inject({
    method: 'POST',
    url: '/sandbox/facebook/www/v25.0/dialog/oauth',
    headers: FORM,
    payload: form({
      client_id: CLIENT.id,
      redirect_uri: REDIRECT,
      state: 's1',
      scope: scopes.join(','),
      response_type: 'code',
      user_id: '122104567890123456',
      decision: 'allow',
      granted: scopes,
      page_ids: opts.pages ?? [
        '104857392017465',
        '104857392017466',
        '104857392017467',
        '104857392017468',
      ],
    }),
  });
  const code = redirectQuery(res.headers.location as string).get('code') as string;
  const short = (
    await app.inject({
      url: `/sandbox/facebook/graph/v25.0/oauth/access_token?${form({ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uri: REDIRECT, code })}`,
    })
  ).json() as { access_token: string };
  if (opts.long === false) return short.access_token;
  const long = (
    await app.inject({
      url: `/sandbox/facebook/graph/v25.0/oauth/access_token?${form({ grant_type: 'fb_exchange_token', client_id: CLIENT.id, client_secret: CLIENT.secret, fb_exchange_token: short.access_token })}`,
    })
  ).json() as { access_token: string };
  return long.access_token;
}

export async function pageToken(
  app: FastifyInstance,
  userToken: string,
  pageId: string,
): Promise<string> {
  const r = (
    await app.inject({ url: `/sandbox/facebook/graph/v25.0/me/accounts?access_token=${userToken}` })
  ).json() as { data: { id: string; access_token: string }[] };
  const p = r.data.find((x) => x.id === pageId);
  if (!p) throw new Error(`page ${pageId} not granted`);
  return p.access_token;
}

export const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-sandbox-verifier';
export async function xTokens(
  app: FastifyInstance,
  scope = 'tweet.read tweet.write users.read offline.access media.write',
) {
  const res = await app.inject({
    method: 'POST',
    url: '/sandbox/x/i/oauth2/authorize',
    headers: FORM,
    payload: form({
      response_type: 'code',
      client_id: CLIENT.id,
      redirect_uri: REDIRECT,
      scope,
      state: 'xs',
      code_challenge: s256(VERIFIER),
      code_challenge_method: 'S256',
      user_id: '1701234567890123456',
      decision: 'allow',
    }),
  });
  const code = redirectQuery(res.headers.location as string).get('code') as string;
  const tok = await app.inject({
    method: 'POST',
    url: '/sandbox/x/api/2/oauth2/token',
    headers: { ...FORM, ...basic() },
    payload: form({
      code,
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
      client_id: CLIENT.id,
    }),
  });
  return tok.json() as { access_token: string; refresh_token?: string };
}

/** A JPEG header of the given size, padded to `bytes` (the emulators read headers only). */
export function fakeJpeg(width: number, height: number, bytes = 20_000): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  const padLen = Math.max(0, bytes - 2 - sof.length - 2 - 4);
  const chunks: Buffer[] = [Buffer.from([0xff, 0xd8])];
  let left = padLen;
  while (left > 0) {
    const n = Math.min(left, 65000);
    const seg = Buffer.alloc(n + 4);
    seg[0] = 0xff;
    seg[1] = 0xe1;
    seg.writeUInt16BE(n + 2, 2);
    chunks.push(seg);
    left -= n;
  }
  chunks.push(sof, Buffer.from([0xff, 0xd9]));
  return Buffer.concat(chunks);
}

/** An MP4 with just enough boxes (ftyp, moov/mvhd) to carry a duration. */
export function fakeMp4(seconds: number, bytes = 50_000): Buffer {
  const ftyp = Buffer.alloc(16);
  ftyp.writeUInt32BE(16, 0);
  ftyp.write('ftypisom', 4, 'ascii');
  const mvhd = Buffer.alloc(8 + 100);
  mvhd.writeUInt32BE(108, 0);
  mvhd.write('mvhd', 4, 'ascii');
  mvhd.writeUInt32BE(1000, 8 + 4 + 8);
  mvhd.writeUInt32BE(Math.round(seconds * 1000), 8 + 4 + 12);
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
 * Tenpo's media host as a provider's crawler meets it: a real HTTP server on a free port.
 * `/photo.jpg` (1080×1080), `/wide.jpg` (2000×500), `/clip.mp4` (10 s), `/page.html` (HTML that
 * claims to be a JPEG), `/missing.jpg` (404), `/hang.jpg` (never answers); every request is
 * counted by path.
 */
export async function startMediaServer(): Promise<{
  url: string;
  hits: Map<string, number>;
  close: () => Promise<void>;
}> {
  const files: Record<string, { type: string; body: Buffer }> = {
    '/photo.jpg': { type: 'image/jpeg', body: fakeJpeg(1080, 1080, 60_000) },
    '/wide.jpg': { type: 'image/jpeg', body: fakeJpeg(2000, 500, 60_000) },
    '/clip.mp4': { type: 'video/mp4', body: fakeMp4(10, 200_000) },
    '/page.html': { type: 'image/jpeg', body: Buffer.from('<!doctype html><p>not an image</p>') },
  };
  const hits = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(p, (hits.get(p) ?? 0) + 1);
    if (p === '/hang.jpg') {
      hanging.add(res);
      return;
    }
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
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
