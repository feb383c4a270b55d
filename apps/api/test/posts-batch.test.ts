// Issue 26 P9: POST /api/posts to many stores makes its rows, jobs and audit lines in a constant
// number of statements (batched inserts), and its answer does not grow with the stores; what
// reaches Google is counted at the sandbox: one post per store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATED_POSTS_SHOWN } from '../src/modules/posts/posts.create';
import { json, login } from './helpers';
import { statementsDuring } from './statements';
import {
  CREATE,
  postsHelpers,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';

let w: PostsWorld;
let agencyToken: string;
const { submit, countOf, drainUntil, tokyoIn } = postsHelpers(() => w);

/** `count` stores of the demo agency, each with the demo shop's Google connection and grant. */
async function agencyStores(count: number, tag: string): Promise<number[]> {
  const db = w.t.database.db;
  const agency = (
    await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'agency@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
  const { id: _id, ...shop } = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', w.shop)
    .executeTakeFirstOrThrow();
  const connection = await db
    .selectFrom('publisher_connections')
    .selectAll()
    .where('user_id', '=', w.shop)
    .where('publisher_key', '=', 'google_my_business')
    .executeTakeFirstOrThrow();
  const grant = await db
    .selectFrom('channel_credentials')
    .selectAll()
    .where('user_id', '=', w.shop)
    .where('publisher_key', '=', 'google_my_business')
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const user = await db
      .insertInto('users')
      .values({
        ...shop,
        email: `batch-${tag}-${i}@tenpo.example`,
        store_name: `一括店 ${tag}-${i}`,
        agency_id: agency,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: _c, ...c } = connection;
    await db
      .insertInto('publisher_connections')
      .values({ ...c, user_id: user.id })
      .execute();
    const { id: _g, ...g } = grant;
    await db
      .insertInto('channel_credentials')
      .values({ ...g, user_id: user.id })
      .execute();
    ids.push(user.id);
  }
  return ids;
}

beforeAll(async () => {
  w = await startPostsWorld();
  agencyToken = await login(w.t.app, 'agency@tenpo.example');
});
afterAll(async () => {
  await w?.t.close();
  await w?.sb.close();
});

describe('POST /api/posts to many stores', () => {
  it('costs the same statements for 2 stores as for 30, answers 20 posts and the counts, and reaches Google once per store', async () => {
    const few = await agencyStores(2, 'a');
    const many = await agencyStores(30, 'b');
    const post = (ids: number[], text: string) =>
      submit(
        {
          user_id: ids.join(','),
          content: text,
          shared_sns_type: 'google_my_business',
          publish_date: tokyoIn(3_600_000),
        },
        {},
        agencyToken,
      );
    // Once first: the first call of a kind warms caches (a queue made, statements prepared).
    expect((await post(few, '準備の投稿')).statusCode).toBe(200);
    let small: Created['data'] | null = null;
    let large: (Created['data'] & { post_count: number; held_count: number }) | null = null;
    const smallCount = await statementsDuring(async () => {
      const res = await post(few, '二店舗への投稿');
      expect(res.statusCode, res.body).toBe(200);
      small = json<Created>(res).data;
    });
    const largeCount = await statementsDuring(async () => {
      const res = await post(many, '三十店舗への投稿');
      expect(res.statusCode, res.body).toBe(200);
      large = json<{ data: NonNullable<typeof large> }>(res).data;
    });
    expect(small!.posts).toHaveLength(2);
    expect(large!.post_count).toBe(30);
    expect(large!.held_count).toBe(0);
    expect(large!.posts).toHaveLength(CREATED_POSTS_SHOWN);
    expect(large!.posts.map((p) => p.user_id)).toEqual(many.slice(0, CREATED_POSTS_SHOWN));
    // Batched: not one statement more for 28 stores more.
    expect(largeCount).toBe(smallCount);

    // Every store's post is made, with its target, job and audit line.
    const db = w.t.database.db;
    const posts = await db
      .selectFrom('posts')
      .innerJoin('post_targets as t', 't.post_id', 'posts.id')
      .select(['posts.id', 'posts.store_id', 't.idempotency_key', 't.state'])
      .where('posts.submission_id', '=', large!.submission_id)
      .execute();
    expect(posts.map((p) => p.store_id).sort((a, b) => a - b)).toEqual(many);
    expect(new Set(posts.map((p) => p.state))).toEqual(new Set(['scheduled']));
    const jobs = await db
      .selectFrom('jobs')
      .select('idempotency_key')
      .where(
        'idempotency_key',
        'in',
        posts.map((p) => p.idempotency_key),
      )
      .execute();
    expect(jobs).toHaveLength(30);
    const audit = await db
      .selectFrom('audit_log')
      .select('store_id')
      .where('entity', '=', 'post')
      .where('action', '=', 'create')
      .where(
        'entity_id',
        'in',
        posts.map((p) => String(p.id)),
      )
      .execute();
    expect(audit.map((a) => a.store_id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(many);

    // At the far end: once due, Google receives one post per store of each submission (2 + 2 + 30).
    const before = await countOf('POST', CREATE.google_my_business);
    w.t.clock.advance(2 * 3_600_000);
    await drainUntil(
      async () => (await countOf('POST', CREATE.google_my_business)) - before >= 34,
      100,
    );
    await w.t.app.queue.drain();
    expect((await countOf('POST', CREATE.google_my_business)) - before).toBe(34);
  });
});
