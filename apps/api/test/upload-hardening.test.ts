import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_PIXELS_LABEL, ja } from '@tenpo/domain';
import { createUploadBudget } from '../src/lib/uploads';
import {
  addOtherTenant,
  API_KEY,
  buildTestApp,
  call,
  json,
  login,
  multipart,
  png,
  type TestApp,
} from './helpers';

// Issue 22, items 1, 6 and 13 (ADR 0064): uploads checked before they are read and capped in
// flight; multipart and framework refusals in the envelope; image fields bounded in pixels.

let t: TestApp;
let url = '';
const ids: Record<string, number> = {};
beforeAll(async () => {
  // Narrow caps so that a few requests reach them: 300 MB for a user, 400 MB in all.
  t = await buildTestApp({ UPLOAD_INFLIGHT_USER_MB: '300', UPLOAD_INFLIGHT_PROCESS_MB: '400' });
  Object.assign(ids, (await addOtherTenant(t)).ids);
  for (const email of ['shop@tenpo.example', 'agency@tenpo.example'])
    ids[email] = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

type Envelope = { status_code: number; message: string; errors: Record<string, string[]> };

/** A PNG whose header declares `width`×`height` (one tiny IDAT: never meant to be decoded). */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Every route whose OpenAPI operation takes multipart/form-data, path parameters filled. */
async function multipartRoutes(): Promise<{ method: string; url: string }[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, { summary?: string; description?: string }>>;
  };
  const out: { method: string; url: string }[] = [];
  // Each upload route says `multipart:` in its summary or description (its fields and files).
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops))
      if (/multipart:/.test(`${op.summary ?? ''} ${op.description ?? ''}`))
        out.push({ method: method.toUpperCase(), url: path.replace(/\{[^}]+\}/g, '1') });
  return out;
}

describe('item 6: a multipart body that cannot be read is the client’s error, in the envelope', () => {
  it('every multipart route answers a multipart type without a boundary with 400', async () => {
    // Each as the role the route is for: the role is checked before the body (item 7).
    const tokens = {
      shop: await login(t.app, 'shop@tenpo.example'),
      agency: await login(t.app, 'agency@tenpo.example'),
      manager: await login(t.app, 'manager@tenpo.example'),
    };
    const tokenFor = (url: string) =>
      url.startsWith('/api/admin/')
        ? tokens.manager
        : url.startsWith('/api/agency/')
          ? tokens.agency
          : tokens.shop;
    const routes = await multipartRoutes();
    // photos, posts (and its news, events and offers, new and edited), products (new and
    // edited), account information, agency logo, admin agencies (new and changed).
    expect(routes.length).toBeGreaterThanOrEqual(13);
    for (const r of routes) {
      const res = await call(t.app, {
        method: r.method as 'POST',
        url: r.url,
        token: tokenFor(r.url),
        headers: { 'content-type': 'multipart/form-data' },
        payload: 'abc',
      });
      expect([r, res.statusCode]).toEqual([r, 400]);
      expect(res.json()).toEqual({ status_code: 400, message: ja.multipartMalformed, errors: {} });
    }
  });

  it('a body cut short inside a file is 400, not 500', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const cut = (field: string) =>
      `--xyz\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\n\r\n\x89PNG`;
    for (const [path, payload] of [
      ['/api/photos/upload', cut('photos')],
      ['/api/posts', cut('medias[0]')],
      ['/api/posts/products', cut('files[0]')],
      ['/api/account-setting/information', cut('logo_url')],
    ] as const) {
      const res = await call(t.app, {
        method: 'POST',
        url: path,
        token,
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        payload,
      });
      expect([path, res.statusCode]).toEqual([path, 400]);
      expect(json<Envelope>(res).message).toBe(ja.multipartMalformed);
    }
  });

  it('Fastify’s own refusals carry a Japanese line of their status', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const badJson = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ status_code: 400, message: ja.badRequest, errors: {} });
    const xml = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      token,
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({
      status_code: 415,
      message: ja.unsupportedMediaType,
      errors: {},
    });
  });

  it('what Node’s parser refuses before Fastify (a broken request, huge headers) too', async () => {
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        const { port } = t.app.server.address() as net.AddressInfo;
        const s = net.connect(port, '127.0.0.1', () => s.write(text));
        let got = '';
        s.on('data', (b) => (got += b.toString('utf8')));
        s.on('close', () => resolve(got));
        s.on('error', () => resolve(got));
      });
    const broken = await raw('GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(broken.split('\r\n\r\n')[1] ?? '')).toEqual({
      status_code: 400,
      message: ja.badRequest,
      errors: {},
    });
    const huge = await raw(
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(huge.split('\r\n\r\n')[1] ?? '').message).toBe(ja.headersTooLarge);
  });
});

describe('item 13: image fields bound the pixels an image declares', () => {
  const giant = pngDeclaring(50_000, 50_000);
  const line = ja.imageTooManyPixels(IMAGE_MAX_PIXELS_LABEL);

  it('the account logo, the agency logo, and an agency’s logo and favicon', async () => {
    expect(giant.length).toBeLessThan(200);
    const shop = await login(t.app, 'shop@tenpo.example');
    const agency = await login(t.app, 'agency@tenpo.example');
    const admin = await login(t.app, 'manager@tenpo.example');
    const file = (name: string) => ({ filename: name, type: 'image/png', data: giant });
    const cases = [
      {
        token: shop,
        url: '/api/account-setting/information',
        body: multipart({ name: '山田', email: 'shop@tenpo.example' }, { logo_url: file('l.png') }),
        field: 'logo_url',
      },
      {
        token: agency,
        url: '/api/agency/logo',
        body: multipart({ user_id: String(ids['agency@tenpo.example']) }, { logo: file('l.png') }),
        field: 'logo',
      },
      ...(['logo', 'favicon'] as const).map((field) => ({
        token: admin,
        url: '/api/admin/agencies',
        body: multipart(
          {
            email: `giant-${field}@acme.example`,
            name: '代理店',
            company_name: '代理店',
            phone: '0312345678',
            agent_code: `77${field.length}`,
            status: '1',
            password: 'password-123',
            prefix: `giant-${field}`,
            title: '代理店',
          },
          { [field]: file(`${field}.png`) },
        ),
        field,
      })),
    ];
    for (const c of cases) {
      const res = await call(t.app, { method: 'POST', url: c.url, token: c.token, ...c.body });
      expect([c.url, c.field, res.statusCode]).toEqual([c.url, c.field, 422]);
      expect(json<Envelope>(res).errors[c.field]).toEqual([line]);
    }
    // A picture of ordinary size is taken as before.
    const ok = await call(t.app, {
      method: 'POST',
      url: '/api/agency/logo',
      token: agency,
      ...multipart(
        { user_id: String(ids['agency@tenpo.example']) },
        { logo: { filename: 'l.png', type: 'image/png', data: png() } },
      ),
    });
    expect(ok.statusCode).toBe(200);
  });
});

/**
 * Starts an upload on the listening server: the fields, a file part's header and the first
 * 64 KB of a file declared `fileBytes` long, the rest never sent. Resolves with the answer, or
 * with null when none came while the file was unread (the check waits for the file).
 */
function startUpload(
  path: string,
  token: string,
  fields: Record<string, string>,
  fileField: string,
  fileBytes: number,
): { answer: Promise<{ status: number; body: Envelope } | null>; abort: () => void } {
  const boundary = 'tenpo-bench-boundary';
  const head = Buffer.concat([
    ...Object.entries(fields).map(([k, v]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = http.request(`${url}${path}`, {
    method: 'POST',
    headers: {
      'x-api-key': API_KEY,
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + fileBytes + tail.length),
    },
  });
  req.on('error', () => undefined);
  req.write(head);
  req.write(Buffer.concat([png(), Buffer.alloc(64 * 1024 - png().length)]));
  const answer = new Promise<{ status: number; body: Envelope } | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), 5000);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (b: Buffer) => (text += b.toString('utf8')));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Envelope });
      });
    });
  });
  return { answer, abort: () => req.destroy() };
}

const MB = 1024 * 1024;

describe('item 1: the store is checked before a byte of a file is read', () => {
  it.each([
    ['/api/photos/upload', 'photos', 'other-store@tenpo.example', {}],
    ['/api/posts/products', 'files[0]', 'other-store@tenpo.example', {}],
    ['/api/posts', 'medias[0]', 'other-store@tenpo.example', { content: 'x' }],
    ['/api/posts/events', 'medias[0]', 'other-store@tenpo.example', { content: 'x' }],
    ['/api/agency/logo', 'logo', 'other-agency@tenpo.example', {}],
    // A route that takes no file reads none either before the check.
    ['/api/posts/events/1', 'medias[0]', 'other-store@tenpo.example', { content: 'x' }],
  ])(
    '%s: another tenant is answered 404 while its file is unread',
    async (path, field, who, extra) => {
      const token = await login(t.app, who);
      const { answer, abort } = startUpload(
        path,
        token,
        { user_id: String(ids['shop@tenpo.example']), ...extra },
        field,
        20 * MB,
      );
      const got = await answer;
      abort();
      expect(got).toEqual({
        status: 404,
        body: { status_code: 404, message: ja.notFound, errors: {} },
      });
    },
  );
});

describe('item 1: upload bytes in flight are capped per user and per process', () => {
  it('the unit: a user past its bytes is 429, the process past its bytes 503', () => {
    const b = createUploadBudget({ perUser: 100, perProcess: 150 });
    const a = b.take(1, 80);
    expect(() => b.take(1, 30)).toThrow(ja.uploadBusyUser);
    const c = b.take(2, 60);
    expect(() => b.take(3, 20)).toThrow(ja.uploadBusyServer);
    a();
    a(); // released once only
    expect(b.inFlight()).toEqual({ total: 60, users: 1 });
    c();
    // One request larger than the cap is let in alone (ten files at 20 MB always fit).
    b.take(4, 1000)();
    expect(b.inFlight()).toEqual({ total: 0, users: 0 });
  });

  it('through the server: 429 with its Japanese line, then 503, then free again', async () => {
    const shop = await login(t.app, 'shop@tenpo.example');
    const other = await login(t.app, 'other-store@tenpo.example');
    const own = { user_id: String(ids['shop@tenpo.example']) };
    const first = startUpload('/api/photos/upload', shop, own, 'photos', 200 * MB);
    for (let i = 0; i < 200 && (t.app.uploadBudget?.inFlight().total ?? 0) === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(t.app.uploadBudget?.inFlight().users).toBe(1);
    const second = startUpload('/api/photos/upload', shop, own, 'photos', 200 * MB);
    expect(await second.answer).toEqual({
      status: 429,
      body: { status_code: 429, message: ja.uploadBusyUser, errors: {} },
    });
    second.abort();
    const third = startUpload(
      '/api/photos/upload',
      other,
      { user_id: String(ids['other-store@tenpo.example']) },
      'photos',
      205 * MB,
    );
    expect(await third.answer).toEqual({
      status: 503,
      body: { status_code: 503, message: ja.uploadBusyServer, errors: {} },
    });
    third.abort();
    first.abort();
    for (let i = 0; i < 200 && (t.app.uploadBudget?.inFlight().total ?? 1) > 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(t.app.uploadBudget?.inFlight()).toEqual({ total: 0, users: 0 });
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/photos/upload',
      token: shop,
      ...multipart(own, { photos: { filename: 'a.png', type: 'image/png', data: png() } }),
    });
    expect(res.statusCode).toBe(200);
  });
});
