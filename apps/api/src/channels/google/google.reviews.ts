import {
  ChannelError,
  type Capabilities,
  type Grant,
  type GrantAccess,
  type ProviderReview,
  type ProviderReviewReply,
} from '../channel';
import type { GoogleClient, GoogleReview, GoogleReviewReply } from './google.client';

/** Google's largest reviews page (reviews.list `pageSize`: at most 50). */
export const REVIEWS_PAGE_SIZE = 50;

const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

/**
 * A reply's moderation (ReviewReplyState, 2026-04-01): Google's pending and rejected states map
 * to ours; no state (a reply made before 2026, or one Google has shown) is live.
 */
export const replyStateOf = (state: string | undefined): ProviderReviewReply['state'] => {
  switch (state) {
    case 'PENDING':
      return 'pending';
    case 'REJECTED':
      return 'rejected';
    default:
      return 'live';
  }
};

export const replyOf = (r: GoogleReviewReply | undefined): ProviderReviewReply | null =>
  r?.comment
    ? {
        comment: r.comment,
        updateTime: r.updateTime ?? '',
        state: replyStateOf(r.reviewReplyState),
        // ReviewReply.PolicyViolation: a string enum, set only when the reply was rejected.
        policyViolation: r.policyViolation || null,
      }
    : null;

export const reviewOf = (r: GoogleReview): ProviderReview => {
  if (!r.name) throw new ChannelError('transient', 'google: a review without its name');
  const anonymous = r.reviewer?.isAnonymous === true;
  return {
    name: r.name,
    reviewId: r.reviewId ?? r.name.split('/').pop() ?? r.name,
    reviewerName: anonymous ? '' : (r.reviewer?.displayName ?? ''),
    reviewerPhotoUrl: anonymous ? null : (r.reviewer?.profilePhotoUrl ?? null),
    isAnonymous: anonymous,
    stars: STARS[r.starRating ?? ''] ?? 0,
    comment: r.comment ? r.comment : null,
    media: (r.reviewMediaItems ?? [])
      .map((m) => ({
        thumbnailUrl: m.thumbnailUrl ?? m.googleUrl ?? '',
        videoUrl: m.videoUrl ?? null,
      }))
      .filter((m) => m.thumbnailUrl !== ''),
    createTime: r.createTime ?? '',
    updateTime: r.updateTime ?? r.createTime ?? '',
    reply: replyOf(r.reviewReply),
    replyUrl: r.reviewReplyUrl ?? null,
  };
};

/** The location's reviews (v4), under the account that holds the location. */
export function reviewsOf(
  client: GoogleClient,
  access: GrantAccess,
  parentOf: (g: Grant) => Promise<string>,
): NonNullable<Capabilities['reviews']> {
  return {
    list: (h, { pageToken }) =>
      access.use(h, async (g) => {
        const page = await client.listReviews(
          g.accessToken,
          await parentOf(g),
          REVIEWS_PAGE_SIZE,
          pageToken ?? null,
        );
        return {
          reviews: (page.reviews ?? []).map(reviewOf),
          averageRating: page.averageRating ?? null,
          totalReviewCount: page.totalReviewCount ?? 0,
          nextPageToken: page.nextPageToken || null,
        };
      }),
    get: (h, name) =>
      access.use(h, async (g) => reviewOf(await client.getReview(g.accessToken, name))),
    reply: (h, name, comment) =>
      access.use(h, async (g) => {
        const r = replyOf(await client.updateReply(g.accessToken, name, comment));
        if (!r) throw new ChannelError('transient', 'google: the reply came back empty');
        return r;
      }),
    reviewLink: (h) =>
      access.use(h, async (g) => {
        const location = (await parentOf(g)).split('/').pop() ?? '';
        const l = await client.getLocation(g.accessToken, location, 'metadata');
        return {
          newReviewUri: l.metadata?.newReviewUri ?? null,
          placeId: l.metadata?.placeId ?? null,
        };
      }),
    deleteReply: (h, name) =>
      access.use(h, async (g) => {
        try {
          await client.deleteReply(g.accessToken, name);
        } catch (err) {
          if (err instanceof ChannelError && err.status === 404) return;
          throw err;
        }
      }),
  };
}
