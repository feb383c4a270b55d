import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approvalJa, type ReviewView } from '@tenpo/domain';
import { call, json, login, type TestApp } from './helpers';
import { postsHelpers, startPostsWorld, type PostsWorld } from './posts-harness';
import type { RunningSandbox } from './sandbox';
import { shopGoogleToken } from './sandbox';

/**
 * Approval of replies (issue 25 item 6, ADR 0093), against the Google emulator: the demo shop is
 * made a store of the demo agency, whose rule requires approval. What reaches Google is read
 * from the sandbox's own v4 reviews and its call log.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let shopToken = '';
let agencyToken = '';
let shop = 0;
let agency = 0;
const { countOf } = postsHelpers(() => w);

const puts = () => countOf('PUT', /\/reply$/);

async function atGoogle(id: number): Promise<{ reviewReply?: { comment: string } }> {
  const { name } = await t.database.db
    .selectFrom('reviews')
    .select('name')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const res = await fetch(`${sb.url}/google/mybusiness/v4/${name}`, {
    headers: { authorization: `Bearer ${await shopGoogleToken(sb.url)}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { reviewReply?: { comment: string } };
}

type Answer = { message?: string; code?: string; data: ReviewView };
const post = (url: string, token: string, payload: object) =>
  call(t.app, { method: 'POST', url: `/api${url}`, token, payload });
const setRule = (on: boolean, token = agencyToken) =>
  call(t.app, {
    method: 'PUT',
    url: '/api/reviews/approval-settings',
    token,
    payload: { user_id: agency, replies_need_approval: on },
  });
const ask = (id: number, comment: string, token = agencyToken, override = false) =>
  post(`/reviews/${id}/approvals`, token, { user_id: shop, comment, override });
const approve = (approvalId: number, token = shopToken, extra: object = {}) =>
  post(`/reviews/approvals/${approvalId}/approve`, token, { user_id: shop, ...extra });

/** An unreplied review of the shop never asked about. */
async function freshReview(): Promise<number> {
  const row = await t.database.db
    .selectFrom('reviews')
    .leftJoin('reply_approvals as a', 'a.review_id', 'reviews.id')
    .select('reviews.id')
    .where('reviews.store_id', '=', shop)
    .where('reviews.has_reply', '=', 0)
    .where('a.id', 'is', null)
    .orderBy('reviews.id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const mailsTo = async (to: string) => {
  await t.app.queue.drain();
  return t.mailbox.list({ to });
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
  await t.app.reviews.sync.syncStore(shop);
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  expect((await setRule(true)).statusCode).toBe(200);
});

describe("an agency's approval rule", () => {
  it('is off by default; the agency sets it, its store reads it and cannot change it', async () => {
    expect((await setRule(false)).statusCode).toBe(200);
    const read = async () =>
      json<{ data: { replies_need_approval: boolean; can_edit: boolean } }>(
        await call(t.app, {
          method: 'GET',
          url: `/api/reviews/approval-settings?user_id=${shop}`,
          token: shopToken,
        }),
      ).data;
    expect(await read()).toMatchObject({ replies_need_approval: false, can_edit: false });
    const id = await freshReview();
    const notNeeded = await ask(id, 'ありがとうございます。');
    expect(notNeeded.statusCode).toBe(409);
    expect(json<Answer>(notNeeded).message).toBe(approvalJa.notRequired);
    const on = await setRule(true);
    expect(on.statusCode, on.body).toBe(200);
    expect(await read()).toMatchObject({ replies_need_approval: true });
    expect((await setRule(false, shopToken)).statusCode).toBe(404);
  });

  it('with the rule on, a reply sent directly is refused and nothing reaches Google', async () => {
    const id = await freshReview();
    await sb.control('DELETE', '/control/calls');
    const res = await post(`/reviews/${id}/reply`, shopToken, {
      user_id: shop,
      comment: 'ありがとうございます。',
    });
    expect(res.statusCode).toBe(409);
    expect(json<Answer>(res).message).toBe(approvalJa.required);
    expect(await puts()).toBe(0);
    const view = json<{ data: { data: { data: ReviewView[] } } }>(
      await call(t.app, {
        method: 'GET',
        url: `/api/reviews?user_id=${shop}`,
        token: shopToken,
      }),
    ).data.data.data[0];
    expect(view?.approval_required).toBe(true);
  });
});

describe('a request for approval', () => {
  it('is checked like a send, waits, is edited and approved by the store, and reaches Google once', async () => {
    const id = await freshReview();
    await sb.control('DELETE', '/control/calls');
    const mailsBefore = (await mailsTo('shop@tenpo.example')).length;
    const blocked = await ask(id, 'ご来店ありがとうございます。当店は地域No.1のカフェです。');
    expect(blocked.statusCode).toBe(422);
    const text = 'ご来店ありがとうございます。またのお越しをお待ちしております。';
    const asked = await ask(id, text);
    expect(asked.statusCode, asked.body).toBe(200);
    const pending = json<Answer>(asked).data.approval;
    expect(pending).toMatchObject({ state: 'pending', comment: text, can_decide: false });
    expect(await puts()).toBe(0);
    const toShop = await mailsTo('shop@tenpo.example');
    expect(toShop.length - mailsBefore).toBe(1);
    expect(toShop[0]?.subject).toContain('承認依頼');
    expect(toShop[0]?.text).toContain(text);

    // Its author cannot approve it.
    const own = await approve(pending?.id as number, agencyToken);
    expect(own.statusCode).toBe(409);
    expect(json<Answer>(own).message).toBe(approvalJa.ownRequest);

    // The store sees it as its to decide, edits it and approves: sent once.
    const seen = json<{ data: ReviewView }>(
      await call(t.app, {
        method: 'GET',
        url: `/api/reviews/${id}?user_id=${shop}`,
        token: shopToken,
      }),
    ).data;
    expect(seen.approval).toMatchObject({ can_decide: true, can_withdraw: false });
    const edited = `${text}スタッフ一同`;
    const ok = await approve(pending?.id as number, shopToken, { comment: edited });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json<Answer>(ok)).toMatchObject({
      message: approvalJa.approvedSent,
      data: { reply: { comment: edited }, approval: { state: 'sent', google_state: 'pending' } },
    });
    expect((await atGoogle(id)).reviewReply?.comment).toBe(edited);
    expect(await puts()).toBe(1);
    const again = await approve(pending?.id as number);
    expect(again.statusCode).toBe(409);
    expect(await puts()).toBe(1);
    const toAgency = await mailsTo('agency@tenpo.example');
    expect(toAgency[0]?.subject).toContain('承認されました');
  });

  it('approved twice at the same moment is sent once', async () => {
    const id = await freshReview();
    const asked = await ask(id, 'ありがとうございました。');
    const approvalId = json<Answer>(asked).data.approval?.id as number;
    await sb.control('DELETE', '/control/calls');
    const manager = await login(t.app, 'manager@tenpo.example');
    const [a, b, c] = await Promise.all([
      approve(approvalId),
      approve(approvalId),
      approve(approvalId, manager),
    ]);
    const codes = [a, b, c].map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    expect(await puts()).toBe(1);
  });

  it('sent back with a note, its author is told; only its author withdraws', async () => {
    const id = await freshReview();
    const first = json<Answer>(await ask(id, 'ありがとうございます。')).data.approval?.id as number;
    const notMine = await call(t.app, {
      method: 'DELETE',
      url: `/api/reviews/approvals/${first}?user_id=${shop}`,
      token: shopToken,
    });
    expect(notMine.statusCode).toBe(403);
    const withdrawn = await call(t.app, {
      method: 'DELETE',
      url: `/api/reviews/approvals/${first}?user_id=${shop}`,
      token: agencyToken,
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(json<Answer>(withdrawn).data.approval).toBeNull();

    const second = json<Answer>(await ask(id, 'ありがとうございます!')).data.approval?.id as number;
    const note = 'お名前を入れてください。';
    const rejected = await post(`/reviews/approvals/${second}/reject`, shopToken, {
      user_id: shop,
      note,
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(json<Answer>(rejected).data.approval).toMatchObject({ state: 'rejected', note });
    const mail = (await mailsTo('agency@tenpo.example'))[0];
    expect(mail?.subject).toContain('差し戻されました');
    expect(mail?.text).toContain(note);
    expect((await approve(second)).statusCode).toBe(409);
  });

  it('a second request of the same review replaces the open one; the list shows the open ones', async () => {
    const id = await freshReview();
    await ask(id, 'ありがとうございます。');
    await ask(id, 'ご来店ありがとうございます。');
    const open = await t.database.db
      .selectFrom('reply_approvals')
      .select(['state', 'comment'])
      .where('review_id', '=', id)
      .orderBy('id')
      .execute();
    expect(open.map((r) => r.state)).toEqual(['withdrawn', 'pending']);
    const list = json<{ data: { data: { data: { review_id: number; can_decide: boolean }[] } } }>(
      await call(t.app, {
        method: 'GET',
        url: `/api/reviews/approvals?user_id=${shop}`,
        token: shopToken,
      }),
    ).data.data.data;
    expect(list.filter((a) => a.review_id === id)).toEqual([
      expect.objectContaining({ review_id: id, can_decide: true }),
    ]);
  });
});

describe('the sweep', () => {
  it('expires stale requests and tells their authors; sends an approved one a crash left behind, once', async () => {
    const stale = await freshReview();
    const staleId = json<Answer>(await ask(stale, 'ありがとうございます。')).data.approval
      ?.id as number;
    await t.database.db
      .updateTable('reply_approvals')
      .set({ expires_at: new Date(t.clock.now().getTime() - 1000).toISOString() })
      .where('id', '=', staleId)
      .execute();

    const stuck = await freshReview();
    const stuckId = json<Answer>(await ask(stuck, 'またのお越しをお待ちしております。')).data
      .approval?.id as number;
    // As if the approver's process died between its claim and the send.
    await t.database.db
      .updateTable('reply_approvals')
      .set({
        state: 'approved',
        decided_by: shop,
        decided_by_email: 'shop@tenpo.example',
        updated_at: new Date(t.clock.now().getTime() - 3_600_000).toISOString(),
      })
      .where('id', '=', stuckId)
      .execute();
    await sb.control('DELETE', '/control/calls');

    const [one, two] = await Promise.all([
      t.app.reviews.approvals.sweep(),
      t.app.reviews.approvals.sweep(),
    ]);
    expect(one.expired + two.expired).toBe(1);
    expect(one.resent + two.resent).toBe(1);
    expect(await puts()).toBe(1);
    expect((await atGoogle(stuck)).reviewReply?.comment).toBe('またのお越しをお待ちしております。');
    const states = await t.database.db
      .selectFrom('reply_approvals')
      .select(['id', 'state'])
      .where('id', 'in', [staleId, stuckId])
      .orderBy('id')
      .execute();
    expect(states.map((s) => s.state)).toEqual(['expired', 'sent']);
    const subjects = (await mailsTo('agency@tenpo.example')).slice(0, 2).map((m) => m.subject);
    expect(subjects.some((s) => s.includes('期限切れ'))).toBe(true);
  });
});
