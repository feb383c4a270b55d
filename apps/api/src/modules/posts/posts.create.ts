import { randomUUID } from 'node:crypto';
import {
  CONNECTED_PUBLISHER_STATUSES,
  ja,
  mayUsePublisher,
  type PostTopicType,
  type PostView,
  type PublisherKey,
} from '@tenpo/domain';
import type { StoredTopic } from './posts.draft';
import type { UserRow } from '../../db/types';
import { iso } from '../../lib/clock';
import { validationError } from '../../lib/errors';
import type { NewJob } from '../../jobs/engine';
import { jobOf, PUBLISH_QUEUE, REMOVE_QUEUE, removeKeyOf } from './posts.jobs';
import { labelOf } from './posts.present';
import type { NewPostMedia } from './posts.repo';
import type { PostRequest } from './posts.validate';
import { postFields, type PostsContext } from './posts.context';

/**
 * How many of a submission's posts its answer shows (the first, in the stores' order): the
 * screen shows a line of counts, and a post to 1,200 stores answered 774 KB (issue 26 P9).
 */
export const CREATED_POSTS_SHOWN = 20;

/** A medium ready to be attached to every post of a submission. */
export type ResolvedMedium = Omit<NewPostMedia, 'position' | 'created_at'>;

/**
 * Every store × channel must be connected (and allowed for the store's plan): 422 otherwise.
 * Returns the provider account each store × channel posts as (`<channel>:<entity id>`,
 * keyed `<store id>:<channel>`), what the per-account limits count by.
 */
export async function checkStoresConnected(
  c: PostsContext,
  stores: UserRow[],
  channels: PublisherKey[],
): Promise<Map<string, string | null>> {
  const lines: string[] = [];
  const accounts = new Map<string, string | null>();
  // Every store × channel in one read (a post to 1,000 stores: one query, not 4,000).
  const rows = await c.publishers.rows(stores, channels);
  for (const store of stores)
    for (const key of channels) {
      const row = rows.get(`${store.id}:${key}`);
      if (!row) continue;
      accounts.set(`${store.id}:${key}`, row.entity_id ? `${key}:${row.entity_id}` : null);
      if (
        !mayUsePublisher(store.role, key) ||
        !(CONNECTED_PUBLISHER_STATUSES as readonly number[]).includes(row.status)
      )
        lines.push(
          ja.postChannelNotConnected(
            store.store_name ?? store.name ?? String(store.id),
            labelOf(key),
          ),
        );
    }
  if (lines.length) throw validationError({ shared_sns_type: lines });
  return accounts;
}

/**
 * One submission: a post per store with its media and a target per channel, and their
 * jobs, in one transaction (ADR 0026). A channel that cannot remove posts keeps no removal
 * date; `notes` says so.
 */
export async function createPosts(
  c: PostsContext,
  actor: UserRow,
  stores: UserRow[],
  input: PostRequest,
  media: ResolvedMedium[],
  kind?: { type: PostTopicType; topic: StoredTopic | null },
  /** From `checkConnected` when the caller ran it already. */
  known?: Map<string, string | null>,
): Promise<{
  submission_id: string;
  post_count: number;
  held_count: number;
  posts: PostView[];
  notes: string[];
}> {
  const { repo, queue, registry, now, present } = c;
  const submission = randomUUID();
  const at = iso(now());
  const removable = (key: PublisherKey) => !!registry.get(key).can.remove;
  const notes = input.deleteAt
    ? input.channels.filter((k) => !removable(k)).map((k) => ja.postNoRemoval(labelOf(k)))
    : [];
  // The accounts are read when the post is made: a store that reconnects to another
  // account later keeps the earlier account's count for the jobs already queued.
  const accounts = known ?? (await checkStoresConnected(c, stores, input.channels));
  // Stores whose agency requires approval (ADR 0095): their posts wait, with no job.
  const held = c.approvals ? await c.approvals.held(stores, actor) : new Map<number, never[]>();
  const made = await repo.transaction(async (tx, trx) => {
    // One statement per table, whatever the number of stores (issue 26 P9).
    const rows = await tx.insertMany(
      stores.map((store) => ({
        post: {
          submission_id: submission,
          store_id: store.id,
          author_id: actor.id,
          content: input.content,
          button_type: input.buttonType,
          button_link: input.buttonLink,
          phone_number: input.phoneNumber,
          channels: JSON.stringify(input.channels),
          publish_at: iso(input.publishAt),
          delete_at: input.deleteAt ? iso(input.deleteAt) : null,
          post_type: kind?.type ?? 'news',
          topic: kind?.topic ? JSON.stringify(kind.topic) : null,
          created_at: at,
          updated_at: at,
        },
        media: media.map((m, i) => ({ ...m, position: i, created_at: at })),
        targets: input.channels.map((key) => ({
          store_id: store.id,
          publisher_key: key,
          state: held.has(store.id) ? ('awaiting_approval' as const) : ('scheduled' as const),
          idempotency_key: `post-target:${randomUUID()}`,
          external_id: null,
          external_url: null,
          error_kind: null,
          error_lines: '[]',
          attempts: 0,
          retries: 0,
          sent_at: null,
          published_at: null,
          remove_at: input.deleteAt && removable(key) ? iso(input.deleteAt) : null,
          removed_at: null,
          created_at: at,
          updated_at: at,
          parts: null,
          account: accounts.get(`${store.id}:${key}`) ?? null,
        })),
      })),
    );
    const jobs: NewJob[] = [];
    for (const [i, { post, targets }] of rows.entries()) {
      const store = stores[i] as UserRow;
      const approvers = held.get(store.id);
      // Held: a request and its notices, no job (ADR 0095).
      if (approvers) await c.approvals?.open(trx, post, store, actor, approvers);
      for (const t of approvers ? [] : targets) {
        const job = jobOf(t);
        jobs.push({
          queue: PUBLISH_QUEUE,
          payload: job,
          opts: { key: t.idempotency_key, runAt: input.publishAt },
        });
        if (t.remove_at)
          jobs.push({
            queue: REMOVE_QUEUE,
            payload: job,
            opts: { key: removeKeyOf(t.idempotency_key), runAt: new Date(t.remove_at) },
          });
      }
    }
    await queue.enqueueMany(jobs, trx);
    await c.audit?.recordMany(
      rows.map(({ post }, i) => {
        const store = stores[i] as UserRow;
        return {
          actor,
          entity: 'post' as const,
          entityId: post.id,
          storeId: store.id,
          agencyId: store.agency_id,
          action: 'create' as const,
          summary: `投稿を作成（${input.channels.map(labelOf).join('、')}）`,
          after: postFields(post),
        };
      }),
      trx,
    );
    return rows.map((r) => r.post);
  });
  // The answer shows the first posts and counts the rest: it does not grow with the stores.
  const shown = await repo.bundles(made.slice(0, CREATED_POSTS_SHOWN));
  const heldCount = made.filter((p) => held.has(p.store_id)).length;
  return {
    submission_id: submission,
    post_count: made.length,
    held_count: heldCount,
    posts: await Promise.all(shown.map(present)),
    notes,
  };
}
