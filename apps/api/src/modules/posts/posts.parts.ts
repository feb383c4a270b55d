import { splitPost, type PostPart, type PublisherKey } from '@tenpo/domain';
import type { PublishResume } from '../../channels/channel';
import type { PostMediaRow, PostTargetRow } from '../../db/types';

/**
 * One provider post of a target. A target is one store × channel; on Facebook and X a post
 * with photos and videos goes out as several provider posts (spec 2 §4, `splitPost`), each
 * sent, settled and removed on its own, and recorded here in the order of the split.
 */
export type TargetPart = {
  /** The provider's post id once it is live. */
  id: string | null;
  url: string | null;
  state: 'pending' | 'published' | 'removed';
  /**
   * When this part's publish was last sent (wall clock), while its outcome is not known: set
   * means the provider is read (settled) before this part is sent again.
   */
  sent_at: string | null;
  /** The provider's ids of the media uploaded for that send (X), which settling looks for. */
  media_ids: string[];
  removed_at: string | null;
  /**
   * What the provider is still preparing for this part (Instagram's containers, ADR 0063):
   * the next send resumes it instead of making it again. Absent on parts written before.
   */
  resume?: PublishResume | null;
  /**
   * The provider's review of the post `id` names, where it reviews posts after taking them
   * (Google; ADR 0060): `processing` while it is read again until it ends, `rejected` once
   * refused (the part stays pending: a retry sends it anew). Absent on other channels.
   */
  review?: 'processing' | 'rejected' | null;
  /** When the current review watch began (the 24 h bound counts from it); null after a give-up. */
  review_since?: string | null;
  /** Reads of the review so far in this watch (the next wait doubles with each). */
  review_checks?: number;
  /**
   * The review is of an edit (Google answers a PATCH of a live post PROCESSING; ADR 0060): the
   * post `id` names stays the part's post whatever the review says. Refused, it is edited and
   * PATCHed again by a retry, never made anew.
   */
  edit_review?: boolean | null;
  /** Posts made for this part before and refused (rejected): never settled as this send. */
  past_ids?: string[];
};

const pending = (): TargetPart => ({
  id: null,
  url: null,
  state: 'pending',
  sent_at: null,
  media_ids: [],
  removed_at: null,
});

/** The media of a post as `splitPost` reads them (post_media.kind is image or video). */
const kindOf = (m: PostMediaRow) => (m.kind === 'video' ? ('video' as const) : ('image' as const));

/** How this post goes out on this channel: the split's parts with their media rows. */
export const splitOf = (
  key: PublisherKey,
  media: readonly PostMediaRow[],
): PostPart<PostMediaRow>[] =>
  splitPost(
    key,
    media.map((m) => ({ ...m, kind: kindOf(m) })),
  );

/**
 * The target's parts, `count` of them. A target written before parts were recorded (or never
 * sent yet) has none: its parts start pending, the first one inheriting the target's send
 * time (a send in flight is settled) and, once published, its external id.
 */
export function partsOf(
  t: Pick<
    PostTargetRow,
    'parts' | 'sent_at' | 'external_id' | 'external_url' | 'state' | 'removed_at'
  >,
  count: number,
): TargetPart[] {
  if (t.parts) {
    const stored = JSON.parse(t.parts) as TargetPart[];
    while (stored.length < count) stored.push(pending());
    return stored;
  }
  const parts = Array.from({ length: Math.max(1, count) }, pending);
  const first = parts[0] as TargetPart;
  first.sent_at = t.sent_at;
  if (t.external_id && ['published', 'removing', 'removed'].includes(t.state)) {
    first.id = t.external_id;
    first.url = t.external_url;
    first.state = t.state === 'removed' ? 'removed' : 'published';
    first.removed_at = t.removed_at;
    first.sent_at = null;
  }
  return parts;
}

/** The parts as stored. */
export const partsJson = (parts: readonly TargetPart[]): string => JSON.stringify(parts);

/** The ids of the parts that are live at the provider. */
export const liveIds = (parts: readonly TargetPart[]): string[] =>
  parts.filter((p) => p.state === 'published' && p.id).map((p) => p.id as string);

/** Every id recorded as ours (live or removed): settling never takes one of them again. */
export const recordedIds = (parts: readonly TargetPart[]): string[] => [
  ...parts.filter((p) => p.id).map((p) => p.id as string),
  ...parts.flatMap((p) => p.past_ids ?? []),
];
