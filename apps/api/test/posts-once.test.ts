import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PostView } from '@tenpo/domain';
import type { JobHandler } from '../src/jobs/engine';
import { createPostsRepo, type PostsRepo } from '../src/modules/posts/posts.repo';
import { SETTLE_AFTER_MS, jobOf, type TargetJob } from '../src/modules/posts/posts.jobs';
import { json, type TestApp } from './helpers';
import {
  handRunContext,
  photoJpeg,
  postsHelpers,
  publishHandler,
  RetryAsked,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * Two runs of one publish job at once: what a job lease that lapsed leaves behind (a worker
 * stalled past its lease, or killed and its job handed to another while its call was still
 * at the provider). The handler is run twice by hand, on the real repository, channels and
 * sandbox; what reached the provider is counted on the sandbox's side.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let shop = 0;
let photo: Buffer;
let publish: JobHandler<TargetJob>;
/** The same job on a repository whose reads of a target answer 300 ms late (a stalled run). */
let publishLate: JobHandler<TargetJob>;
const { countOf, submit, targetsOf, tokyoIn, atProvider } = postsHelpers(() => w);

const ctx = () => handRunContext(t);

beforeAll(async () => {
  photo = await photoJpeg();
  w = await startPostsWorld();
  ({ sb, t, shop } = w);
  const handlerOn = (repo: PostsRepo) => publishHandler(w, { repo });
  const repo = createPostsRepo(t.database.db);
  publish = handlerOn(repo);
  publishLate = handlerOn({
    ...repo,
    target: async (id: number) => {
      const row = await repo.target(id);
      await new Promise((r) => setTimeout(r, 300));
      return row;
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await sb.control('DELETE', '/control/calls');
});

/** A post for X alone, due in five minutes (the engine leaves it to the runs by hand). */
async function xPost(text: string, withPhoto: boolean) {
  const res = await submit(
    {
      user_id: String(shop),
      content: text,
      shared_sns_type: 'twitter',
      publish_date: tokyoIn(5 * 60_000),
    },
    withPhoto ? { 'medias[0]': { filename: 'p.jpg', type: 'image/jpeg', data: photo } } : {},
  );
  expect(res.statusCode, res.body).toBe(200);
  const post = json<Created>(res).data.posts[0] as PostView;
  const row = await t.database.db
    .selectFrom('post_targets')
    .selectAll()
    .where('post_id', '=', post.id)
    .executeTakeFirstOrThrow();
  return { post, job: jobOf(row) };
}

const run = (job: TargetJob, handler = publish) =>
  handler(job, ctx()).then(
    () => 'done',
    (err: unknown) => (err instanceof RetryAsked ? 'retry' : Promise.reject(err)),
  );

describe('two runs of one publish job at once', () => {
  it('both start together: one claims the send, the other stops; one tweet', async () => {
    const text = `同時実行 ${Date.now()}`;
    const { post, job } = await xPost(text, false);
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'slow',
      delay_ms: 500,
      method: 'POST',
      path: '/2/tweets',
      count: 2,
    });
    await Promise.all([run(job), run(job)]);
    expect(await countOf('POST', /\/2\/tweets$/)).toBe(1);
    expect(await atProvider('twitter', text)).toHaveLength(1);
    expect((await targetsOf(post.id)).targets[0]?.state).toBe('published');
  });

  it('a run that read the target before the other claimed and sent: its claim fails; one tweet', async () => {
    const text = `古い読み取り ${Date.now()}`;
    const { post, job } = await xPost(text, false);
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'slow',
      delay_ms: 800,
      method: 'POST',
      path: '/2/tweets',
      count: 1,
    });
    // The late run reads the target as it was (nothing sent); the other claims and sends
    // before that read comes back.
    const late = run(job, publishLate);
    await new Promise((r) => setTimeout(r, 20));
    const first = run(job);
    expect(await late).toBe('done');
    expect(await first).toBe('done');
    expect(await countOf('POST', /\/2\/tweets$/)).toBe(1);
    expect(await atProvider('twitter', text)).toHaveLength(1);
    expect((await targetsOf(post.id)).targets[0]?.state).toBe('published');
  });

  it('a second run claims while the first is uploading the photo: the first does not send', async () => {
    const text = `アップロード中の引き継ぎ ${Date.now()}`;
    const { post, job } = await xPost(text, true);
    // The first run's upload answers late; the second run starts meanwhile, uploads fast, and
    // its tweet is still at X when the first run's upload comes back.
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'slow',
      delay_ms: 1500,
      method: 'POST',
      path: '/2/media/upload',
      count: 1,
    });
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'slow',
      delay_ms: 2000,
      method: 'POST',
      path: '/2/tweets',
      count: 1,
    });
    const first = run(job);
    await new Promise((r) => setTimeout(r, 400));
    const second = run(job);
    expect(await first).toBe('done');
    expect(await second).toBe('done');
    expect(await countOf('POST', /\/2\/tweets$/)).toBe(1);
    expect(await atProvider('twitter', text)).toHaveLength(1);
    expect((await targetsOf(post.id)).targets[0]?.state).toBe('published');
  });

  it('a second run finds a send still in flight: it waits before settling, and never sends it again', async () => {
    const text = `送信中の引き継ぎ ${Date.now()}`;
    const { post, job } = await xPost(text, false);
    // The provider holds the first run's call a while before it makes the tweet.
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'slow',
      delay_ms: 1500,
      method: 'POST',
      path: '/2/tweets',
      count: 1,
    });
    const first = run(job);
    await new Promise((r) => setTimeout(r, 400));
    // The send is written and on its way: a second run now neither settles nor sends.
    const second = await run(job);
    expect(await countOf('POST', /\/2\/tweets$/)).toBe(1);
    expect(second).toBe('retry');
    expect(await first).toBe('done');
    t.clock.advance(SETTLE_AFTER_MS);
    expect(await run(job)).toBe('done');
    expect(await countOf('POST', /\/2\/tweets$/)).toBe(1);
    expect(await atProvider('twitter', text)).toHaveLength(1);
    expect((await targetsOf(post.id)).targets[0]?.state).toBe('published');
  });
});
