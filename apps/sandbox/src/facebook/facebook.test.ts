import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sandboxDemoGrants } from '../index';
import {
  buildSandbox,
  CLIENT,
  facebookUserToken,
  FORM,
  form,
  pageToken,
  REDIRECT,
  redirectQuery,
} from '../shared/testing';

const G = '/sandbox/facebook/graph/v25.0';
const SHIBUYA_PAGE = '104857392017465';
const BAKERY_PAGE = '104857392017467';

let app: FastifyInstance;
let dataDir: string;
beforeEach(async () => {
  ({ app, dataDir } = await buildSandbox());
});
afterEach(async () => {
  await app.close();
});

describe('Facebook Login', () => {
  it("shows the dialog with the user's pages and redirects with the denial set", async () => {
    const q = form({
      client_id: CLIENT.id,
      redirect_uri: REDIRECT,
      state: 'abc',
      scope: 'pages_show_list,pages_manage_posts',
      response_type: 'code',
    });
    const pageRes = await app.inject({ url: `/sandbox/facebook/www/v25.0/dialog/oauth?${q}` });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain('カフェ テンポ 渋谷店');
    expect(pageRes.body).toContain('Instagram');
    const deny = await app.inject({
      method: 'POST',
      url: '/sandbox/facebook/www/v25.0/dialog/oauth',
      headers: FORM,
      payload: `${q}&decision=deny`,
    });
    const r = redirectQuery(deny.headers.location as string);
    expect(Object.fromEntries(r)).toEqual({
      error: 'access_denied',
      error_code: '200',
      error_description: 'Permissions error',
      error_reason: 'user_denied',
      state: 'abc',
    });
  });

  it('exchanges a code once and a short token for a long-lived one', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/sandbox/facebook/www/dialog/oauth',
      headers: FORM,
      payload: form({
        client_id: CLIENT.id,
        redirect_uri: REDIRECT,
        state: 's',
        scope: 'pages_show_list',
        user_id: '122104567890123456',
        decision: 'allow',
        granted: 'pages_show_list',
        page_ids: SHIBUYA_PAGE,
      }),
    });
    const code = redirectQuery(res.headers.location as string).get('code') as string;
    const url = `${G}/oauth/access_token?${form({ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uri: REDIRECT, code })}`;
    const short = await app.inject({ url });
    expect(short.json()).toMatchObject({ token_type: 'bearer', expires_in: 7200 });
    const reused = await app.inject({ url });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toMatchObject({
      code: 100,
      error_subcode: 36009,
      type: 'OAuthException',
    });
    expect(reused.json().error.fbtrace_id).toBeTruthy();
    const long = await app.inject({
      url: `${G}/oauth/access_token?${form({ grant_type: 'fb_exchange_token', client_id: CLIENT.id, client_secret: CLIENT.secret, fb_exchange_token: short.json().access_token })}`,
    });
    expect(long.json().expires_in).toBe(5183944);
    const badSecret = await app.inject({
      url: `${G}/oauth/access_token?${form({ client_id: CLIENT.id, client_secret: 'x', redirect_uri: REDIRECT, code })}`,
    });
    expect(badSecret.json().error.message).toBe('Error validating client secret.');
  });

  it('lists granted pages with page tokens and linked Instagram accounts', async () => {
    const user = await facebookUserToken(app);
    const res = await app.inject({
      url: `${G}/me/accounts?fields=id,name,access_token,category,tasks,instagram_business_account&access_token=${user}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-app-usage']).toBeDefined();
    const data = res.json().data as {
      id: string;
      access_token: string;
      instagram_business_account?: { id: string };
    }[];
    expect(data).toHaveLength(4);
    expect(data.filter((p) => p.instagram_business_account)).toHaveLength(2);
    expect(data[0]?.access_token).toBeTruthy();
    const paged = (
      await app.inject({ url: `${G}/me/accounts?limit=3&access_token=${user}` })
    ).json();
    expect(paged.data).toHaveLength(3);
    expect(paged.paging.next).toContain('after=');
    const rest = (
      await app.inject({
        url: `${G}/me/accounts?limit=3&after=${paged.paging.cursors.after}&access_token=${user}`,
      })
    ).json();
    expect(rest.data).toHaveLength(1);
  });

  it('answers code 190 / 463 for an expired token', async () => {
    const user = await facebookUserToken(app, { long: false });
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 7201 },
    });
    const res = await app.inject({ url: `${G}/me/accounts?access_token=${user}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 190,
      error_subcode: 463,
      type: 'OAuthException',
    });
    expect(res.json().error.message).toContain('Session has expired');
    const garbage = await app.inject({ url: `${G}/me?access_token=nope` });
    expect(garbage.json().error.code).toBe(190);
  });
});

describe('Page publishing', () => {
  it('posts to the feed with a page token, reads and deletes the post', async () => {
    const page = await pageToken(app, await facebookUserToken(app), SHIBUYA_PAGE);
    const res = await app.inject({
      method: 'POST',
      url: `${G}/${SHIBUYA_PAGE}/feed`,
      headers: FORM,
      payload: form({ message: '本日のおすすめ: 季節のタルト', access_token: page }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-business-use-case-usage']).toContain('"type":"pages"');
    const id = res.json().id as string;
    expect(id).toMatch(new RegExp(`^${SHIBUYA_PAGE}_\\d+$`));
    const read = (
      await app.inject({ url: `${G}/${id}?fields=message,permalink_url&access_token=${page}` })
    ).json();
    expect(read.message).toBe('本日のおすすめ: 季節のタルト');
    const dup = await app.inject({
      method: 'POST',
      url: `${G}/${SHIBUYA_PAGE}/feed`,
      headers: FORM,
      payload: form({ message: '本日のおすすめ: 季節のタルト', access_token: page }),
    });
    expect(dup.json().error.code).toBe(506);
    expect(
      (await app.inject({ method: 'DELETE', url: `${G}/${id}?access_token=${page}` })).json(),
    ).toEqual({ success: true });
    const gone = await app.inject({ url: `${G}/${id}?access_token=${page}` });
    expect(gone.json().error).toMatchObject({
      code: 100,
      error_subcode: 33,
      type: 'GraphMethodException',
    });
  });

  it('refuses to publish with a user token (code 200) and checks schedules (code 100)', async () => {
    const user = await facebookUserToken(app);
    const asUser = await app.inject({
      method: 'POST',
      url: `${G}/${SHIBUYA_PAGE}/feed`,
      headers: FORM,
      payload: form({ message: 'x', access_token: user }),
    });
    expect(asUser.json().error.code).toBe(200);
    const page = await pageToken(app, user, SHIBUYA_PAGE);
    const tooSoon = await app.inject({
      method: 'POST',
      url: `${G}/${SHIBUYA_PAGE}/feed`,
      headers: FORM,
      payload: form({
        message: 'later',
        published: 'false',
        scheduled_publish_time: String(Math.floor(Date.now() / 1000) + 60),
        access_token: page,
      }),
    });
    expect(tooSoon.json().error.code).toBe(100);
    const ok = await app.inject({
      method: 'POST',
      url: `${G}/${SHIBUYA_PAGE}/feed`,
      headers: FORM,
      payload: form({
        message: 'later',
        published: 'false',
        scheduled_publish_time: String(Math.floor(Date.now() / 1000) + 3600),
        access_token: page,
      }),
    });
    expect(ok.statusCode).toBe(200);
    expect(
      (
        await app.inject({ url: `${G}/${SHIBUYA_PAGE}/scheduled_posts?access_token=${page}` })
      ).json().data,
    ).toHaveLength(1);
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 3700 },
    });
    expect(
      (
        await app.inject({ url: `${G}/${SHIBUYA_PAGE}/published_posts?access_token=${page}` })
      ).json().data,
    ).toHaveLength(1);
  });

  it('uploads a photo by multipart, attaches unpublished photos to a feed post, and starts a video', async () => {
    const page = await pageToken(app, await facebookUserToken(app), BAKERY_PAGE);
    const { fakeJpeg, fakeMp4 } = await import('../shared/testing');
    const boundary = 'XyZ';
    const multipart = (fields: Record<string, string>, file: Buffer, name: string, type: string) =>
      Buffer.concat([
        ...Object.entries(fields).map(([k, v]) =>
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
          ),
        ),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="source"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const published = await app.inject({
      method: 'POST',
      url: `${G}/${BAKERY_PAGE}/photos`,
      headers,
      payload: multipart(
        { access_token: page, message: '焼きたて' },
        fakeJpeg(1200, 900),
        'a.jpg',
        'image/jpeg',
      ),
    });
    expect(published.json()).toMatchObject({
      id: expect.any(String),
      post_id: expect.stringMatching(new RegExp(`^${BAKERY_PAGE}_`)),
    });
    const a = (
      await app.inject({
        method: 'POST',
        url: `${G}/${BAKERY_PAGE}/photos`,
        headers,
        payload: multipart(
          { access_token: page, published: 'false' },
          fakeJpeg(800, 800),
          'b.jpg',
          'image/jpeg',
        ),
      })
    ).json();
    expect(a.post_id).toBeUndefined();
    const post = await app.inject({
      method: 'POST',
      url: `${G}/${BAKERY_PAGE}/feed`,
      headers: FORM,
      payload: form({
        access_token: page,
        message: '2枚の写真',
        'attached_media[0]': JSON.stringify({ media_fbid: a.id }),
      }),
    });
    expect(post.statusCode).toBe(200);
    const notImage = await app.inject({
      method: 'POST',
      url: `${G}/${BAKERY_PAGE}/photos`,
      headers,
      payload: multipart({ access_token: page }, Buffer.from('hello'), 'a.txt', 'text/plain'),
    });
    expect(notImage.json().error.code).toBe(324);
    const video = await app.inject({
      method: 'POST',
      url: `${G}/${BAKERY_PAGE}/videos`,
      headers,
      payload: multipart(
        { access_token: page, description: '動画' },
        fakeMp4(12),
        'v.mp4',
        'video/mp4',
      ),
    });
    const vid = video.json().id as string;
    expect(
      (await app.inject({ url: `${G}/${vid}?fields=status&access_token=${page}` })).json().status
        .video_status,
    ).toBe('processing');
  });
});

describe('Instagram publishing', () => {
  const IG = '17841400000000101';
  const setup = async () => {
    const user = await facebookUserToken(app);
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { fetchMedia: false },
    });
    return user;
  };

  it('creates a container, reports its status, publishes it and counts the quota', async () => {
    const user = await setup();
    const created = await app.inject({
      method: 'POST',
      url: `${G}/${IG}/media`,
      headers: FORM,
      payload: form({
        image_url: 'https://cdn.tenpo.test/p.jpg',
        caption: '新作 #cafe',
        access_token: user,
      }),
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as string;
    const status = (
      await app.inject({ url: `${G}/${id}?fields=status_code,status&access_token=${user}` })
    ).json();
    expect(status).toMatchObject({ id, status_code: 'FINISHED' });
    const pub = await app.inject({
      method: 'POST',
      url: `${G}/${IG}/media_publish?creation_id=${id}&access_token=${user}`,
    });
    expect(pub.statusCode).toBe(200);
    expect(
      (await app.inject({ url: `${G}/${id}?fields=status_code&access_token=${user}` })).json()
        .status_code,
    ).toBe('PUBLISHED');
    const limit = (
      await app.inject({
        url: `${G}/${IG}/content_publishing_limit?fields=quota_usage,config&access_token=${user}`,
      })
    ).json();
    expect(limit).toEqual({
      data: [{ quota_usage: 1, config: { quota_total: 25, quota_duration: 86400 } }],
    });
  });

  it('refuses to publish a video still IN_PROGRESS, then publishes it when FINISHED', async () => {
    const user = await setup();
    const id = (
      await app.inject({
        method: 'POST',
        url: `${G}/${IG}/media`,
        headers: FORM,
        payload: form({
          media_type: 'REELS',
          video_url: 'https://cdn.tenpo.test/v.mp4',
          access_token: user,
        }),
      })
    ).json().id;
    expect(
      (await app.inject({ url: `${G}/${id}?fields=status_code&access_token=${user}` })).json()
        .status_code,
    ).toBe('IN_PROGRESS');
    const early = await app.inject({
      method: 'POST',
      url: `${G}/${IG}/media_publish?creation_id=${id}&access_token=${user}`,
    });
    expect(early.json().error).toMatchObject({ code: 9007, error_subcode: 2207027 });
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 5 },
    });
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `${G}/${IG}/media_publish?creation_id=${id}&access_token=${user}`,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('enforces the 24-hour publishing quota with code 9 / 2207042', async () => {
    const user = await setup();
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { instagram: { quotaTotal: 2 } },
    });
    const publish = async (n: number) => {
      const id = (
        await app.inject({
          method: 'POST',
          url: `${G}/${IG}/media`,
          headers: FORM,
          payload: form({ image_url: `https://cdn.tenpo.test/${n}.jpg`, access_token: user }),
        })
      ).json().id;
      return app.inject({
        method: 'POST',
        url: `${G}/${IG}/media_publish?creation_id=${id}&access_token=${user}`,
      });
    };
    expect((await publish(1)).statusCode).toBe(200);
    expect((await publish(2)).statusCode).toBe(200);
    const third = await publish(3);
    expect(third.statusCode).toBe(400);
    expect(third.json().error).toMatchObject({ code: 9, error_subcode: 2207042 });
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 86401 },
    });
    expect((await publish(4)).statusCode).toBe(200);
  });

  it('refuses non-JPEG and badly proportioned images from their bytes', async () => {
    const { imageProblem } = await import('../instagram/instagram.graph');
    expect(imageProblem({ format: 'png', bytes: 1000, width: 1000, height: 1000 })?.subcode).toBe(
      2207052,
    );
    expect(imageProblem({ format: 'jpeg', bytes: 1000, width: 1000, height: 2000 })?.subcode).toBe(
      2207009,
    );
    expect(
      imageProblem({ format: 'jpeg', bytes: 9 * 1024 * 1024, width: 1000, height: 1000 })?.code,
    ).toBe(36000);
    expect(
      imageProblem({ format: 'jpeg', bytes: 100_000, width: 1080, height: 1350 }),
    ).toBeUndefined();
  });

  it('answers an unreachable image URL with 9004 / 2207052 when fetching is on', async () => {
    const user = await facebookUserToken(app);
    const res = await app.inject({
      method: 'POST',
      url: `${G}/${IG}/media`,
      headers: FORM,
      payload: form({ image_url: 'http://127.0.0.1:9/x.jpg', access_token: user }),
    });
    expect(res.json().error).toMatchObject({ code: 9004, error_subcode: 2207052 });
  });

  it('needs instagram_content_publish, and the page linked to the account', async () => {
    const noPublish = await facebookUserToken(app, {
      scopes: ['pages_show_list', 'instagram_basic'],
    });
    const r = await app.inject({
      method: 'POST',
      url: `${G}/${IG}/media`,
      headers: FORM,
      payload: form({ image_url: 'https://cdn.tenpo.test/p.jpg', access_token: noPublish }),
    });
    expect(r.json().error.code).toBe(10);
    const otherPage = await facebookUserToken(app, { pages: [BAKERY_PAGE] });
    const r2 = await app.inject({ url: `${G}/${IG}?fields=username&access_token=${otherPage}` });
    expect(r2.json().error.code).toBe(100);
  });

  it('keeps containers and tokens across a restart', async () => {
    const user = await setup();
    const id = (
      await app.inject({
        method: 'POST',
        url: `${G}/${IG}/media`,
        headers: FORM,
        payload: form({ image_url: 'https://cdn.tenpo.test/p.jpg', access_token: user }),
      })
    ).json().id;
    await app.close();
    ({ app } = await buildSandbox(dataDir));
    expect(
      (await app.inject({ url: `${G}/${id}?fields=status_code&access_token=${user}` })).json()
        .status_code,
    ).toBe('FINISHED');
  });
});

describe('seeded demo grant', () => {
  const grant = sandboxDemoGrants.facebook[0];

  it("lists the shop's pages with the seeded page token, which reaches its Instagram account", async () => {
    expect(grant).toMatchObject({
      email: 'shop@tenpo.example',
      userId: '122104567890123456',
      page: { id: SHIBUYA_PAGE, name: 'カフェ テンポ 渋谷店' },
      instagram: { id: '17841400000000101', username: 'cafe_tenpo_shibuya' },
    });
    const user = grant?.userToken as string;
    const me = await app.inject({ url: `${G}/me?fields=id,name&access_token=${user}` });
    expect(me.json().id).toBe('122104567890123456');
    const pages = (
      await app.inject({
        url: `${G}/me/accounts?fields=id,name,access_token,instagram_business_account&access_token=${user}`,
      })
    ).json().data as {
      id: string;
      access_token: string;
      instagram_business_account?: { id: string };
    }[];
    expect(pages).toHaveLength(4);
    const shibuya = pages.find((p) => p.id === SHIBUYA_PAGE);
    expect(shibuya?.access_token).toBe(grant?.page.token);
    expect(shibuya?.instagram_business_account?.id).toBe('17841400000000101');
    const ig = await app.inject({
      url: `${G}/17841400000000101?fields=username&access_token=${grant?.page.token}`,
    });
    expect(ig.statusCode).toBe(200);
    expect(ig.json().username).toBe('cafe_tenpo_shibuya');
    const debug = await app.inject({
      url: `${G}/debug_token?input_token=${user}&access_token=${CLIENT.id}|${CLIENT.secret}`,
    });
    expect(debug.json().data).toMatchObject({ is_valid: true, type: 'USER', expires_at: 0 });
  });

  it('ends when the user de-authorizes the app, and comes back with a reset', async () => {
    const user = grant?.userToken as string;
    const off = await app.inject({
      method: 'DELETE',
      url: `${G}/me/permissions?access_token=${user}`,
    });
    expect(off.json()).toEqual({ success: true });
    expect((await app.inject({ url: `${G}/me?access_token=${user}` })).json().error.code).toBe(190);
    await app.close();
    ({ app } = await buildSandbox(dataDir));
    expect((await app.inject({ url: `${G}/me?access_token=${user}` })).json().error.code).toBe(190);
    await app.inject({ method: 'POST', url: '/sandbox/control/reset', payload: {} });
    expect((await app.inject({ url: `${G}/me?access_token=${user}` })).statusCode).toBe(200);
  });
});

/** Recorded Graph error answers (fixtures/meta-graph-errors; Tenpo's client test reads them too). */
const graphFixture = (name: string) =>
  JSON.parse(
    fs.readFileSync(
      path.join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'meta-graph-errors', name),
      'utf8',
    ),
  ) as { error: Record<string, unknown> };

describe('Facebook as Meta documents it (ADR 0063)', () => {
  const exchange = (token: string) =>
    app.inject({
      url: `${G}/oauth/access_token?${form({ grant_type: 'fb_exchange_token', client_id: CLIENT.id, client_secret: CLIENT.secret, fb_exchange_token: token })}`,
    });
  const expiryOf = async (token: string) =>
    (
      await app.inject({
        url: `${G}/debug_token?${form({ input_token: token, access_token: `${CLIENT.id}|${CLIENT.secret}` })}`,
      })
    ).json().data.expires_at as number;

  it('a long-lived token exchanged again keeps its expiry; its page token never expires', async () => {
    const long = await facebookUserToken(app);
    const first = await expiryOf(long);
    expect(first).toBeGreaterThan(0);
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { clockOffsetMs: 10 * 86_400_000 },
    });
    const again = await exchange(long);
    expect(again.statusCode).toBe(200);
    expect(await expiryOf(again.json().access_token)).toBe(first);
    expect(again.json().expires_in).toBeLessThanOrEqual(5183944 - 10 * 86400 + 1);
    expect(await expiryOf(await pageToken(app, long, SHIBUYA_PAGE))).toBe(0);
    // Behind the setting, the old behaviour: a fresh 60 days.
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { facebook: { reexchangeKeepsExpiry: false } },
    });
    expect(await expiryOf((await exchange(long)).json().access_token)).toBeGreaterThan(first);
  });

  it('a page video needs pages_manage_posts only, and names its feed post', async () => {
    const scopes = ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts'];
    const page = await pageToken(app, await facebookUserToken(app, { scopes }), SHIBUYA_PAGE);
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { fetchMedia: false },
    });
    const res = await app.inject({
      method: 'POST',
      url: `${G}/${SHIBUYA_PAGE}/videos`,
      headers: FORM,
      payload: form({
        file_url: 'https://media.tenpo.example/shop.mp4',
        description: '動画',
        access_token: page,
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const video = (
      await app.inject({
        url: `${G}/${res.json().id}?fields=post_id,permalink_url&access_token=${page}`,
      })
    ).json();
    expect(video.post_id).toMatch(new RegExp(`^${SHIBUYA_PAGE}_\\d+$`));
  });

  it('a DELETE of a post that is gone answers as recorded (100/33, GraphMethodException)', async () => {
    const page = await pageToken(app, await facebookUserToken(app), SHIBUYA_PAGE);
    const id = (
      await app.inject({
        method: 'POST',
        url: `${G}/${SHIBUYA_PAGE}/feed`,
        headers: FORM,
        payload: form({ message: '二度消す', access_token: page }),
      })
    ).json().id as string;
    await app.inject({ method: 'DELETE', url: `${G}/${id}?access_token=${page}` });
    const again = await app.inject({ method: 'DELETE', url: `${G}/${id}?access_token=${page}` });
    const recorded = graphFixture('delete-gone-100-33.json').error;
    expect(again.json().error).toMatchObject({
      code: recorded.code,
      error_subcode: recorded.error_subcode,
      type: recorded.type,
    });
    expect(again.json().error.message).toMatch(/^Unsupported delete request\. Object with ID '/);
  });
});
