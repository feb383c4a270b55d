import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANNEL_LIMITS, type PublisherKey } from '@tenpo/domain';
import { createChannels } from '../src/channels';
import { ChannelError, credentialHandle, type PostDraft } from '../src/channels/channel';
import { settle } from '../src/channels/settle';
import { openDatabase, type DbHandle } from '../src/db/kysely';
import { createPublisherRepo } from '../src/modules/publisher/publisher.repo';
import {
  createPublisherService,
  type PublisherService,
} from '../src/modules/publisher/publisher.service';
import { decrypt } from '../src/lib/tokens';
import { buildTestApp, call, json, login, storedCredentials, type TestApp } from './helpers';
import {
  connectThroughConsent,
  consent,
  startSandbox,
  X_USER,
  type RunningSandbox,
} from './sandbox';

/**
 * The channel capabilities (ADR 0022) against the emulators on a free port: each "process" is
 * a publisher service of its own on its own database connection, as an API process and a
 * worker would be; the sandbox counts the calls that reach it.
 */
let sb: RunningSandbox;
let t: TestApp;
let second: DbHandle;
const ids: Record<string, number> = {};

/** A publisher service as one process builds it, with a short time-out for the tests. */
const processOn = (database: DbHandle): PublisherService =>
  createPublisherService({
    repo: createPublisherRepo(database.db),
    channels: createChannels(t.config, t.clock, { timeoutMs: 400 }),
    clock: t.clock,
    secretKey: t.config.secretKey,
    publicUrl: t.config.publicUrl,
    isAgencyPrefix: async () => false,
    log: { warn: () => undefined },
    grantAccess: { pollMs: 10 },
  });

const calls = async (): Promise<Record<string, number>> =>
  ((await (await fetch(`${sb.url}/control/calls`)).json()) as { data: Record<string, number> })
    .data;
const countOf = async (method: string, pathEnd: string): Promise<number> =>
  Object.entries(await calls())
    .filter(([k]) => k.startsWith(`${method} `) && k.endsWith(pathEnd))
    .reduce((n, [, v]) => n + v, 0);
const zeroCalls = () => sb.control('DELETE', '/control/calls');

beforeAll(async () => {
  sb = await startSandbox();
  t = await buildTestApp({ SANDBOX_URL: sb.url });
  second = openDatabase(t.config.databaseUrl);
  for (const u of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    ids[u.email] = u.id;
});
afterAll(async () => {
  await second?.close();
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await zeroCalls();
});

/** The shop connects its X account through the API, as the browser does. */
async function connectX(): Promise<number> {
  const userId = ids['shop@tenpo.example'] as number;
  const token = await login(t.app, 'shop@tenpo.example');
  await connectThroughConsent(t.app, token, userId, 'twitter', {
    user_id: X_USER,
    decision: 'allow',
  });
  return userId;
}

describe('one refresh at a time per grant, across processes', () => {
  it("X's rotating refresh token: two parallel callers make one refresh call, both succeed", async () => {
    const storeId = await connectX();
    const before = await storedCredentials(t.database.db, storeId, 'twitter');
    const a = processOn(t.database);
    const b = processOn(second);
    const h = credentialHandle(storeId, 'twitter');
    // Past the access token's 2 h by our clock: both callers must refresh before their call.
    t.clock.advance(3 * 3600_000);
    await zeroCalls();
    const since = new Date(Date.now() - 3600_000);
    const [ra, rb] = await Promise.all([
      a.registry.require('twitter', 'listRecent').listRecent(h, { since }),
      b.registry.require('twitter', 'listRecent').listRecent(h, { since }),
    ]);
    expect(ra).toEqual([]);
    expect(rb).toEqual([]);
    expect(await countOf('POST', '/x/api/2/oauth2/token')).toBe(1);
    const after = await storedCredentials(t.database.db, storeId, 'twitter');
    const open = (v: string | null | undefined) => decrypt(t.config.secretKey, v as string);
    expect(open(after?.refresh_token)).not.toBe(open(before?.refresh_token));
    // The rotated refresh token is the stored one: refreshing again works (no reauth).
    await zeroCalls();
    await a.grants.refresh(h);
    expect(await countOf('POST', '/x/api/2/oauth2/token')).toBe(1);
    // Nobody holds the lease afterwards.
    expect(await t.database.db.selectFrom('grant_refresh_leases').selectAll().execute()).toEqual(
      [],
    );
  });

  it('Google: three parallel callers of one grant, one refresh call at the sandbox', async () => {
    const storeId = ids['shop@tenpo.example'] as number;
    const a = processOn(t.database);
    const b = processOn(second);
    const h = credentialHandle(storeId, 'google_my_business');
    t.clock.advance(2 * 3600_000);
    await zeroCalls();
    const locations = await Promise.all(
      [a, b, a].map((p) => p.registry.require('google_my_business', 'locations').listLocations(h)),
    );
    for (const l of locations) expect(l.length).toBeGreaterThan(0);
    expect(await countOf('POST', '/google/oauth2/token')).toBe(1);
  });
});

describe('a call not safe to repeat is sent once', () => {
  const cases: [PublisherKey, string, () => Promise<number>][] = [
    ['twitter', '/x/api/2/tweets', connectX],
    ['google_my_business', '/localPosts', async () => ids['shop@tenpo.example'] as number],
  ];

  it.each(cases)(
    '%s: a timed-out publish is not repeated, ends outcome unknown, and is settled by the list',
    async (key, path, storeOf) => {
      const storeId = await storeOf();
      const p = processOn(t.database);
      const h = credentialHandle(storeId, key);
      const draft: PostDraft = { text: `本日のおすすめ ${Date.now()}`, media: [] };
      // Refresh first if due, so the only provider call under the fault is the publish.
      await p.registry.require(key, 'listRecent').listRecent(h, { since: new Date() });
      // The provider answers after our time-out (400 ms), and still creates the post.
      const provider = key === 'twitter' ? 'x' : 'google';
      await sb.control('POST', '/faults', {
        provider,
        kind: 'slow',
        delay_ms: 1200,
        method: 'POST',
        path,
      });
      await zeroCalls();
      const sentAt = new Date();
      const err = await p.registry
        .require(key, 'publish')
        .publish(h, draft)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(ChannelError);
      expect((err as ChannelError).kind).toBe('outcome_unknown');
      expect((err as ChannelError).publisher).toBe(key);
      // Let the provider finish what it was doing, then read its list instead of posting again.
      await new Promise((r) => setTimeout(r, 1500));
      const settled = await settle(p.registry, h, draft, sentAt);
      expect(settled.outcome).toBe('published');
      expect(settled.outcome === 'published' && settled.post.text).toBe(draft.text);
      expect(await countOf('POST', path)).toBe(1);
      // A draft that was never sent settles as absent.
      const other = await settle(p.registry, h, { text: '送っていない投稿', media: [] }, sentAt);
      expect(other.outcome).toBe('absent');
    },
  );

  it('a publish that answers in time is not retried either way, and lists back', async () => {
    const storeId = await connectX();
    const p = processOn(t.database);
    const h = credentialHandle(storeId, 'twitter');
    const text = `営業時間のお知らせ ${Date.now()}`;
    expect(text.length).toBeLessThanOrEqual(CHANNEL_LIMITS.twitter.textMaxLength);
    const post = await p.registry.require('twitter', 'publish').publish(h, { text, media: [] });
    const list = await p.registry
      .require('twitter', 'listRecent')
      .listRecent(h, { since: new Date(Date.now() - 60_000) });
    expect(list.map((x) => x.id)).toContain(post.id);
    await p.registry.require('twitter', 'remove').remove(h, post.id);
    const after = await p.registry
      .require('twitter', 'listRecent')
      .listRecent(h, { since: new Date(Date.now() - 60_000) });
    expect(after.map((x) => x.id)).not.toContain(post.id);
  });

  it('a reading call that times out is tried again (safe calls may retry)', async () => {
    const storeId = await connectX();
    const p = processOn(t.database);
    const h = credentialHandle(storeId, 'twitter');
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'slow',
      delay_ms: 800,
      method: 'GET',
      path: '/tweets',
    });
    await zeroCalls();
    await p.registry
      .require('twitter', 'listRecent')
      .listRecent(h, { since: new Date(Date.now() - 60_000) });
    expect(await countOf('GET', `/users/${X_USER}/tweets`)).toBe(2);
  });
});

describe("each channel's capabilities against its emulator", () => {
  it("Facebook: publishes to the shop's page feed, lists it back, removes it", async () => {
    const p = processOn(t.database);
    const h = credentialHandle(ids['shop@tenpo.example'] as number, 'facebook');
    const text = `新メニューのお知らせ ${Date.now()}`;
    const post = await p.registry.require('facebook', 'publish').publish(h, { text, media: [] });
    const since = new Date(Date.now() - 60_000);
    const list = await p.registry.require('facebook', 'listRecent').listRecent(h, { since });
    expect(list.find((x) => x.id === post.id)?.text).toBe(text);
    await p.registry.require('facebook', 'remove').remove(h, post.id);
    const after = await p.registry.require('facebook', 'listRecent').listRecent(h, { since });
    expect(after.map((x) => x.id)).not.toContain(post.id);
    expect(await countOf('POST', '/feed')).toBe(1);
  });

  it('Instagram: a container, then media_publish, each sent once; the post lists back', async () => {
    await sb.control('PATCH', '/control/settings', { fetchMedia: false });
    try {
      const p = processOn(t.database);
      const h = credentialHandle(ids['shop@tenpo.example'] as number, 'instagram');
      const text = `本日のランチ ${Date.now()}`;
      const post = await p.registry.require('instagram', 'publish').publish(h, {
        text,
        media: [{ kind: 'photo', url: 'https://media.tenpo.example/lunch.jpg' }],
      });
      expect(await countOf('POST', '/media')).toBe(1);
      expect(await countOf('POST', '/media_publish')).toBe(1);
      const list = await p.registry
        .require('instagram', 'listRecent')
        .listRecent(h, { since: new Date(Date.now() - 60_000) });
      expect(list.find((x) => x.id === post.id)?.text).toBe(text);
      await expect(
        p.registry.require('instagram', 'publish').publish(h, { text, media: [] }),
      ).rejects.toMatchObject({ kind: 'invalid', publisher: 'instagram' });
    } finally {
      await sb.control('PATCH', '/control/settings', { fetchMedia: true });
    }
  });

  it('Google: daily metrics as numbers, and a location edit by update mask', async () => {
    const p = processOn(t.database);
    const h = credentialHandle(ids['shop@tenpo.example'] as number, 'google_my_business');
    const series = await p.registry
      .require('google_my_business', 'fetchMetrics')
      .fetchMetrics(
        h,
        { start: { year: 2026, month: 1, day: 1 }, end: { year: 2026, month: 1, day: 7 } },
        ['CALL_CLICKS', 'WEBSITE_CLICKS'],
      );
    expect(series.map((s) => s.metric)).toEqual(['CALL_CLICKS', 'WEBSITE_CLICKS']);
    for (const s of series) for (const v of s.values) expect(Number.isFinite(v.value)).toBe(true);
    const edited = await p.registry
      .require('google_my_business', 'editLocation')
      .editLocation(h, { websiteUri: 'https://cafe-tenpo.example/shibuya' });
    expect(edited.websiteUri).toBe('https://cafe-tenpo.example/shibuya');
  });
});

describe('ChannelError classes reach the caller intact', () => {
  it('a rate limit is rate_limited with its retry-after; a bad publish is invalid', async () => {
    const storeId = await connectX();
    const p = processOn(t.database);
    const h = credentialHandle(storeId, 'twitter');
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'rate_limit',
      retry_after_seconds: 600,
      method: 'POST',
      path: '/tweets',
    });
    const limited = await p.registry
      .require('twitter', 'publish')
      .publish(h, { text: 'a', media: [] })
      .catch((e: unknown) => e);
    expect(limited).toMatchObject({ kind: 'rate_limited', publisher: 'twitter' });
    expect((limited as ChannelError).retryAfterMs).toBeGreaterThan(500_000);
    const invalid = await p.registry
      .require('twitter', 'publish')
      .publish(h, { text: 'あ'.repeat(200), media: [] })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ kind: 'invalid', status: 400 });
  });

  it('a channel without the capability says so as invalid (Instagram has no remove)', () => {
    const p = processOn(t.database);
    expect(() => p.registry.require('instagram', 'remove')).toThrow(ChannelError);
    expect(p.registry.having('publish').map((c) => c.key)).toEqual([
      'google_my_business',
      'facebook',
      'instagram',
      'twitter',
    ]);
  });
});

describe('the Facebook page connection is one unit of work', () => {
  const fbUser = '122104567890123456';
  const failInstagram = async (on: boolean) => {
    const db = t.database.db;
    if (t.database.dialect === 'sqlite') {
      if (on)
        await sql`create trigger fail_instagram before insert on channel_credentials
          when new.publisher_key = 'instagram' begin select raise(abort, 'injected'); end`.execute(
          db,
        );
      else await sql`drop trigger if exists fail_instagram`.execute(db);
      return;
    }
    if (on) {
      await sql`create or replace function fail_instagram() returns trigger as $$
        begin raise exception 'injected'; end $$ language plpgsql`.execute(db);
      await sql`create trigger fail_instagram before insert on channel_credentials for each row
        when (new.publisher_key = 'instagram') execute function fail_instagram()`.execute(db);
    } else await sql`drop trigger if exists fail_instagram on channel_credentials`.execute(db);
  };
  const snapshot = (storeId: number) =>
    Promise.all([
      t.database.db
        .selectFrom('publisher_connections')
        .selectAll()
        .where('user_id', '=', storeId)
        .orderBy('id')
        .execute(),
      t.database.db
        .selectFrom('channel_credentials')
        .selectAll()
        .where('user_id', '=', storeId)
        .orderBy('id')
        .execute(),
    ]);

  it('a failure half-way (the Instagram write) leaves none of the four writes', async () => {
    const storeId = ids['newshop@tenpo.example'] as number;
    const token = await login(t.app, 'newshop@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/publisher/connect?publisher_key=facebook&user_id=${storeId}`,
      token,
    });
    const urlAuth = json<{ data: { urlAuth: string } }>(res).data.urlAuth;
    const back = await consent(urlAuth, {
      user_id: fbUser,
      decision: 'allow',
      granted: (new URL(urlAuth).searchParams.get('scope') ?? '').split(','),
      page_ids: ['104857392017465', '104857392017466'],
    });
    await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    const before = await snapshot(storeId);
    expect(before[1].find((c) => c.publisher_key === 'facebook')?.page_id).toBeNull();

    await failInstagram(true);
    try {
      const failed = await call(t.app, {
        method: 'POST',
        url: '/api/publisher/facebook/connect-page',
        token,
        payload: { user_id: storeId, page_id: '104857392017465' },
      });
      expect(failed.statusCode).toBe(500);
      // The page token and the Facebook row's status were written before the failing write:
      // they are rolled back with it.
      expect(await snapshot(storeId)).toEqual(before);
    } finally {
      await failInstagram(false);
    }

    const ok = await call(t.app, {
      method: 'POST',
      url: '/api/publisher/facebook/connect-page',
      token,
      payload: { user_id: storeId, page_id: '104857392017465' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const [connections, credentials] = await snapshot(storeId);
    expect(credentials.find((c) => c.publisher_key === 'facebook')?.page_id).toBe(
      '104857392017465',
    );
    expect(connections.find((c) => c.publisher_key === 'instagram')?.status).toBe(1);

    // Disconnecting is one unit of work too: the grants go with every linked row's state.
    const failInstagramRow = async (on: boolean) => {
      const db = t.database.db;
      if (t.database.dialect === 'sqlite') {
        if (on)
          await sql`create trigger fail_instagram_row before update on publisher_connections
            when new.publisher_key = 'instagram' begin select raise(abort, 'injected'); end`.execute(
            db,
          );
        else await sql`drop trigger if exists fail_instagram_row`.execute(db);
        return;
      }
      if (on) {
        await sql`create or replace function fail_instagram_row() returns trigger as $$
          begin raise exception 'injected'; end $$ language plpgsql`.execute(db);
        await sql`create trigger fail_instagram_row before update on publisher_connections
          for each row when (new.publisher_key = 'instagram') execute function fail_instagram_row()`.execute(
          db,
        );
      } else
        await sql`drop trigger if exists fail_instagram_row on publisher_connections`.execute(db);
    };
    const connected = await snapshot(storeId);
    await failInstagramRow(true);
    try {
      const off = await call(t.app, {
        method: 'PUT',
        url: '/api/publisher/disconnect',
        token,
        payload: { publisher_id: 2, entity_id: '104857392017465', user_id: storeId },
      });
      expect(off.statusCode).toBe(500);
      expect(await snapshot(storeId)).toEqual(connected);
    } finally {
      await failInstagramRow(false);
    }
  });
});
