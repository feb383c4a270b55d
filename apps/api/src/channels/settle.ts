import type { ChannelRegistry, CredentialHandle, PostDraft, PublishedPost } from './channel';

/** Provider and server clocks differ a little; a post a bit "before" the send is still ours. */
const CLOCK_SKEW_MS = 2 * 60_000;

const URL_RE = /https?:\/\/[^\s\u3000]+/gi;
const URL_MARK = '\u0000url';

/**
 * Text as providers echo it back: NFC, whitespace folded, and every link one mark. X returns
 * its text with each link shortened to a t.co link (and the media's t.co link appended), so
 * links are compared as "a link here", never by their letters (ADR 0022).
 */
export const normalText = (s: string): string =>
  s.normalize('NFC').replace(URL_RE, URL_MARK).replace(/\s+/g, ' ').trim();

/** What a sent post is recognised by when its outcome is unknown. */
export type SentPost = Pick<PostDraft, 'text'> &
  Partial<Pick<PostDraft, 'media'>> & {
    /** The provider's ids of the media uploaded for this send (X): a post must carry them all. */
    mediaIds?: readonly string[];
    /** What the post carries; where the provider lists it, a video is matched only by a video. */
    kind?: 'text' | 'photo' | 'video';
  };

export type FindOptions = {
  /** An idempotency marker the text carries; then only a post carrying it matches. */
  marker?: string;
  /** Posts already recorded as ours (the other parts of a split post): never matched again. */
  exclude?: readonly string[];
};

/**
 * The post that a publish whose outcome is unknown left at the provider, if any: the newest
 * of the account's posts since the send whose text is the draft's, links normalised (X appends
 * a t.co link for media, so one more link at the end counts). Where the provider lists the
 * media a post carries, the post must carry the media uploaded for this send; where it lists
 * the kind, the kind must agree. Posts in `exclude` are never taken.
 */
export function findPublished(
  posts: readonly PublishedPost[],
  draft: SentPost,
  sentAt: Date,
  opts: FindOptions | string = {},
): PublishedPost | null {
  const { marker, exclude = [] } = typeof opts === 'string' ? { marker: opts } : opts;
  const want = normalText(draft.text);
  const withMediaLink = want === '' ? URL_MARK : `${want} ${URL_MARK}`;
  const since = sentAt.getTime() - CLOCK_SKEW_MS;
  const media = draft.mediaIds ?? [];
  return (
    posts.find((p) => {
      if (exclude.includes(p.id)) return false;
      if (p.createdAt && p.createdAt.getTime() < since) return false;
      // A video part and a photo or text post are never each other (a split post's text-less
      // video parts are told apart from its photos this way).
      if (draft.kind && p.kind && (draft.kind === 'video') !== (p.kind === 'video')) return false;
      if (media.length > 0 && p.mediaIds && !media.every((id) => p.mediaIds?.includes(id)))
        return false;
      const text = normalText(p.text);
      if (marker !== undefined && !p.text.includes(marker)) return false;
      return text === want || text === withMediaLink;
    }) ?? null
  );
}

export type Settled = { outcome: 'published'; post: PublishedPost } | { outcome: 'absent' };

/**
 * Settles a publish that ended `outcome_unknown` by reading the provider's posts since the send,
 * instead of sending it again: published (with the post found) or absent, so the caller may
 * publish once more. A failure to read leaves as the list call's ChannelError (still unknown).
 */
export async function settle(
  registry: ChannelRegistry,
  handle: CredentialHandle,
  draft: SentPost,
  sentAt: Date,
  opts: FindOptions | string = {},
): Promise<Settled> {
  const lister = registry.require(handle.publisher, 'listRecent');
  // Every post since the send, not the newest page: on an account many stores post to, the
  // one we look for may lie hundreds of posts down (ADR 0055).
  const posts = await lister.listRecent(handle, {
    since: new Date(sentAt.getTime() - CLOCK_SKEW_MS),
  });
  const post = findPublished(posts, draft, sentAt, opts);
  return post ? { outcome: 'published', post } : { outcome: 'absent' };
}
