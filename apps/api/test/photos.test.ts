import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ja, type PhotoItem } from '@tenpo/domain';
import { PHOTO_CLAIM_MS } from '../src/modules/photos/photos.service';
import { iso } from '../src/lib/clock';
import { call, json, type TestApp } from './helpers';
import { photoJpeg, postsHelpers, startPostsWorld, type PostsWorld } from './posts-harness';
import type { RunningSandbox } from './sandbox';
import { shopGoogleToken } from './sandbox';

/**
 * The photo library (issue 11, ADR 0043) against the Google emulator on a free port. What
 * Google holds is read from the sandbox's own v4 media list, with the shop's demo grant.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let token = '';
let shop = 0;
let photo: Buffer;
const { countOf } = postsHelpers(() => w);

const ACCOUNT = '104772635510001234567';
const LOCATION = '4821390157204861230';
const PARENT = `accounts/${ACCOUNT}/locations/${LOCATION}`;

type GoogleItem = { name: string; googleUrl?: string; dataRef?: { resourceName: string } };

const googleToken = (): Promise<string> => shopGoogleToken(sb.url);

/** Google's side: the location's media, as the v4 list answers. */
async function atGoogle(): Promise<GoogleItem[]> {
  const res = await fetch(`${sb.url}/google/mybusiness/v4/${PARENT}/media?pageSize=2500`, {
    headers: { authorization: `Bearer ${await googleToken()}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { mediaItems?: GoogleItem[] }).mediaItems ?? [];
}

/** Google's side, by hand: a slot with bytes (steps 1 and 2 of a v4 upload). */
async function stageAtGoogle(bytes: Buffer): Promise<string> {
  const auth = { authorization: `Bearer ${await googleToken()}` };
  const slot = (await (
    await fetch(`${sb.url}/google/mybusiness/v4/${PARENT}/media:startUpload`, {
      method: 'POST',
      headers: auth,
    })
  ).json()) as { resourceName: string };
  const up = await fetch(
    `${sb.url}/google/mybusiness/upload/v1/media/${slot.resourceName}?upload_type=media`,
    { method: 'POST', headers: { ...auth, 'content-type': 'image/jpeg' }, body: bytes },
  );
  expect(up.status).toBe(200);
  return slot.resourceName;
}

/** Google's side, by hand: the item from a slot (step 3), as the owner does on Google. */
async function createAtGoogle(ref: string): Promise<GoogleItem> {
  const res = await fetch(`${sb.url}/google/mybusiness/v4/${PARENT}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await googleToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      mediaFormat: 'PHOTO',
      locationAssociation: { category: 'ADDITIONAL' },
      dataRef: { resourceName: ref },
    }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as GoogleItem;
}

type File = { name: string; type: string; data: Buffer };
/** A multipart body with `photos` sent once per file, as the browser's FormData does. */
function uploadBody(userId: number | string, files: File[]) {
  const b = `----photos${randomBytes(6).toString('hex')}`;
  const parts: Buffer[] = [
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n${userId}\r\n`),
  ];
  for (const f of files)
    parts.push(
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="photos"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${b}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${b}` },
  };
}

const upload = (files: File[], userId: number | string = shop) =>
  call(t.app, { method: 'POST', url: '/api/photos/upload', token, ...uploadBody(userId, files) });
const list = async (): Promise<PhotoItem[]> => {
  const res = await call(t.app, { method: 'GET', url: `/api/photos?user_id=${shop}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: PhotoItem[] }>(res).data;
};
const remove = (id: number) =>
  call(t.app, { method: 'DELETE', url: `/api/photos/${id}?user_id=${shop}`, token });
const jpg = (name: string, data = photo): File => ({ name, type: 'image/jpeg', data });

/** Rows of the library and files on disk: what a refused upload must leave unchanged. */
const held = async () => {
  const rows = await t.database.db
    .selectFrom('photos')
    .select((e) => e.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const dir = path.join(t.config.dataDir, 'uploads', 'media', 'photos');
  return {
    rows: Number(rows.n),
    files: fs.existsSync(dir) ? fs.readdirSync(dir).length : 0,
  };
};

beforeAll(async () => {
  photo = await photoJpeg();
  w = await startPostsWorld({ channelTimeoutMs: 1500 });
  ({ sb, t, token, shop } = w);
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await sb.control('DELETE', '/control/calls');
});

describe('POST /api/photos/upload sends each photo to Google once', () => {
  it('three photos: three items in the library and three in the location’s media at Google', async () => {
    const before = (await atGoogle()).length;
    const res = await upload([jpg('a.jpg'), jpg('b.jpg'), jpg('c.jpg')]);
    expect(res.statusCode, res.body).toBe(200);
    const body = json<{ message: string; data: PhotoItem[] }>(res);
    expect(body.message).toBe(ja.photoUploaded);
    expect(body.data).toHaveLength(3);
    for (const p of body.data) {
      expect(p).toMatchObject({ gmb_media_type: 'PHOTO', sync_state: 'synced', sync_error: null });
      expect(p.photo_id).toBeTruthy();
    }
    const google = await atGoogle();
    expect(google).toHaveLength(before + 3);
    const keys = google.map((m) => m.name.split('/').pop());
    for (const p of body.data) expect(keys).toContain(p.photo_id);
    // One create each: nothing was sent twice.
    expect(await countOf('POST', new RegExp(`${LOCATION}/media$`))).toBe(3);
    const listed = await list();
    for (const p of body.data) expect(listed.map((x) => x.id)).toContain(p.id);
  });

  it('a format Google refuses (GIF) is kept, failed, with the reason in Japanese', async () => {
    const gif = await sharp({
      create: { width: 400, height: 400, channels: 3, background: '#c84' },
    })
      .gif()
      .toBuffer();
    const before = (await atGoogle()).length;
    const res = await upload([{ name: 'anim.gif', type: 'image/gif', data: gif }]);
    expect(res.statusCode, res.body).toBe(200);
    const [p] = json<{ data: PhotoItem[] }>(res).data;
    expect(p).toMatchObject({ sync_state: 'failed', sync_error: ja.photoGoogleRefused });
    expect((await list()).find((x) => x.id === p?.id)?.sync_state).toBe('failed');
    expect(await atGoogle()).toHaveLength(before);
  });

  it('Google unreachable: the photo is kept as failed, and the next list sends it', async () => {
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'server_error',
      status: 503,
      path: 'media:startUpload',
      count: 'until_cleared',
    });
    const before = (await atGoogle()).length;
    const res = await upload([jpg('later.jpg')]);
    expect(res.statusCode, res.body).toBe(200);
    const [p] = json<{ data: PhotoItem[] }>(res).data;
    expect(p).toMatchObject({ sync_state: 'failed', sync_error: ja.photoGoogleUnreachable });
    expect(await atGoogle()).toHaveLength(before);
    await sb.control('DELETE', '/faults');
    const again = (await list()).find((x) => x.id === p?.id);
    expect(again).toMatchObject({ sync_state: 'synced', sync_error: null });
    expect((await atGoogle()).map((m) => m.name.split('/').pop())).toContain(again?.photo_id);
  });
});

describe('a photo Google never takes is tried at most five times', () => {
  it('Google down for good: the lists stop sending after the fifth send', async () => {
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'server_error',
      status: 503,
      path: 'media:startUpload',
      count: 'until_cleared',
    });
    const [p] = json<{ data: PhotoItem[] }>(await upload([jpg('never.jpg')])).data;
    expect(p?.sync_state).toBe('failed');
    for (let i = 0; i < 5; i++) await list();
    const sent = await countOf('POST', /media:startUpload$/);
    expect(sent).toBeGreaterThan(0);
    await list();
    await list();
    expect(await countOf('POST', /media:startUpload$/)).toBe(sent);
    expect((await list()).find((x) => x.id === p?.id)).toMatchObject({
      sync_state: 'failed',
      sync_error: ja.photoGoogleUnreachable,
    });
    await sb.control('DELETE', '/faults');
    // Not left for a later list either: it stays failed, shown as such.
    await list();
    expect((await list()).find((x) => x.id === p?.id)?.sync_state).toBe('failed');
  });
});

describe('a send cut short is settled by the next list, never sent twice', () => {
  const stuck = async (ref: string) =>
    (
      await t.database.db
        .insertInto('photos')
        .values({
          store_id: shop,
          media_format: 'PHOTO',
          google_url: null,
          storage_key: null,
          sync_state: 'sending',
          upload_ref: ref,
          attempts: 1,
          // The sender died; its hold ran out.
          claimed_until: iso(new Date(t.clock.now().getTime() - PHOTO_CLAIM_MS)),
          created_at: iso(t.clock.now()),
          updated_at: iso(t.clock.now()),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  it('created at Google before the crash: taken as it is, no second create', async () => {
    const ref = await stageAtGoogle(photo);
    const made = await createAtGoogle(ref);
    const id = await stuck(ref);
    await sb.control('DELETE', '/control/calls');
    const p = (await list()).find((x) => x.id === id);
    expect(p).toMatchObject({ sync_state: 'synced', photo_id: made.name.split('/').pop() });
    expect(await countOf('POST', new RegExp(`${LOCATION}/media$`))).toBe(0);
    expect((await atGoogle()).filter((m) => m.dataRef?.resourceName === ref)).toHaveLength(1);
  });

  it('staged but never created: created once from the recorded slot', async () => {
    const ref = await stageAtGoogle(photo);
    const id = await stuck(ref);
    await sb.control('DELETE', '/control/calls');
    await Promise.all([list(), list()]);
    expect((await list()).find((x) => x.id === id)?.sync_state).toBe('synced');
    expect(await countOf('POST', new RegExp(`${LOCATION}/media$`))).toBe(1);
    expect((await atGoogle()).filter((m) => m.dataRef?.resourceName === ref)).toHaveLength(1);
  });
});

describe('GET /api/photos follows Google’s side', () => {
  it('a photo added on Google shows, with Google’s URL; removed on Google, it goes', async () => {
    const made = await createAtGoogle(await stageAtGoogle(photo));
    const key = made.name.split('/').pop();
    const p = (await list()).find((x) => x.photo_id === key);
    expect(p).toMatchObject({ sync_state: 'synced', photo_url: made.googleUrl });
    const res = await fetch(`${sb.url}/google/mybusiness/v4/${made.name}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await googleToken()}` },
    });
    expect(res.status).toBe(200);
    expect((await list()).find((x) => x.photo_id === key)).toBeUndefined();
  });
});

describe('DELETE /api/photos/{id}', () => {
  it('deletes at Google, then here', async () => {
    const [p] = json<{ data: PhotoItem[] }>(await upload([jpg('gone.jpg')])).data;
    if (!p?.photo_id) throw new Error('not uploaded');
    const res = await remove(p.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).message).toBe(ja.photoDeleted);
    expect((await atGoogle()).map((m) => m.name.split('/').pop())).not.toContain(p.photo_id);
    expect((await list()).map((x) => x.id)).not.toContain(p.id);
    expect((await remove(p.id)).statusCode).toBe(404);
  });

  it('Google failing: the deletion fails with its message and the photo stays', async () => {
    const [p] = json<{ data: PhotoItem[] }>(await upload([jpg('stays.jpg')])).data;
    if (!p?.photo_id) throw new Error('not uploaded');
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'server_error',
      status: 503,
      method: 'DELETE',
      path: '/media/',
      count: 'until_cleared',
    });
    const res = await remove(p.id);
    expect(res.statusCode).toBe(502);
    expect(json(res).message).toBe(ja.photoDeleteFailed);
    await sb.control('DELETE', '/faults');
    expect((await atGoogle()).map((m) => m.name.split('/').pop())).toContain(p.photo_id);
    expect((await list()).map((x) => x.id)).toContain(p.id);
  });
});

describe('bad input: 422 with the Japanese line, nothing stored, nothing sent', () => {
  const refused = async (files: File[], field: string, line: string) => {
    const before = await held();
    const res = await upload(files);
    expect(res.statusCode, res.body).toBe(422);
    const errors = json<{ errors: Record<string, string[]> }>(res).errors;
    expect(errors[field]).toEqual([line]);
    expect(await held()).toEqual(before);
    expect(await countOf('POST', /media:startUpload$/)).toBe(0);
  };

  it('eleven files', () =>
    refused(
      Array.from({ length: 11 }, (_, i) => jpg(`${i}.jpg`)),
      'photos',
      ja.postTooManyFiles(10),
    ));

  it('a file of 21 MB', () =>
    refused(
      [jpg('big.jpg', Buffer.concat([photo, Buffer.alloc(21 * 1024 * 1024 - photo.length)]))],
      'photos.0',
      ja.mediaUploadOver20Mb,
    ));

  it('a WebP named .jpg', async () => {
    const webp = await sharp(photo).webp().toBuffer();
    await refused([jpg('a.jpg'), jpg('disguised.jpg', webp)], 'photos.1', ja.mediaWebpUnsupported);
  });

  it('a text file named .jpg', () =>
    refused(
      [jpg('notes.jpg', Buffer.from('not an image at all'))],
      'photos.0',
      ja.mediaUnreadable,
    ));

  it('no file', () => refused([], 'photos', ja.photoFileRequired));
});
