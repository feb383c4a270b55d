import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PostView, PublisherKey } from '@tenpo/domain';
import { ja, PUBLISHER_STATUS } from '@tenpo/domain';
import { classifyGraph } from '../src/channels/facebook/facebook.errors';
import { classifyGoogle } from '../src/channels/google/google.errors';
import { classifyX } from '../src/channels/x/x.errors';
import { labelOf } from '../src/modules/posts/posts.present';
import { json, type TestApp } from './helpers';
import { postsHelpers, startPostsWorld, type Created, type PostsWorld } from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * Issue 21, audit §7 item 8 (ADR 0063): the providers' answers for an account they hold back —
 * Graph 368 (policy block), 190/460 (password changed), 190/458 (app de-authorised), X 403
 * user-suspended, Google 403 PERMISSION_DENIED — set as sandbox fault switches, published
 * through the sandbox, and read on /posts. The recorded bodies are the shared fixtures, which
 * the sandbox's own test (apps/sandbox/src/faults/faults.test.ts) answers exactly.
 */
const FIXTURES = path.join(import.meta.dirname, '..', '..', '..', 'fixtures');
const fixture = (dir: string, name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, dir, name), 'utf8'));

let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let shop = 0;
const { countOf, submit, targetsOf, drainUntil } = postsHelpers(() => w);

beforeAll(async () => {
  w = await startPostsWorld();
  ({ sb, t, shop } = w);
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await sb.control('DELETE', '/control/calls');
});

const SNS: Record<PublisherKey, string> = {
  facebook: 'facebook',
  twitter: 'twitter',
  google_my_business: 'google_my_business',
  instagram: 'instagram',
};
const CREATE_PATH: Partial<Record<PublisherKey, RegExp>> = {
  facebook: /\/feed$/,
  twitter: /\/2\/tweets$/,
  google_my_business: /\/localPosts$/,
};

/**
 * Publishes one text post to `key` with the fault set on its create call (until cleared, so a
 * retry would meet it again), runs the jobs until the target settles, and returns the target
 * as /posts shows it with the number of creates the provider saw.
 */
async function publishAgainst(
  key: PublisherKey,
  fault: { provider: string; kind: string; path: string },
) {
  const f = await sb.control('POST', '/faults', {
    ...fault,
    method: 'POST',
    count: 'until_cleared',
  });
  expect(f).toBeTruthy();
  const text = `障害スイッチ ${fault.kind} ${key} ${Date.now()}`;
  const res = await submit({
    user_id: String(shop),
    content: text,
    shared_sns_type: SNS[key],
    ...(key === 'google_my_business' ? { google_post_type: 'STANDARD' } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  const post = json<Created>(res).data.posts[0] as PostView;
  const target = async () => (await targetsOf(post.id)).targets[0];
  await drainUntil(async () => {
    const s = (await target())?.state;
    return s === 'failed' || s === 'published' || s === 'unknown';
  });
  // Time that a retry would have waited passes; nothing is sent again.
  t.clock.advance(3600_000);
  await t.app.queue.drain();
  return {
    target: await target(),
    creates: await countOf('POST', CREATE_PATH[key] as RegExp),
  };
}

/** The connection's status before a reauth test, put back after (the next test publishes). */
async function keepingConnection(key: PublisherKey, fn: () => Promise<void>): Promise<void> {
  const db = t.database.db;
  const before = await db
    .selectFrom('publisher_connections')
    .select(['id', 'status'])
    .where('user_id', '=', shop)
    .where('publisher_key', '=', key)
    .executeTakeFirstOrThrow();
  try {
    await fn();
  } finally {
    await db
      .updateTable('publisher_connections')
      .set({ status: before.status })
      .where('id', '=', before.id)
      .execute();
  }
}

describe('Graph 368: blocked for policy violations', () => {
  it('Tenpo reads the recorded answer as `blocked`', () => {
    expect(
      classifyGraph(400, fixture('meta-graph-errors', 'blocked-368.json'), new Headers()).kind,
    ).toBe('blocked');
  });

  it('a Facebook post the sandbox blocks fails once as blocked, with channelBlocked', async () => {
    const { target, creates } = await publishAgainst('facebook', {
      provider: 'facebook',
      kind: 'policy_block',
      path: '/feed',
    });
    expect(target?.state).toBe('failed');
    expect(target?.error_kind).toBe('blocked');
    expect(target?.errors).toEqual([
      ja.postPublishFailed(labelOf('facebook')),
      ja.channelBlocked(labelOf('facebook')),
    ]);
    expect(target?.retryable).toBe(true);
    // Not retried automatically: Meta says wait; one create reached the sandbox.
    expect(creates).toBe(1);
  });
});

describe('Graph 190/460 (password changed) and 190/458 (app de-authorised)', () => {
  it.each([
    ['password_changed', 'password-changed-190-460.json'],
    ['deauthorized', 'deauthorized-190-458.json'],
  ])('%s: the recorded answer is reauth, and /posts asks to reconnect', async (kind, file) => {
    expect(classifyGraph(400, fixture('meta-graph-errors', file), new Headers()).kind).toBe(
      'reauth',
    );
    await keepingConnection('facebook', async () => {
      const { target, creates } = await publishAgainst('facebook', {
        provider: 'facebook',
        kind,
        path: '/feed',
      });
      expect(target?.state).toBe('failed');
      expect(target?.error_kind).toBe('reauth');
      expect(target?.errors).toEqual([
        ja.postPublishFailed(labelOf('facebook')),
        ja.channelReauth(labelOf('facebook')),
      ]);
      // Grant access refreshes once and sends again (a refused call took no effect, ADR 0063):
      // two creates at the sandbox, both refused, and no more after that.
      expect(creates).toBe(2);
      const conn = await t.database.db
        .selectFrom('publisher_connections')
        .select('status')
        .where('user_id', '=', shop)
        .where('publisher_key', '=', 'facebook')
        .executeTakeFirstOrThrow();
      expect(conn.status).toBe(PUBLISHER_STATUS.error);
    });
  });
});

describe('X 403 user-suspended', () => {
  it('is `blocked`, not retried, and /posts says the account is held back', async () => {
    expect(
      classifyX(() => Date.now())(
        403,
        fixture('x-errors', '403-user-suspended.json'),
        new Headers(),
      ).kind,
    ).toBe('blocked');
    const { target, creates } = await publishAgainst('twitter', {
      provider: 'x',
      kind: 'suspended',
      path: '/2/tweets',
    });
    expect(target?.state).toBe('failed');
    expect(target?.error_kind).toBe('blocked');
    expect(target?.errors).toEqual([
      ja.postPublishFailed(labelOf('twitter')),
      ja.channelBlocked(labelOf('twitter')),
    ]);
    expect(creates).toBe(1);
  });
});

describe('Google 403 PERMISSION_DENIED (suspended or unverified location)', () => {
  it('is `invalid` (neither a retry nor a new consent helps), sent once', async () => {
    expect(
      classifyGoogle(
        403,
        fixture('google-errors', 'permission-denied-location.json'),
        new Headers(),
      ).kind,
    ).toBe('invalid');
    const { target, creates } = await publishAgainst('google_my_business', {
      provider: 'google',
      kind: 'suspended',
      path: '/localPosts',
    });
    expect(target?.state).toBe('failed');
    expect(target?.error_kind).toBe('invalid');
    expect(target?.errors).toEqual([
      ja.postPublishFailed(labelOf('google_my_business')),
      ja.channelInvalid(labelOf('google_my_business')),
    ]);
    expect(creates).toBe(1);
  });
});
