import fs from 'node:fs';
import path from 'node:path';
import { ja } from '@tenpo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, json, login, multipart, png, type TestApp } from './helpers';
import { startS3, type TestS3 } from './s3';

type UserBody = { data: { logo_url: string | null } };

let s3: TestS3;
let t: TestApp;
beforeAll(async () => {
  s3 = await startS3('tenpo-logos-test');
  t = await buildTestApp(s3.env);
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

const upload = (token: string, file: Buffer, email = 'newshop@tenpo.example') =>
  call(t.app, {
    method: 'POST',
    url: '/api/account-setting/information',
    token,
    ...multipart(
      { name: '木村 颯太', email },
      { logo_url: { filename: 'logo.png', type: 'image/png', data: file } },
    ),
  });

describe('logo uploads on the S3 driver', () => {
  it('stores the logo in the bucket, not on disk, and serves it at the same path', async () => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const res = await upload(token, png(2048));
    expect(res.statusCode).toBe(200);
    const logo = String(json<UserBody>(res).data.logo_url);
    expect(logo).toMatch(/^\/uploads\/logos\/[\w-]+\.png$/);
    expect(await s3.keys()).toEqual([logo.slice('/uploads/'.length)]);
    expect(fs.existsSync(path.join(t.config.dataDir, 'uploads'))).toBe(false);
    // A private store still shows logos: the white-label login page needs them unsigned.
    const img = await t.app.inject({ method: 'GET', url: logo });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(png(2048))).toBe(true);
  });

  it.each([
    [
      'not an image',
      Buffer.from('not an image at all'),
      'newshop@tenpo.example',
      { logo_url: [ja.imageOnly] },
    ],
    [
      'over 3072 KB',
      png(3072 * 1024 + 1),
      'newshop@tenpo.example',
      { logo_url: [ja.imageTooLarge(3072)] },
    ],
    // A new login address without the current password (ADR 0065): refused after the file.
    [
      'a good image, a new e-mail and no password',
      png(),
      'newshop-next@tenpo.example',
      { current_password: [ja.required('現在のパスワード')] },
    ],
  ])('a refused upload (%s) leaves no object behind', async (_what, file, email, errors) => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const before = await s3.keys();
    const res = await upload(token, file, email);
    expect(res.statusCode).toBe(422);
    expect(json<{ errors: unknown }>(res).errors).toEqual(errors);
    expect(await s3.keys()).toEqual(before);
  });

  it('refuses an unsigned read of a private object, and serves the signed one', async () => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const res = await upload(token, png());
    const key = String(json<UserBody>(res).data.logo_url).slice('/uploads/'.length);
    // The same bytes outside the public folder, as post media will be.
    const stream = await t.app.storage.open(key);
    const media = await t.app.storage.put(stream, {
      folder: 'media/1',
      ext: 'png',
      contentType: 'image/png',
    });
    expect((await t.app.inject({ method: 'GET', url: `/uploads/${media.key}` })).statusCode).toBe(
      403,
    );
    const signed = await t.app.storage.url(media.key);
    expect(signed.startsWith(`${s3.endpoint}/${s3.bucket}/${media.key}?`)).toBe(true);
    const fetched = await fetch(signed);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(png())).toBe(true);
  });
});
