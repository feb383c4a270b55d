import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postApprovalJa, type PostApprovalItemView, type PostView } from '@tenpo/domain';
import { call, json, login, type TestApp } from './helpers';
import {
  CREATE,
  postsHelpers,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * Approval of posts (issue 25 item 6, ADR 0095), against the emulators: the demo shop is made a
 * store of the demo agency, whose rule holds its stores' posts. What went out is counted on the
 * providers' side (the sandbox's call log and its own post lists), never only in Tenpo's tables.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let shopToken = '';
let agencyToken = '';
let shop = 0;
let agency = 0;
const { countOf, submit, drainUntil, atProvider, tokyoIn } = postsHelpers(() => w);

const CHANNELS = 'google_my_business,facebook';
const creates = async () =>
  (await countOf('POST', CREATE.google_my_business)) + (await countOf('POST', CREATE.facebook));

type Answer<T> = { message?: string; code?: string; data: T };
const setRule = (rules: object, token = agencyToken) =>
  call(t.app, {
    method: 'PUT',
    url: '/api/reviews/approval-settings',
    token,
    payload: { user_id: agency, ...rules },
  });
const settings = async (token = shopToken) =>
  json<{ data: { replies_need_approval: boolean; posts_need_approval: boolean } }>(
    await call(t.app, {
      method: 'GET',
      url: `/api/reviews/approval-settings?user_id=${shop}`,
      token,
    }),
  ).data;
const queue = async (token: string, state = 'open') =>
  json<Answer<{ data: { data: PostApprovalItemView[]; total: number } }>>(
    await call(t.app, {
      method: 'GET',
      url: `/api/posts/approvals?user_id=${shop}&state=${state}`,
      token,
    }),
  ).data.data;
const decide = (id: number, what: 'approve' | 'reject', token = shopToken, extra: object = {}) =>
  call(t.app, {
    method: 'POST',
    url: `/api/posts/approvals/${id}/${what}`,
    token,
    payload: { user_id: shop, ...extra },
  });

/** The agency posts for its store; the answer's post (held, with its request). */
async function agencyPosts(text: string, fields: Record<string, string> = {}): Promise<PostView> {
  const res = await submit(
    { user_id: String(shop), content: text, shared_sns_type: CHANNELS, ...fields },
    {},
    agencyToken,
  );
  expect(res.statusCode, res.body).toBe(200);
  const body = json<Created & { message: string }>(res);
  expect(body.message).toBe(postApprovalJa.created(1, 1));
  return body.data.posts[0] as PostView;
}

const mailsTo = async (to: string, subject: RegExp) => {
  await t.app.queue.drain();
  return (await t.mailbox.list({ to })).filter((m) => subject.test(m.subject));
};

beforeAll(async () => {
  w = await startPostsWorld({ channelTimeoutMs: 1500 });
  ({ sb, t, shop } = w);
  shopToken = w.token;
  agency = (
    await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'agency@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
  await t.database.db
    .updateTable('users')
    .set({ agency_id: agency })
    .where('id', '=', shop)
    .execute();
  agencyToken = await login(t.app, 'agency@tenpo.example');
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  expect((await setRule({ posts_need_approval: true })).statusCode).toBe(200);
});

describe("an agency's rule for posts", () => {
  it('is its own: setting it keeps the replies rule; the store reads it and cannot change it', async () => {
    expect(
      (await setRule({ replies_need_approval: true, posts_need_approval: false })).statusCode,
    ).toBe(200);
    expect(await settings()).toMatchObject({
      replies_need_approval: true,
      posts_need_approval: false,
    });
    expect((await setRule({ posts_need_approval: true })).statusCode).toBe(200);
    expect(await settings()).toMatchObject({
      replies_need_approval: true,
      posts_need_approval: true,
    });
    expect((await setRule({ posts_need_approval: false }, shopToken)).statusCode).toBe(404);
    await setRule({ replies_need_approval: false });
  });

  it('off: a post is scheduled and sent as before', async () => {
    await setRule({ posts_need_approval: false });
    await sb.control('DELETE', '/control/calls');
    const res = await submit(
      { user_id: String(shop), content: '承認不要の投稿です', shared_sns_type: CHANNELS },
      {},
      agencyToken,
    );
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    expect(post.approval).toBeNull();
    await drainUntil(async () => (await creates()) === 2);
  });
});

describe('a held post', () => {
  it('waits, sends nothing, and asks the store (not its author) by notice and mail', async () => {
    await sb.control('DELETE', '/control/calls');
    const text = '承認待ちの投稿です。週末限定のランチをご用意しました。';
    const post = await agencyPosts(text);
    expect(post.state).toBe('awaiting_approval');
    expect(post.targets.map((x) => x.state)).toEqual(['awaiting_approval', 'awaiting_approval']);
    expect(post.approval).toMatchObject({ state: 'pending', author_email: 'agency@tenpo.example' });
    await t.app.queue.drain();
    expect(await creates()).toBe(0);
    expect(await atProvider('google_my_business', text)).toHaveLength(0);
    expect(await mailsTo('shop@tenpo.example', /投稿の承認依頼/)).toHaveLength(1);
    expect(await mailsTo('agency@tenpo.example', /投稿の承認依頼/)).toHaveLength(0);
    const mine = await queue(shopToken);
    const item = mine.data.find((x) => x.post_id === post.id);
    expect(item).toMatchObject({ can_decide: true, can_withdraw: false, content: text });
    const theirs = (await queue(agencyToken)).data.find((x) => x.post_id === post.id);
    expect(theirs).toMatchObject({ can_decide: false, can_withdraw: true });
    // Its author cannot approve it.
    const own = await decide(item?.id ?? 0, 'approve', agencyToken);
    expect(own.statusCode).toBe(409);
    expect(json<Answer<null>>(own).message).toBe(postApprovalJa.ownRequest);
  });

  it('approved by three tabs at once goes to each channel once, on its date', async () => {
    await sb.control('DELETE', '/control/calls');
    const text = '承認された投稿です。秋の新メニューが始まりました。';
    const post = await agencyPosts(text, { publish_date: tokyoIn(60_000) });
    const id = post.approval?.id ?? 0;
    const answers = await Promise.all([1, 2, 3].map(() => decide(id, 'approve')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const won = answers.find((a) => a.statusCode === 200);
    expect(json<Answer<PostView>>(won!).message).toBe(postApprovalJa.approved);
    expect(json<Answer<PostView>>(won!).data.state).toBe('scheduled');
    // Not before its date.
    await t.app.queue.drain();
    expect(await creates()).toBe(0);
    t.clock.advance(61_000);
    await drainUntil(async () => (await creates()) >= 2);
    await t.app.queue.drain();
    expect(await creates()).toBe(2);
    expect(await atProvider('google_my_business', text)).toHaveLength(1);
    expect(await atProvider('facebook', text)).toHaveLength(1);
    expect(await mailsTo('agency@tenpo.example', /投稿が承認されました/)).toHaveLength(1);
  });

  it('approved after its date passed goes out at once, and says so', async () => {
    await sb.control('DELETE', '/control/calls');
    const post = await agencyPosts('日付を過ぎてから承認された投稿です。');
    t.clock.advance(3600_000);
    const res = await decide(post.approval?.id ?? 0, 'approve');
    expect(res.statusCode, res.body).toBe(200);
    expect(json<Answer<PostView>>(res).message).toBe(postApprovalJa.approvedNow);
    await drainUntil(async () => (await creates()) === 2);
  });

  it('sent back with a note is never sent; its author is told why; it cannot be approved then', async () => {
    await sb.control('DELETE', '/control/calls');
    const post = await agencyPosts('差し戻される投稿です。');
    const id = post.approval?.id ?? 0;
    const res = await decide(id, 'reject', shopToken, { note: '価格の表記を確認してください' });
    expect(res.statusCode, res.body).toBe(200);
    const view = json<Answer<PostView>>(res).data;
    expect(view.state).toBe('not_approved');
    expect(view.approval).toMatchObject({
      state: 'rejected',
      note: '価格の表記を確認してください',
    });
    expect((await decide(id, 'approve')).statusCode).toBe(409);
    await t.app.queue.drain();
    expect(await creates()).toBe(0);
    const mails = await mailsTo('agency@tenpo.example', /投稿が差し戻されました/);
    expect(mails.at(-1)?.text).toContain('価格の表記を確認してください');
  });

  it('withdrawn by its author only; a deleted held post leaves no request', async () => {
    const post = await agencyPosts('取り下げる投稿です。');
    const id = post.approval?.id ?? 0;
    const url = `/api/posts/approvals/${id}?user_id=${shop}`;
    expect((await call(t.app, { method: 'DELETE', url, token: shopToken })).statusCode).toBe(403);
    const res = await call(t.app, { method: 'DELETE', url, token: agencyToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<Answer<PostView>>(res).data.approval?.state).toBe('withdrawn');
    expect((await queue(shopToken)).data.some((x) => x.id === id)).toBe(false);
  });

  it('expires when nobody decides in a week, or at its removal date: never sent, its author told', async () => {
    await sb.control('DELETE', '/control/calls');
    const week = await agencyPosts('一週間承認されない投稿です。', {
      publish_date: tokyoIn(3 * 86_400_000),
    });
    const soon = await agencyPosts('削除日時までに承認されない投稿です。', {
      publish_date: tokyoIn(3600_000),
      delete_date: tokyoIn(2 * 3600_000),
    });
    t.clock.advance(3 * 3600_000);
    // Past its removal date: it cannot be approved.
    const late = await decide(soon.approval?.id ?? 0, 'approve');
    expect(late.statusCode).toBe(422);
    expect(json<Answer<null>>(late).message).toBe(postApprovalJa.pastDeleteDate);
    expect((await t.app.postApprovals.sweep()).expired).toBe(1);
    t.clock.advance(7 * 86_400_000);
    expect((await t.app.postApprovals.sweep()).expired).toBeGreaterThanOrEqual(1);
    // A week on, the sessions have lapsed: sign in again.
    shopToken = await login(t.app, 'shop@tenpo.example');
    agencyToken = await login(t.app, 'agency@tenpo.example');
    for (const p of [week, soon]) {
      const res = await call(t.app, {
        method: 'GET',
        url: `/api/posts/${p.id}?user_id=${shop}`,
        token: shopToken,
      });
      expect(res.statusCode, res.body).toBe(200);
      const view = json<{ data: PostView[] }>(res).data[0];
      expect(view?.state).toBe('not_approved');
      expect(view?.approval?.state).toBe('expired');
    }
    await t.app.queue.drain();
    expect(await creates()).toBe(0);
    // (The first test's post, never decided, expired too.)
    const expired = await mailsTo('agency@tenpo.example', /投稿の承認依頼が期限切れ/);
    for (const p of [week, soon])
      expect(expired.filter((m) => m.text.includes(p.content))).toHaveLength(1);
  });
});
