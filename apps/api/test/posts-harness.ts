import sharp from 'sharp';
import { expect } from 'vitest';
import { formatPostDate, type PostView, type PublisherKey } from '@tenpo/domain';
import { createChannels } from '../src/channels';
import type { HttpDeps } from '../src/channels/http';
import { credentialHandle, type ChannelRegistry } from '../src/channels/channel';
import { findPublished } from '../src/channels/settle';
import type { JobContext, JobHandler, Queue } from '../src/jobs/engine';
import { PUBLISH_QUEUE, registerPostJobs, type TargetJob } from '../src/modules/posts/posts.jobs';
import { createPostsRepo, type PostsRepo } from '../src/modules/posts/posts.repo';
import { createMediaStorage } from '../src/storage';
import { createPublisherRepo } from '../src/modules/publisher/publisher.repo';
import {
  createPublisherService,
  type PublisherService,
} from '../src/modules/publisher/publisher.service';
import { buildTestApp, call, json, login, multipart, type TestApp } from './helpers';
import {
  connectThroughConsent,
  freePort,
  startSandbox,
  X_USER,
  type RunningSandbox,
} from './sandbox';

/**
 * The posts suites' world: the API and its job engine against the emulators on a free port. The
 * API listens on a port of its own too, because the providers fetch the media from its public
 * URL as the real ones do. What reached a provider is counted on the sandbox's side: its call
 * counters and its own post lists, read with the demo shop's grants.
 */
export type PostsWorld = {
  sb: RunningSandbox;
  t: TestApp;
  port: number;
  /** The demo shop (shop@tenpo.example), signed in, with X connected as the browser does. */
  shop: number;
  token: string;
  /** Reads the providers' lists (the providers' own state) with the demo shop's grants. */
  reader: PublisherService;
};

/**
 * A 1200×900 JPEG of grey noise (every channel's size rules accept it, and noise keeps it from
 * compressing to almost nothing), made in the test as the providers will fetch it.
 */
export const photoJpeg = (): Promise<Buffer> =>
  sharp({
    create: {
      width: 1200,
      height: 900,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 70 })
    .toBuffer();

export const ALL: PublisherKey[] = ['google_my_business', 'facebook', 'instagram', 'twitter'];

/** The create calls that make a post at each provider. */
export const CREATE: Record<PublisherKey, RegExp> = {
  google_my_business: /\/localPosts$/,
  facebook: /\/(feed|photos|videos)$/,
  instagram: /\/media_publish$/,
  twitter: /\/2\/tweets$/,
};

export type Created = { data: { submission_id: string; posts: PostView[]; notes: string[] } };

/**
 * `channelTimeoutMs`: a short provider time-out, so a slow provider ends `outcome_unknown`.
 * `retryAtOnce`: a repeatable call that failed is tried again at once, not after its back-off.
 */
export async function startPostsWorld(
  opts: { channelTimeoutMs?: number; retryAtOnce?: boolean } = {},
): Promise<PostsWorld> {
  const sb = await startSandbox();
  const port = await freePort();
  const http: Partial<HttpDeps> = {
    ...(opts.channelTimeoutMs === undefined ? {} : { timeoutMs: opts.channelTimeoutMs }),
    ...(opts.retryAtOnce ? { retrySleep: async () => undefined } : {}),
  };
  const t = await buildTestApp(
    { SANDBOX_URL: sb.url, PUBLIC_URL: `http://127.0.0.1:${port}` },
    Object.keys(http).length === 0
      ? {}
      : { channels: (config, clock) => createChannels(config, clock, http) },
  );
  await t.app.listen({ port, host: '127.0.0.1' });
  const reader = createPublisherService({
    repo: createPublisherRepo(t.database.db),
    channels: createChannels(t.config, t.clock),
    clock: t.clock,
    secretKey: t.config.secretKey,
    publicUrl: t.config.publicUrl,
    isAgencyPrefix: async () => false,
    log: { warn: () => undefined },
  });
  const { shop, token } = await shopWithX(t);
  return { sb, t, port, shop, token, reader };
}

/**
 * The demo shop signed in, with X connected: X is left to connect in the demo data, so the shop
 * connects it as the browser does, through the sandbox's consent page.
 */
export async function shopWithX(t: TestApp): Promise<{ shop: number; token: string }> {
  const shop = (
    await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'shop@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
  const token = await login(t.app, 'shop@tenpo.example');
  await connectThroughConsent(t.app, token, shop, 'twitter', {
    user_id: X_USER,
    decision: 'allow',
  });
  return { shop, token };
}

/** The suites' reads and actions, on the world `get` returns when they run. */
export function postsHelpers(get: () => PostsWorld) {
  const calls = async (): Promise<Record<string, number>> =>
    (
      (await (await fetch(`${get().sb.url}/control/calls`)).json()) as {
        data: Record<string, number>;
      }
    ).data;
  const countOf = async (method: string, pathEnd: RegExp): Promise<number> =>
    Object.entries(await calls())
      .filter(([k]) => k.startsWith(`${method} `) && pathEnd.test(k))
      .reduce((n, [, v]) => n + v, 0);
  /**
   * The posts the provider lists for the shop whose text is `text`, links compared as links
   * (X lists them as t.co links, and appends one for the media).
   */
  const atProvider = async (key: PublisherKey, text: string) => {
    const { reader, shop } = get();
    return (
      await reader.registry
        .require(key, 'listRecent')
        .listRecent(credentialHandle(shop, key), { since: new Date(Date.now() - 3600_000) })
    ).filter((p) => findPublished([{ ...p, createdAt: null }], { text }, new Date(0)) !== null);
  };
  const submit = (
    fields: Record<string, string>,
    files: Record<string, { filename: string; type: string; data: Buffer }> = {},
    as = get().token,
  ) =>
    call(get().t.app, {
      method: 'POST',
      url: '/api/posts',
      token: as,
      ...multipart(fields, files),
    });
  const targetsOf = async (postId: number, storeId = get().shop) => {
    const res = await call(get().t.app, {
      method: 'GET',
      url: `/api/posts/${postId}?user_id=${storeId}`,
      token: get().token,
    });
    expect(res.statusCode, res.body).toBe(200);
    return json<{ data: PostView[] }>(res).data[0] as PostView;
  };
  /** Runs due jobs until `done` holds (no fixed sleeps: the engine is driven, then looked at). */
  const drainUntil = async (done: () => Promise<boolean>, rounds = 50): Promise<void> => {
    for (let i = 0; i < rounds; i++) {
      await get().t.app.queue.drain();
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('drainUntil: never done');
  };
  const stateOf = async (postId: number) =>
    Object.fromEntries((await targetsOf(postId)).targets.map((x) => [x.publisher_key, x.state]));
  const tokyoIn = (ms: number) => formatPostDate(new Date(get().t.clock.now().getTime() + ms));
  return { calls, countOf, atProvider, submit, targetsOf, drainUntil, stateOf, tokyoIn };
}

/** What a publish job run by hand throws when it asks to run again at `at`. */
export class RetryAsked extends Error {
  constructor(readonly at: Date) {
    super('retry');
  }
}

/** A publish job's context for a run by hand: asking to run again throws `RetryAsked`. */
export const handRunContext = (t: TestApp): JobContext => ({
  id: 'j',
  queue: PUBLISH_QUEUE,
  key: null,
  attempt: 1,
  maxAttempts: 5,
  signal: new AbortController().signal,
  retryAt: (at: Date) => {
    throw new RetryAsked(at);
  },
  log: t.app.log,
});

/**
 * The publish job's handler, to run by hand: registered on a queue that only keeps handlers,
 * on `repo` and `registry` (the world's own by default).
 */
export function publishHandler(
  w: PostsWorld,
  deps: { repo?: PostsRepo; registry?: ChannelRegistry } = {},
): JobHandler<TargetJob> {
  const handlers = new Map<string, JobHandler<TargetJob>>();
  const queue = {
    work: (name: string, h: JobHandler<TargetJob>) => handlers.set(name, h),
  } as unknown as Queue;
  registerPostJobs(queue, {
    repo: deps.repo ?? createPostsRepo(w.t.database.db),
    registry: deps.registry ?? w.reader.registry,
    storage: createMediaStorage(w.t.config),
    clock: w.t.clock,
  });
  return handlers.get(PUBLISH_QUEUE) as JobHandler<TargetJob>;
}
