import type { ChannelRegistry, CredentialHandle, PostDraft, PublishedPost } from './channel';

/** Provider and server clocks differ a little; a post a bit "before" the send is still ours. */
const CLOCK_SKEW_MS = 2 * 60_000;

/** Text as providers echo it back: normalised, whitespace folded, X's t.co suffix ignored. */
const normal = (s: string): string => s.normalize('NFC').replace(/\s+/g, ' ').trim();

/**
 * The post that a publish whose outcome is unknown left at the provider, if any: the newest
 * of the account's posts since the send whose text is the draft's (X appends a t.co link for
 * media, so a prefix match counts). `marker`, when given, is an idempotency marker the draft's
 * text carries; then only a post carrying it matches.
 */
export function findPublished(
  posts: readonly PublishedPost[],
  draft: Pick<PostDraft, 'text'>,
  sentAt: Date,
  marker?: string,
): PublishedPost | null {
  const want = normal(draft.text);
  const since = sentAt.getTime() - CLOCK_SKEW_MS;
  return (
    posts.find((p) => {
      if (p.createdAt && p.createdAt.getTime() < since) return false;
      const text = normal(p.text);
      if (marker !== undefined && !text.includes(marker)) return false;
      return text === want || (want !== '' && text.startsWith(`${want} https://t.co/`));
    }) ?? null
  );
}

export type Settled = { outcome: 'published'; post: PublishedPost } | { outcome: 'absent' };

/**
 * Settles a publish that ended `outcome_unknown` by reading the provider's recent posts,
 * instead of sending it again: published (with the post found) or absent, so the caller may
 * publish once more. A failure to read leaves as the list call's ChannelError (still unknown).
 */
export async function settle(
  registry: ChannelRegistry,
  handle: CredentialHandle,
  draft: PostDraft,
  sentAt: Date,
  marker?: string,
): Promise<Settled> {
  const lister = registry.require(handle.publisher, 'listRecent');
  const posts = await lister.listRecent(handle, {
    since: new Date(sentAt.getTime() - CLOCK_SKEW_MS),
    limit: 50,
  });
  const post = findPublished(posts, draft, sentAt, marker);
  return post ? { outcome: 'published', post } : { outcome: 'absent' };
}
