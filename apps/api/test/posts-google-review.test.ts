import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ja, type PostView } from '@tenpo/domain';
import type { ChannelRegistry, Publishes } from '../src/channels/channel';
import { credentialHandle } from '../src/channels/channel';
import type { JobHandler } from '../src/jobs/engine';
import {
  jobOf,
  REVIEW_FIRST_WAIT_MS,
  REVIEW_GIVE_UP_MS,
  SETTLE_AFTER_MS,
  type TargetJob,
} from '../src/modules/posts/posts.jobs';
import { call, json, multipart, type TestApp } from './helpers';
import {
  CREATE,
  handRunContext,
  postsHelpers,
  publishHandler,
  RetryAsked,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * Google reviews a local post after taking it (LocalPost.state PROCESSING → LIVE or REJECTED;
 * ADR 0060). The sandbox rejects a post whose summary carries `sandbox:reject`. What Google
 * holds is read at the sandbox's own API (its localPosts list, with the shop's grant).
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let shop = 0;
/** The publish job, run by hand on a registry whose Google publish dies after the create. */
let publishDying: JobHandler<TargetJob>;
const { countOf, submit, drainUntil, stateOf, tokyoIn } = postsHelpers(() => w);

const ctx = () => handRunContext(t);

const GOOGLE = 'google_my_business' as const;

/** The shop's Google posts whose summary is `text`, with their state as Google gives it. */
const atGoogle = async (text: string) =>
  (
    await w.reader.registry
      .require(GOOGLE, 'listRecent')
      .listRecent(credentialHandle(shop, GOOGLE), { since: new Date(Date.now() - 3600_000) })
  ).filter((p) => p.text === text);

/** The post as /posts lists it (GET /api/posts, the list screen's answer). */
async function listed(postId: number): Promise<PostView> {
  const res = await call(t.app, {
    method: 'GET',
    url: `/api/posts?user_id=${shop}&limit=50&page=1`,
    token: w.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  const rows = json<{ data: { data: { data: PostView[] } } }>(res).data.data.data;
  const row = rows.find((p) => p.id === postId);
  expect(row, `post ${postId} on /posts`).toBeDefined();
  return row as PostView;
}

async function googlePost(text: string, due = 0) {
  const res = await submit({
    user_id: String(shop),
    content: text,
    shared_sns_type: GOOGLE,
    ...(due ? { publish_date: tokyoIn(due) } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<Created>(res).data.posts[0] as PostView;
}

/** A news post made and published at Google (its review over at once). */
async function liveNews(text: string): Promise<PostView> {
  const res = await call(t.app, {
    method: 'POST',
    url: '/api/posts/news',
    token: w.token,
    ...multipart({ user_id: String(shop), content: text }),
  });
  expect(res.statusCode, res.body).toBe(200);
  const post = json<Created>(res).data.posts[0] as PostView;
  await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'published');
  return post;
}

/** The news post edited on its edit screen (POST /posts/news/{id}). */
async function editNews(postId: number, text: string): Promise<void> {
  const edit = await call(t.app, {
    method: 'POST',
    url: `/api/posts/news/${postId}`,
    token: w.token,
    ...multipart({ user_id: String(shop), content: text }),
  });
  expect(edit.statusCode, edit.body).toBe(200);
}

/** PATCHes of a local post the sandbox took. */
const PATCH_POST = /\/localPosts\/[^/]+$/;

beforeAll(async () => {
  w = await startPostsWorld();
  ({ sb, t, shop } = w);
  // A registry whose Google publish makes the post, then the worker "dies" before it hears back.
  const real = w.reader.registry;
  const dying: ChannelRegistry = {
    ...real,
    get: (k) => real.get(k),
    having: (c) => real.having(c),
    require: ((k, c) => {
      const cap = real.require(k, c);
      if (k !== GOOGLE || c !== 'publish') return cap;
      const p = cap as Publishes;
      return {
        publish: async (h, d) => {
          await p.publish(h, d);
          throw new Error('worker died after the create');
        },
      } satisfies Publishes;
    }) as ChannelRegistry['require'],
  };
  publishDying = publishHandler(w, { registry: dying });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('PATCH', '/control/settings', { google: { postLiveAfterMs: 0 } });
  await sb.control('DELETE', '/control/calls');
});

describe('a Google post under review', () => {
  it('one Google rejects shows failed on /posts with the reason, retryable; one post at Google, REJECTED', async () => {
    const text = `新メニューのご案内 sandbox:reject ${Date.now()}`;
    const post = await googlePost(text);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'failed');
    const row = await listed(post.id);
    expect(row.state).toBe('failed');
    const target = row.targets[0];
    expect(target).toMatchObject({ publisher_key: GOOGLE, state: 'failed', retryable: true });
    expect(target?.errors).toEqual([ja.postPublishFailed('Google'), ja.postRejected('Google')]);
    expect(target?.url).toBeNull();
    // At Google: exactly one post, and Google holds it REJECTED.
    expect(await countOf('POST', CREATE[GOOGLE])).toBe(1);
    const there = await atGoogle(text);
    expect(there).toHaveLength(1);
    expect(there[0]?.review).toBe('rejected');
  });

  it('stays publishing (not published) while Google reviews, and is published once LIVE', async () => {
    await sb.control('PATCH', '/control/settings', { google: { postLiveAfterMs: 1500 } });
    const text = `本日のおすすめ ${Date.now()}`;
    const post = await googlePost(text);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'publishing');
    await t.app.queue.drain();
    expect((await listed(post.id)).targets[0]).toMatchObject({ state: 'publishing', url: null });
    expect((await atGoogle(text))[0]?.review).toBe('processing');
    // Google's review ends; the job's next read (after its back-off) finds the post LIVE.
    await new Promise((r) => setTimeout(r, 1600));
    t.clock.advance(REVIEW_FIRST_WAIT_MS + 1000);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'published');
    const target = (await listed(post.id)).targets[0];
    expect(target?.url).toContain('local.google.com');
    expect(await countOf('POST', CREATE[GOOGLE])).toBe(1);
    expect(await atGoogle(text)).toHaveLength(1);
  });

  it('a worker that dies between the create and reading the state: settled, not sent twice, ends failed', async () => {
    const text = `限定セール sandbox:reject ${Date.now()}`;
    const post = await googlePost(text, 5 * 60_000);
    const row = await t.database.db
      .selectFrom('post_targets')
      .selectAll()
      .where('post_id', '=', post.id)
      .executeTakeFirstOrThrow();
    const job = jobOf(row);
    await expect(publishDying(job, ctx())).rejects.toThrow('worker died');
    expect((await stateOf(post.id))[GOOGLE]).toBe('publishing');
    // The engine runs the job again; its send is settled with Google's posts first.
    t.clock.advance(SETTLE_AFTER_MS + 1000);
    await publishDying(job, ctx()).catch((e: unknown) => {
      if (!(e instanceof RetryAsked)) throw e;
    });
    expect((await stateOf(post.id))[GOOGLE]).toBe('failed');
    expect((await listed(post.id)).targets[0]?.errors).toContain(ja.postRejected('Google'));
    expect(await countOf('POST', CREATE[GOOGLE])).toBe(1);
    const there = await atGoogle(text);
    expect(there).toHaveLength(1);
    expect(there[0]?.review).toBe('rejected');
  });
  it('a rejected news post, edited, then retried from /posts: a new post goes LIVE; the rejected one stays aside', async () => {
    const stamp = Date.now();
    const text = `秋の味覚 sandbox:reject ${stamp}`;
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/posts/news',
      token: w.token,
      ...multipart({ user_id: String(shop), content: text }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'failed');
    const edited = `秋の味覚フェア ${stamp}`;
    const edit = await call(t.app, {
      method: 'POST',
      url: `/api/posts/news/${post.id}`,
      token: w.token,
      ...multipart({ user_id: String(shop), content: edited }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const target = (await listed(post.id)).targets[0] as PostView['targets'][number];
    expect(target.retryable).toBe(true);
    const retry = await call(t.app, {
      method: 'POST',
      url: `/api/posts/${post.id}/targets/${target.id}/retry`,
      token: w.token,
    });
    expect(retry.statusCode, retry.body).toBe(200);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'published');
    expect((await listed(post.id)).targets[0]?.errors).toEqual([]);
    expect(await countOf('POST', CREATE[GOOGLE])).toBe(2);
    expect((await atGoogle(text)).map((p) => p.review)).toEqual(['rejected']);
    expect((await atGoogle(edited)).map((p) => p.review)).toEqual(['live']);
  });
  it('a review past 24 h fails the target; a retry reads the review again and never posts twice', async () => {
    await sb.control('PATCH', '/control/settings', { google: { postLiveAfterMs: 48 * 3600_000 } });
    const text = `年末のご挨拶 ${Date.now()}`;
    const post = await googlePost(text);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'publishing');
    t.clock.advance(REVIEW_GIVE_UP_MS + 60_000);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'failed');
    const target = (await listed(post.id)).targets[0] as PostView['targets'][number];
    expect(target.errors).toEqual([
      ja.postPublishFailed('Google'),
      ja.postReviewTimedOut('Google'),
    ]);
    expect(target.retryable).toBe(true);
    const retry = await call(t.app, {
      method: 'POST',
      url: `/api/posts/${post.id}/targets/${target.id}/retry`,
      token: w.token,
    });
    expect(retry.statusCode, retry.body).toBe(200);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'publishing');
    await t.app.queue.drain();
    expect((await stateOf(post.id))[GOOGLE]).toBe('publishing');
    expect(await countOf('POST', CREATE[GOOGLE])).toBe(1);
    expect(await atGoogle(text)).toHaveLength(1);
  });
});

describe('an edit of a live Google post, reviewed again by Google', () => {
  it('an edit Google rejects fails the target with the reason; never a second post; fixed and retried, the same post goes LIVE', async () => {
    const stamp = Date.now();
    const text = `週末限定メニュー ${stamp}`;
    const post = await liveNews(text);
    await sb.control('DELETE', '/control/calls');
    const bad = `週末限定メニュー sandbox:reject ${stamp}`;
    await editNews(post.id, bad);
    // Under Google's review of the edit: 投稿中, not 公開済み.
    expect((await listed(post.id)).targets[0]?.state).toBe('publishing');
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'failed');
    const target = (await listed(post.id)).targets[0] as PostView['targets'][number];
    expect(target).toMatchObject({ state: 'failed', retryable: true });
    expect(target.errors).toEqual([ja.postPublishFailed('Google'), ja.postRejected('Google')]);
    // At Google: the one post, edited, REJECTED; nothing created for the edit.
    expect(await countOf('POST', CREATE[GOOGLE])).toBe(0);
    expect(await countOf('PATCH', PATCH_POST)).toBe(1);
    expect((await atGoogle(bad)).map((p) => p.review)).toEqual(['rejected']);
    expect(await atGoogle(text)).toHaveLength(0);
    // Edited again (the row only: the target failed), then 再送信: the same post is PATCHed.
    const fixed = `週末限定メニューのご案内 ${stamp}`;
    await editNews(post.id, fixed);
    expect(await countOf('PATCH', PATCH_POST)).toBe(1);
    const retry = await call(t.app, {
      method: 'POST',
      url: `/api/posts/${post.id}/targets/${target.id}/retry`,
      token: w.token,
    });
    expect(retry.statusCode, retry.body).toBe(200);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'published');
    expect((await listed(post.id)).targets[0]?.errors).toEqual([]);
    expect(await countOf('POST', CREATE[GOOGLE])).toBe(0);
    expect(await countOf('PATCH', PATCH_POST)).toBe(2);
    expect((await atGoogle(fixed)).map((p) => p.review)).toEqual(['live']);
    expect(await atGoogle(bad)).toHaveLength(0);
  });

  it('an edit under review shows publishing, and published again once Google has it LIVE', async () => {
    const stamp = Date.now();
    const post = await liveNews(`冬の新作 ${stamp}`);
    const before = await t.database.db
      .selectFrom('post_targets')
      .select('published_at')
      .where('post_id', '=', post.id)
      .executeTakeFirstOrThrow();
    await sb.control('DELETE', '/control/calls');
    await sb.control('PATCH', '/control/settings', { google: { postLiveAfterMs: 1500 } });
    const edited = `冬の新作のご案内 ${stamp}`;
    await editNews(post.id, edited);
    await t.app.queue.drain();
    expect((await listed(post.id)).targets[0]?.state).toBe('publishing');
    expect((await atGoogle(edited)).map((p) => p.review)).toEqual(['processing']);
    await new Promise((r) => setTimeout(r, 1600));
    t.clock.advance(REVIEW_FIRST_WAIT_MS + 1000);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'published');
    const target = (await listed(post.id)).targets[0];
    expect(target?.errors).toEqual([]);
    expect(target?.url).toContain('local.google.com');
    const after = await t.database.db
      .selectFrom('post_targets')
      .select('published_at')
      .where('post_id', '=', post.id)
      .executeTakeFirstOrThrow();
    expect(after.published_at).toBe(before.published_at);
    expect(await countOf('POST', CREATE[GOOGLE])).toBe(0);
    expect(await countOf('PATCH', PATCH_POST)).toBe(1);
    expect((await atGoogle(edited)).map((p) => p.review)).toEqual(['live']);
  });
  it('a post whose edit Google rejected, deleted on Tenpo, is deleted at Google too', async () => {
    const stamp = Date.now();
    const post = await liveNews(`閉店のお知らせ ${stamp}`);
    const bad = `閉店のお知らせ sandbox:reject ${stamp}`;
    await editNews(post.id, bad);
    await drainUntil(async () => (await stateOf(post.id))[GOOGLE] === 'failed');
    expect((await atGoogle(bad)).map((p) => p.review)).toEqual(['rejected']);
    const del = await call(t.app, {
      method: 'DELETE',
      url: `/api/posts/news/${post.id}?user_id=${shop}`,
      token: w.token,
    });
    expect(del.statusCode, del.body).toBe(200);
    expect((await stateOf(post.id))[GOOGLE]).toBe('removed');
    expect(await atGoogle(bad)).toHaveLength(0);
  });
});
