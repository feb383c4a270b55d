import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  auth,
  basic,
  buildSandbox,
  CLIENT,
  fakeJpeg,
  fakeMp4,
  FORM,
  form,
  REDIRECT,
  redirectQuery,
  VERIFIER,
  xTokens,
} from '../shared/testing';
import { s256 } from '../shared/oauth';
import { weightedLength } from './x.text';

const API = '/sandbox/x/api/2';
let app: FastifyInstance;
let dataDir: string;
beforeEach(async () => {
  ({ app, dataDir } = await buildSandbox());
});
afterEach(async () => {
  await app.close();
});

const authorize = async (challenge: string, method = 'S256') => {
  const res = await app.inject({
    method: 'POST',
    url: '/sandbox/x/i/oauth2/authorize',
    headers: FORM,
    payload: form({
      response_type: 'code',
      client_id: CLIENT.id,
      redirect_uri: REDIRECT,
      scope: 'tweet.read users.read offline.access',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: method,
      user_id: '1701234567890123456',
      decision: 'allow',
    }),
  });
  return redirectQuery(res.headers.location as string).get('code') as string;
};
const exchange = (code: string, verifier: string, headers: Record<string, string> = basic()) =>
  app.inject({
    method: 'POST',
    url: `${API}/oauth2/token`,
    headers: { ...FORM, ...headers },
    payload: form({
      code,
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: CLIENT.id,
    }),
  });

describe('X OAuth 2.0 with PKCE', () => {
  it('requires a code_challenge on the authorize page', async () => {
    const res = await app.inject({
      url: `/sandbox/x/i/oauth2/authorize?${form({ response_type: 'code', client_id: CLIENT.id, redirect_uri: REDIRECT, scope: 'tweet.read', state: 's' })}`,
    });
    expect(res.statusCode).toBe(400);
    const ok = await app.inject({
      url: `/sandbox/x/i/oauth2/authorize?${form({ response_type: 'code', client_id: CLIENT.id, redirect_uri: REDIRECT, scope: 'tweet.read', state: 's', code_challenge: s256(VERIFIER), code_challenge_method: 'S256' })}`,
    });
    expect(ok.body).toContain('@tenpo_demo');
  });

  it('verifies the S256 verifier at the token exchange', async () => {
    const wrong = await exchange(await authorize(s256(VERIFIER)), `${VERIFIER}-other`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Value passed for the authorization code was invalid.',
    });
    const good = await exchange(await authorize(s256(VERIFIER)), VERIFIER);
    expect(good.statusCode).toBe(200);
    expect(good.json()).toMatchObject({
      token_type: 'bearer',
      expires_in: 7200,
      scope: 'tweet.read users.read offline.access',
    });
    expect(good.json().refresh_token).toBeTruthy();
  });

  it("needs the client's Basic credentials, and codes live 30 seconds", async () => {
    const noBasic = await exchange(await authorize(s256(VERIFIER)), VERIFIER, {});
    expect(noBasic.statusCode).toBe(401);
    expect(noBasic.json().error).toBe('unauthorized_client');
    const code = await authorize(s256(VERIFIER));
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 31 },
    });
    expect((await exchange(code, VERIFIER)).statusCode).toBe(400);
  });

  it('denies with error=access_denied', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/sandbox/x/i/oauth2/authorize',
      headers: FORM,
      payload: form({
        response_type: 'code',
        client_id: CLIENT.id,
        redirect_uri: REDIRECT,
        scope: 'tweet.read',
        state: 'st',
        code_challenge: 'abc',
        decision: 'deny',
      }),
    });
    expect(Object.fromEntries(redirectQuery(res.headers.location as string))).toEqual({
      error: 'access_denied',
      state: 'st',
    });
  });

  it('rotates refresh tokens and expires access tokens', async () => {
    const t = await xTokens(app);
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 7201 },
    });
    const expired = await app.inject({ url: `${API}/users/me`, headers: auth(t.access_token) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({
      title: 'Unauthorized',
      type: 'about:blank',
      status: 401,
      detail: 'Unauthorized',
    });
    const refresh = (rt: string) =>
      app.inject({
        method: 'POST',
        url: `${API}/oauth2/token`,
        headers: { ...FORM, ...basic() },
        payload: form({ grant_type: 'refresh_token', refresh_token: rt, client_id: CLIENT.id }),
      });
    const next = await refresh(t.refresh_token as string);
    expect(next.statusCode).toBe(200);
    expect(next.json().refresh_token).not.toBe(t.refresh_token);
    expect((await refresh(t.refresh_token as string)).json()).toEqual({
      error: 'invalid_request',
      error_description: 'Value passed for the token was invalid.',
    });
    const me = await app.inject({
      url: `${API}/users/me`,
      headers: auth(next.json().access_token),
    });
    expect(me.json()).toEqual({
      data: { id: '1701234567890123456', name: 'Tenpo Demo Shop', username: 'tenpo_demo' },
    });
  });
});

describe('X posts', () => {
  it('creates and deletes a post with rate-limit headers', async () => {
    const t = await xTokens(app);
    const res = await app.inject({
      method: 'POST',
      url: `${API}/tweets`,
      headers: auth(t.access_token),
      payload: { text: '本日オープン！' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      text: '本日オープン！',
      edit_history_tweet_ids: [res.json().data.id],
    });
    expect(res.headers['x-rate-limit-limit']).toBe('100');
    expect(res.headers['x-rate-limit-remaining']).toBe('99');
    expect(Number(res.headers['x-rate-limit-reset'])).toBeGreaterThan(Date.now() / 1000);
    const dup = await app.inject({
      method: 'POST',
      url: `${API}/tweets`,
      headers: auth(t.access_token),
      payload: { text: '本日オープン！' },
    });
    expect(dup.statusCode).toBe(403);
    expect(dup.json().detail).toContain('duplicate content');
    const del = await app.inject({
      method: 'DELETE',
      url: `${API}/tweets/${res.json().data.id}`,
      headers: auth(t.access_token),
    });
    expect(del.json()).toEqual({ data: { deleted: true } });
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `${API}/tweets/123`,
          headers: auth(t.access_token),
        })
      ).statusCode,
    ).toBe(404);
  });

  it('holds links as t.co links: the text it returns and lists has them wrapped, media link appended', async () => {
    const t = await xTokens(app);
    const sent = 'ご予約は https://cafe.example/book?from=x こちら\nhttps://cafe.example/menu';
    const photo = await app.inject({
      method: 'POST',
      url: `${API}/media/upload`,
      headers: auth(t.access_token),
      payload: { media: fakeJpeg(1200, 900).toString('base64'), media_category: 'tweet_image' },
    });
    expect(photo.statusCode, photo.body).toBe(200);
    const mediaId = photo.json().data.id as string;
    const res = await app.inject({
      method: 'POST',
      url: `${API}/tweets`,
      headers: auth(t.access_token),
      payload: { text: sent, media: { media_ids: [mediaId] } },
    });
    expect(res.statusCode).toBe(201);
    const tco = 'https://t\\.co/[\\w-]{10}';
    const shown = new RegExp(`^ご予約は ${tco} こちら\\n${tco} ${tco}$`);
    const { id, text } = res.json().data as { id: string; text: string };
    expect(text).toMatch(shown);
    // Three different short links: one per link, and the media's.
    expect(new Set(text.match(/https:\/\/t\.co\/[\w-]{10}/g)).size).toBe(3);
    const one = await app.inject({ url: `${API}/tweets/${id}`, headers: auth(t.access_token) });
    expect(one.json().data.text).toBe(text);
    const list = await app.inject({
      url: `${API}/users/1701234567890123456/tweets?max_results=5&tweet.fields=created_at,attachments`,
      headers: auth(t.access_token),
    });
    expect(list.json().data[0]).toMatchObject({
      id,
      text,
      attachments: { media_keys: [`3_${mediaId}`] },
    });
    // Without the field, no attachments (as X answers).
    const bare = await app.inject({
      url: `${API}/users/1701234567890123456/tweets?max_results=5`,
      headers: auth(t.access_token),
    });
    expect(bare.json().data[0].attachments).toBeUndefined();
    // The duplicate check is on the text as sent.
    const dup = await app.inject({
      method: 'POST',
      url: `${API}/tweets`,
      headers: auth(t.access_token),
      payload: { text: sent },
    });
    expect(dup.statusCode).toBe(403);
  });

  it('counts weighted length: CJK weighs 2, URLs 23', async () => {
    expect(weightedLength('あ'.repeat(140))).toBe(280);
    expect(weightedLength('hello https://example.com/a/very/long/path')).toBe(6 + 23);
    expect(weightedLength('👍🏽')).toBe(2);
    const t = await xTokens(app);
    const long = await app.inject({
      method: 'POST',
      url: `${API}/tweets`,
      headers: auth(t.access_token),
      payload: { text: 'あ'.repeat(141) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().type).toBe('https://api.x.com/2/problems/invalid-request');
  });

  it('answers 429 with its reset time when the per-user window is spent', async () => {
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { x: { tweetsPer15MinPerUser: 2 } },
    });
    const t = await xTokens(app);
    for (const text of ['a', 'b'])
      expect(
        (
          await app.inject({
            method: 'POST',
            url: `${API}/tweets`,
            headers: auth(t.access_token),
            payload: { text },
          })
        ).statusCode,
      ).toBe(201);
    const over = await app.inject({
      method: 'POST',
      url: `${API}/tweets`,
      headers: auth(t.access_token),
      payload: { text: 'c' },
    });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      title: 'Too Many Requests',
      type: 'about:blank',
      status: 429,
      detail: 'Too Many Requests',
    });
    expect(over.headers['x-rate-limit-remaining']).toBe('0');
  });
});

describe('X media upload', () => {
  it('uploads a photo in chunks and a video that processes before it can be posted', async () => {
    const t = await xTokens(app);
    const jpeg = fakeJpeg(1200, 675, 30_000);
    const init = (
      await app.inject({
        method: 'POST',
        url: `${API}/media/upload/initialize`,
        headers: auth(t.access_token),
        payload: {
          media_type: 'image/jpeg',
          total_bytes: jpeg.length,
          media_category: 'tweet_image',
        },
      })
    ).json().data;
    expect(init.media_key).toBe(`3_${init.id}`);
    const boundary = 'B0undary';
    const part = (idx: number, chunk: Buffer) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="segment_index"\r\n\r\n${idx}\r\n--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        chunk,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const headers = {
      ...auth(t.access_token),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    };
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `${API}/media/upload/${init.id}/append`,
          headers,
          payload: part(0, jpeg.subarray(0, 10_000)),
        })
      ).statusCode,
    ).toBe(200);
    await app.inject({
      method: 'POST',
      url: `${API}/media/upload/${init.id}/append`,
      headers,
      payload: part(1, jpeg.subarray(10_000)),
    });
    const fin = (
      await app.inject({
        method: 'POST',
        url: `${API}/media/upload/${init.id}/finalize`,
        headers: auth(t.access_token),
      })
    ).json().data;
    expect(fin).toMatchObject({ id: init.id, size: jpeg.length });
    expect(fin.processing_info).toBeUndefined();

    const mp4 = fakeMp4(20);
    const v = (
      await app.inject({
        method: 'POST',
        url: `${API}/media/upload/initialize`,
        headers: auth(t.access_token),
        payload: {
          media_type: 'video/mp4',
          total_bytes: mp4.length,
          media_category: 'tweet_video',
        },
      })
    ).json().data;
    await app.inject({
      method: 'POST',
      url: `${API}/media/upload/${v.id}/append`,
      headers: auth(t.access_token),
      payload: { segment_index: 0, media: mp4.toString('base64') },
    });
    const vf = (
      await app.inject({
        method: 'POST',
        url: `${API}/media/upload/${v.id}/finalize`,
        headers: auth(t.access_token),
      })
    ).json().data;
    expect(vf.processing_info).toMatchObject({ state: 'pending', check_after_secs: 1 });
    const early = await app.inject({
      method: 'POST',
      url: `${API}/tweets`,
      headers: auth(t.access_token),
      payload: { text: '動画', media: { media_ids: [v.id] } },
    });
    expect(early.statusCode).toBe(400);
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 3 },
    });
    const st = (
      await app.inject({
        url: `${API}/media/upload?command=STATUS&media_id=${v.id}`,
        headers: auth(t.access_token),
      })
    ).json().data;
    expect(st.processing_info.state).toBe('succeeded');
    const mixed = await app.inject({
      method: 'POST',
      url: `${API}/tweets`,
      headers: auth(t.access_token),
      payload: { text: '混在', media: { media_ids: [v.id, init.id] } },
    });
    expect(mixed.statusCode).toBe(400);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `${API}/tweets`,
          headers: auth(t.access_token),
          payload: { text: '動画', media: { media_ids: [v.id] } },
        })
      ).statusCode,
    ).toBe(201);
  });

  it('fails a video longer than 140 s during processing', async () => {
    const t = await xTokens(app);
    const mp4 = fakeMp4(200);
    const v = (
      await app.inject({
        method: 'POST',
        url: `${API}/media/upload/initialize`,
        headers: auth(t.access_token),
        payload: {
          media_type: 'video/mp4',
          total_bytes: mp4.length,
          media_category: 'tweet_video',
        },
      })
    ).json().data;
    await app.inject({
      method: 'POST',
      url: `${API}/media/upload/${v.id}/append`,
      headers: auth(t.access_token),
      payload: { segment_index: 0, media: mp4.toString('base64') },
    });
    await app.inject({
      method: 'POST',
      url: `${API}/media/upload/${v.id}/finalize`,
      headers: auth(t.access_token),
    });
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 3 },
    });
    const st = (
      await app.inject({
        url: `${API}/media/upload?media_id=${v.id}`,
        headers: auth(t.access_token),
      })
    ).json().data;
    expect(st.processing_info).toMatchObject({ state: 'failed', error: { name: 'InvalidMedia' } });
  });
});

describe('X data across a restart', () => {
  it('keeps posts and tokens across a restart', async () => {
    const t = await xTokens(app);
    const id = (
      await app.inject({
        method: 'POST',
        url: `${API}/tweets`,
        headers: auth(t.access_token),
        payload: { text: '残る' },
      })
    ).json().data.id;
    await app.close();
    ({ app } = await buildSandbox(dataDir));
    expect(
      (await app.inject({ url: `${API}/tweets/${id}`, headers: auth(t.access_token) })).json().data
        .text,
    ).toBe('残る');
  });
});

describe("X's 24-hour caps (ADR 0063)", () => {
  const FIX = path.join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'x-rate-limits');
  const names = Object.keys(
    JSON.parse(fs.readFileSync(path.join(FIX, 'headers-15min-and-24h.json'), 'utf8')) as object,
  );

  it('answers POST /2/tweets with the headers node-twitter-api-v2 reads, and a 429 once the user has spent the day', async () => {
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { x: { tweetsPer24hPerUser: 2 } },
    });
    const t = await xTokens(app);
    const post = (text: string) =>
      app.inject({
        method: 'POST',
        url: `${API}/tweets`,
        headers: auth(t.access_token),
        payload: { text },
      });
    const ok = await post('a');
    expect(ok.statusCode).toBe(201);
    for (const name of names) expect(ok.headers[name], name).toMatch(/^\d+$/);
    expect(ok.headers['x-user-limit-24hour-remaining']).toBe('1');
    expect((await post('b')).statusCode).toBe(201);
    const spent = JSON.parse(
      fs.readFileSync(path.join(FIX, '429-user-24h-spent.json'), 'utf8'),
    ) as {
      status: number;
      body: unknown;
    };
    const over = await post('c');
    expect(over.statusCode).toBe(spent.status);
    expect(over.json()).toEqual(spent.body);
    expect(over.headers['x-user-limit-24hour-remaining']).toBe('0');
    const reset = Number(over.headers['x-user-limit-24hour-reset']);
    // The day's reset, not the 15-minute window's.
    expect(reset * 1000 - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(Number(over.headers['x-rate-limit-reset']) * 1000 - Date.now()).toBeLessThan(
      16 * 60_000,
    );
  });
});
