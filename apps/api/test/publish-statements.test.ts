import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostView, PublisherKey } from '@tenpo/domain';
import type { JobHandler } from '../src/jobs/engine';
import { jobOf, type TargetJob } from '../src/modules/posts/posts.jobs';
import { json } from './helpers';
import {
  CREATE,
  handRunContext,
  postsHelpers,
  publishHandler,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';
import { statementsDuring } from './statements';

/**
 * Issue 26 P9: what one publish job costs the database. The publish handler is run by hand (as
 * posts-once.test.ts does), on the real repository, channels and sandbox, for one post to one
 * store; every statement the process sends meanwhile is counted (statements.ts). Before the reads
 * were merged a job cost Google 11 and Facebook 9, on SQLite and PostgreSQL alike: the target,
 * its post, the post's media and targets (4), the claim and the send (2), a grant's credentials
 * and connection (2 per use: Google uses its grant twice, to post and to read the review), the
 * outcome (1). The credentials now come with the connection's entity id (1 per use): 9 and 8.
 * The ceilings are those numbers: a read added to the publish path shows here.
 */
const MAX_STATEMENTS: Partial<Record<PublisherKey, number>> = {
  google_my_business: 9,
  facebook: 8,
};

let w: PostsWorld;
let publish: JobHandler<TargetJob>;
const { countOf, submit, tokyoIn, atProvider, targetsOf } = postsHelpers(() => w);

beforeAll(async () => {
  w = await startPostsWorld();
  publish = publishHandler(w);
}, 60_000);
afterAll(async () => {
  await w?.t.close();
  await w?.sb.close();
});

/** A text post of the demo shop for one channel, due in five minutes (left to the runs by hand). */
async function onePost(key: PublisherKey, text: string) {
  const res = await submit({
    user_id: String(w.shop),
    content: text,
    shared_sns_type: key,
    publish_date: tokyoIn(5 * 60_000),
  });
  expect(res.statusCode, res.body).toBe(200);
  const post = json<Created>(res).data.posts[0] as PostView;
  const row = await w.t.database.db
    .selectFrom('post_targets')
    .selectAll()
    .where('post_id', '=', post.id)
    .executeTakeFirstOrThrow();
  return { post, job: jobOf(row) };
}

describe('one publish job', () => {
  for (const key of ['google_my_business', 'facebook'] as const) {
    it(`to ${key}: at most ${MAX_STATEMENTS[key]} statements, and the post reaches the provider once`, async () => {
      // Once first: the first run of a kind warms caches (statements prepared, a token read).
      const warm = await onePost(key, `準備の投稿 ${key} ${Date.now()}`);
      await publish(warm.job, handRunContext(w.t));

      const text = `文の数 ${key} ${Date.now()}`;
      const { post, job } = await onePost(key, text);
      await w.sb.control('DELETE', '/control/calls');
      const n = await statementsDuring(() => publish(job, handRunContext(w.t)));
      console.log(`publish job statements (${key}): ${n}`);
      expect(n).toBeLessThanOrEqual(MAX_STATEMENTS[key] as number);

      expect(await countOf('POST', CREATE[key])).toBe(1);
      expect(await atProvider(key, text)).toHaveLength(1);
      expect((await targetsOf(post.id)).targets[0]?.state).toBe('published');
    });
  }
});
