import type { PostView } from '@tenpo/domain';
import type { ChannelRegistry } from '../../channels/channel';
import type { Queue } from '../../jobs/engine';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { MediaStorage } from '../../storage';
import type { PublisherService } from '../publisher/publisher.service';
import { presentPost } from './posts.present';
import type { PostsRepo } from './posts.repo';
import type { AuditLog } from '../audit/audit.repo';
import type { PostApprovals } from './posts.approvals';

/** What the posts service's parts run on (posts.service.ts puts them together). */
export type PostsDeps = {
  repo: PostsRepo;
  publishers: Pick<PublisherService, 'row' | 'rows'>;
  registry: ChannelRegistry;
  queue: Queue;
  storage: MediaStorage;
  clock: Clock;
  /** This install's address: a `medias[n]` URL under it names one of our own objects. */
  publicUrl: string;
  /** Each post made, edited or deleted is recorded, per store (ADR 0047). */
  audit?: AuditLog;
  /** Posts held for approval by their agency's rule (ADR 0095); none: every post is scheduled. */
  approvals?: Pick<PostApprovals, 'held' | 'open' | 'removed'>;
};

export type PostsContext = PostsDeps & {
  now: () => Date;
  present: (b: Parameters<typeof presentPost>[0]) => Promise<PostView>;
};

export function createPostsContext(deps: PostsDeps): PostsContext {
  const { storage, clock } = deps;
  return {
    ...deps,
    now: () => clock.now(),
    present: (b) => presentPost(b, storage),
  };
}

/** A post's fields as the audit log shows them (ADR 0047). */
export const postFields = (p: {
  content: string;
  channels: string;
  publish_at: string;
  delete_at: string | null;
  post_type: string;
  topic: string | null;
}) => ({
  content: p.content,
  channels: JSON.parse(p.channels) as unknown,
  publish_at: p.publish_at,
  delete_at: p.delete_at,
  post_type: p.post_type,
  topic: p.topic ? (JSON.parse(p.topic) as unknown) : null,
});

/** The post, if it belongs to one of these stores (404 otherwise, as for a foreign store). */
export async function onePost(
  c: PostsContext,
  id: number,
  storeIds: readonly number[],
): Promise<PostView> {
  const b = await c.repo.one(id);
  if (!b || !storeIds.includes(b.post.store_id)) throw notFound();
  return c.present(b);
}
