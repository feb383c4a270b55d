import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServer } from '../src/compose';
import { loadConfig } from '../src/config';

// The one-process server: API, sandbox mailbox and the web app with the API key injected.
let server: Awaited<ReturnType<typeof composeServer>>;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-compose-'));
  const dist = path.join(dir, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><title>Tenpo</title></head><body><div id="root"><div class="boot"><!--tenpo:boot-title--></div></div></body></html>',
  );
  // What the web build writes beside index.html (apps/web/vite.config.ts, routeTitles).
  fs.writeFileSync(
    path.join(dist, 'route-titles.json'),
    JSON.stringify({ '/dashboard': 'ダッシュボード', '/posts': '投稿<一覧>' }),
  );
  fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
  // What the build's precompress step leaves beside a large asset (apps/web/vite.config.ts).
  const big = `export const words = ${JSON.stringify('店舗の投稿 '.repeat(400))};\n`;
  fs.writeFileSync(path.join(dist, 'assets', 'big-abc123.js'), big);
  fs.writeFileSync(path.join(dist, 'assets', 'big-abc123.js.br'), zlib.brotliCompressSync(big));
  fs.writeFileSync(path.join(dist, 'assets', 'big-abc123.js.gz'), zlib.gzipSync(big));
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    TENPO_API_KEY: 'compose-key-1',
    WEB_DIST: dist,
    PUBLIC_URL: 'http://tenpo.test',
  });
  server = await composeServer(config);
  await server.app.ready();
});
afterAll(async () => {
  await server.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('composed server', () => {
  it('serves the web app with the API key it started with, for every client route', async () => {
    for (const url of ['/', '/login', '/overview/agencies/3', '/register-account?token=x']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<meta name="tenpo-api-key" content="compose-key-1">');
      // HELP_URL unset: the help site linked so far (issue 23 item 10).
      expect(res.body).toContain(
        '<meta name="tenpo-help-url" content="https://help.tenpo.example/">',
      );
      // No tile server configured: the map draws offline, and the CSP allows no outside image
      // but the sandbox's own (PUBLIC_URL's host: the photos only its Google holds).
      expect(res.body).not.toContain('tenpo-map-tile-url');
      expect(String(res.headers['content-security-policy'])).toContain(
        "img-src 'self' data: blob: http://tenpo.test;",
      );
    }
    expect((await server.app.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe(
      'console.log(1)',
    );
    expect((await server.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(
      404,
    );
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/nothing-here' })).headers[
        'content-type'
      ],
    ).toContain('application/json');
  });

  it('sends assets compressed as the browser accepts, hashed ones cached for a year (issue 23 item 5)', async () => {
    const get = (url: string, encoding?: string) =>
      server.app.inject({
        method: 'GET',
        url,
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const raw = (await get('/assets/big-abc123.js')).rawPayload;
    const br = await get('/assets/big-abc123.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(raw)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(raw.length / 4);
    const gz = await get('/assets/big-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).equals(raw)).toBe(true);
    expect((await get('/assets/big-abc123.js')).headers['content-encoding']).toBeUndefined();
    // Not hashed: asked again each time.
    expect((await get('/favicon.svg', 'br')).headers['cache-control']).toBe('no-cache');
    // The page, with this server's tags, compressed too and never kept.
    for (const url of ['/', '/dashboard']) {
      const page = await get(url, 'br;q=1, gzip;q=0.8');
      expect(page.headers['content-encoding']).toBe('br');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers.vary).toContain('accept-encoding');
      expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toContain(
        '<meta name="tenpo-api-key" content="compose-key-1">',
      );
    }
    expect(zlib.gunzipSync((await get('/', 'gzip')).rawPayload).toString()).toContain(
      'tenpo-api-key',
    );
  });

  it('names the screen asked for in the loading screen, escaped, compressed too (ADR 0079)', async () => {
    const body = async (url: string) => {
      const res = await server.app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': 'br' },
      });
      return zlib.brotliDecompressSync(res.rawPayload).toString();
    };
    expect(await body('/dashboard')).toContain(
      '<div class="boot"><h1 class="boot-title">ダッシュボード</h1></div>',
    );
    expect(await body('/posts?page=2')).toContain('<h1 class="boot-title">投稿&lt;一覧&gt;</h1>');
    // A path with no fixed title (a parameter, an unknown page): the loading screen alone.
    for (const url of ['/', '/post/12', '/nowhere']) {
      const html = await body(url);
      expect(html).toContain('<div class="boot"></div>');
      expect(html).not.toContain('tenpo:boot-title');
    }
    // Each variant is the page with this server's tags.
    expect(await body('/dashboard')).toContain('tenpo-api-key');
  });

  it('migrates and seeds on first start, idempotently', async () => {
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'x-api-key': 'compose-key-1' },
      payload: { email: 'agency@tenpo.example', password: 'tenpo-demo-1' },
    });
    expect(login.statusCode).toBe(200);
    const { seedDemo } = await import('../src/db/seed');
    expect(await seedDemo(server.database.db, { now: () => new Date() })).toEqual({ created: 0 });
  });

  it('delivers mail to the sandbox mailbox at /sandbox/mail', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/forgot-password',
      headers: { 'x-api-key': 'compose-key-1' },
      payload: { email: 'shop@tenpo.example' },
    });
    expect(res.statusCode).toBe(200);
    await server.app.queue.drain();
    const box = await server.app.inject({
      method: 'GET',
      url: '/sandbox/mail?to=shop@tenpo.example',
      headers: { accept: 'application/json' },
    });
    const mails = (box.json() as { data: { subject: string; text: string }[] }).data;
    expect(mails[0]?.subject).toContain('パスワード再設定');
    expect(mails[0]?.text).toContain('http://tenpo.test/reset-password?token=');
    const page = await server.app.inject({ method: 'GET', url: '/sandbox/mail' });
    expect(page.body).toContain('パスワード再設定');
  });
});

describe('composed server with a map tile server (ADR 0042)', () => {
  let mapped: Awaited<ReturnType<typeof composeServer>>;
  let mapDir: string;
  beforeAll(async () => {
    mapDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-compose-map-'));
    const dist = path.join(mapDir, 'dist');
    fs.mkdirSync(dist, { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), '<html><head></head><body></body></html>');
    mapped = await composeServer(
      loadConfig({
        DATA_DIR: mapDir,
        LOG_LEVEL: 'silent',
        WEB_DIST: dist,
        TENPO_SEED_DEMO: 'false',
        MAP_TILE_URL: 'https://tiles.example.jp/{z}/{x}/{y}.png?a=1&b=2',
        MAP_ATTRIBUTION: '© "Tiles" <Example>',
        HELP_URL: 'https://support.example.jp/tenpo?lang=ja&v="2"',
      }),
    );
    await mapped.app.ready();
  });
  afterAll(async () => {
    await mapped.app.close();
    fs.rmSync(mapDir, { recursive: true, force: true });
  });

  it('hands the template and attribution to the page, escaped, and allows that origin only', async () => {
    const res = await mapped.app.inject({ method: 'GET', url: '/basic-information' });
    expect(res.body).toContain(
      '<meta name="tenpo-map-tile-url" content="https://tiles.example.jp/{z}/{x}/{y}.png?a=1&amp;b=2">',
    );
    expect(res.body).toContain(
      '<meta name="tenpo-map-attribution" content="© &quot;Tiles&quot; &lt;Example&gt;">',
    );
    // HELP_URL set: the account menu and the plan selector link there (escaped like the rest).
    expect(res.body).toContain(
      '<meta name="tenpo-help-url" content="https://support.example.jp/tenpo?lang=ja&amp;v=&quot;2&quot;">',
    );
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(
      "img-src 'self' data: blob: https://tiles.example.jp http://localhost:3000;",
    );
    expect(csp).toContain("connect-src 'self';");
  });
});
