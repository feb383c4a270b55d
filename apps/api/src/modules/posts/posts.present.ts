import type { StoredTopic } from './posts.draft';
import {
  formatPostDate,
  ja,
  publisherByKey,
  type PostApprovalState,
  type PostApprovalSummary,
  type PostView,
  type PublisherKey,
} from '@tenpo/domain';
import type { ChannelError } from '../../channels/channel';
import { googleFieldLabels } from '../../channels/google/google.fields';
import type { PostTargetRow } from '../../db/types';
import type { MediaStorage } from '../../storage';
import type { TargetPart } from './posts.parts';
import type { PostBundle } from './posts.repo';
import type { PostApprovalRow } from './posts.approvals.repo';

/** A request as a post shows it (ADR 0095). */
export const approvalSummary = (a: PostApprovalRow): PostApprovalSummary => ({
  id: a.id,
  post_id: a.post_id,
  user_id: a.store_id,
  state: a.state as PostApprovalState,
  author_email: a.author_email,
  decided_by_email: a.decided_by_email,
  decided_at: a.decided_at,
  note: a.note,
  created_at: a.created_at,
  expires_at: a.expires_at,
});

export const labelOf = (key: string): string => publisherByKey(key)?.label ?? key;

/** The Japanese lines a target shows for a channel failure (by class, never the vendor's text). */
export const failureLines = (
  key: PublisherKey,
  err: Pick<ChannelError, 'kind'> &
    Partial<Pick<ChannelError, 'fields'>> & { detail?: readonly string[] },
  what: 'publish' | 'remove',
): string[] => {
  const label = labelOf(key);
  const head = what === 'publish' ? ja.postPublishFailed(label) : ja.postRemoveFailed(label);
  switch (err.kind) {
    case 'reauth':
      return [head, ja.channelReauth(label)];
    case 'quota':
    case 'rate_limited':
      return [head, ja.channelQuota(label)];
    case 'transient':
      return [head, ja.channelRetry(label)];
    case 'outcome_unknown':
      return [ja.channelOutcomeUnknown(label)];
    case 'invalid': {
      // Google names the refused fields (ADR 0061): the post form's names of them, never its text.
      const fields =
        key === 'google_my_business' ? googleFieldLabels(err.fields ?? [], 'post') : [];
      // A refusal of our own that says why (media made for the channel, ADR 0062).
      return [
        head,
        ...(err.detail?.length ? err.detail : [ja.channelInvalid(label)]),
        ...(fields.length ? [ja.channelInvalidFields(label, fields.join('、'))] : []),
      ];
    }
    case 'blocked':
      return [head, ja.channelBlocked(label)];
  }
};

const parseLines = (text: string): string[] => {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

const tokyo = (isoText: string | null): string | null =>
  isoText ? formatPostDate(new Date(isoText)) : null;

/**
 * A failed target may be sent again from the screen, and so may one whose outcome stayed
 * unknown because the provider could not be read; one still waiting to be settled may not (its
 * job will settle it).
 */
export const isRetryable = (t: Pick<PostTargetRow, 'state' | 'error_kind'>): boolean =>
  t.state === 'failed' || (t.state === 'unknown' && t.error_kind !== 'outcome_unknown');

/** The one state a row shows for its targets (spec: "partially published" when mixed). */
export const overallState = (
  targets: readonly Pick<PostTargetRow, 'state'>[],
): PostView['state'] => {
  const n = (s: PostTargetRow['state'][]) => targets.filter((t) => s.includes(t.state)).length;
  // A held post's targets move together (ADR 0095).
  if (targets.length > 0 && n(['awaiting_approval']) === targets.length) return 'awaiting_approval';
  if (targets.length > 0 && n(['not_approved']) === targets.length) return 'not_approved';
  const live = n(['published', 'removing', 'removed']);
  const bad = n(['failed', 'unknown']);
  if (targets.length > 0 && n(['removed']) === targets.length) return 'removed';
  if (live === targets.length) return 'published';
  if (live > 0 && bad > 0 && live + bad === targets.length) return 'partially_published';
  if (bad === targets.length) return 'failed';
  if (n(['publishing']) > 0 || live > 0) return 'publishing';
  return 'scheduled';
};

/** A post as the screens read it: Tokyo times, media URLs from storage, one entry per target. */
/** The stored kind's fields as the screens read them (dates in the form's Tokyo format). */
const topicView = (json: string | null) => {
  if (!json) return null;
  const t = JSON.parse(json) as StoredTopic;
  return {
    title: t.title,
    start_date: tokyo(t.start),
    end_date: tokyo(t.end),
    coupon_code: t.coupon_code,
    redeem_link: t.redeem_link,
    terms: t.terms,
  };
};

export async function presentPost(b: PostBundle, storage: MediaStorage): Promise<PostView> {
  const medias = await Promise.all(
    b.media.map(async (m) => ({
      url: await storage.browserUrl(m.storage_key),
      kind: m.kind === 'video' ? ('video' as const) : ('photo' as const),
      mime: m.mime,
      bytes: m.bytes,
    })),
  );
  const channels = JSON.parse(b.post.channels) as string[];
  return {
    id: b.post.id,
    submission_id: b.post.submission_id,
    user_id: b.post.store_id,
    content: b.post.content,
    button_type: b.post.button_type,
    button_link: b.post.button_link,
    phone_number: b.post.phone_number,
    shared_sns_type: channels.join(','),
    publish_date: formatPostDate(new Date(b.post.publish_at)),
    delete_date: tokyo(b.post.delete_at),
    created_at: formatPostDate(new Date(b.post.created_at)),
    media_url: medias.map((m) => m.url),
    medias,
    state: overallState(b.targets),
    // In the schema's order: the answer is then written by one JSON.stringify (ADR 0099).
    targets: b.targets.map((t) => ({
      id: t.id,
      user_id: t.store_id,
      publisher_key: t.publisher_key as PublisherKey,
      state: t.state,
      time: formatPostDate(new Date(t.updated_at)),
      published_at: tokyo(t.published_at),
      removed_at: tokyo(t.removed_at),
      remove_at: tokyo(t.remove_at),
      url: t.external_url,
      external_id: t.external_id,
      error_kind: t.error_kind,
      errors: parseLines(t.error_lines),
      attempts: t.attempts,
      retryable: isRetryable(t),
      parts: t.parts
        ? (JSON.parse(t.parts) as TargetPart[]).map((x) => ({
            external_id: x.id,
            url: x.url,
            state: x.state,
          }))
        : [],
    })),
    post_type: b.post.post_type,
    topic: topicView(b.post.topic),
    approval: b.approval ? approvalSummary(b.approval) : null,
  };
}
