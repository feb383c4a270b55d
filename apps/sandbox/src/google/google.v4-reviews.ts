// Reviews on the Business Profile v4 API: list (newest first by default, pages of up to 50, with
// the location's averageRating and totalReviewCount), get, updateReply (a PUT that creates or
// replaces the one reply) and deleteReply. Field names and enum values follow Google's reference
// (fixtures/google-reviews/README.md cites the pages and the date read):
// https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews and
// https://developers.google.com/my-business/reference/rpc/google.mybusiness.v4 (ReviewReply,
// ReviewReply.State, ReviewReply.PolicyViolation, Review.ReviewMediaItem).
// Since 2026-04-01 Google moderates a reply: `reviewReplyState` is PENDING until the emulated
// moderation ends (the first read after `postLiveAfterMs`), then APPROVED, or REJECTED with a
// `policyViolation` when the reply holds REJECT_MARKER. Seeded reviews: google.v4-reviews-seed.ts.
import type { FastifyRequest } from 'fastify';
import { field, type Dict, type PathRouter } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { notFound, v4ValidationError } from './google.errors';
import { decodePage, encodePage, intParam } from './google.business';
import { locationFixtures } from './google.fixtures';
import type { GoogleState, GReplyEvent, GReview } from './google.state';
import { REJECT_MARKER, stamp, v4Parent, type V4Ctx } from './google.v4-common';
import {
  dayOf,
  dueReviews,
  REVIEWS_SEED_VERSION,
  seedReviews,
  STAR_RATINGS,
} from './google.v4-reviews-seed';

export { STAR_RATINGS };
/** ReviewReply.comment: "The maximum length is 4096 bytes." */
export const REPLY_MAX_BYTES = 4096;
/**
 * reviews.list `pageSize`: "The maximum page_size is 50." ListReviewsRequest names no default;
 * BatchGetReviewsRequest's is 50, which the emulator also uses here (UNCONFIRMED).
 */
export const REVIEWS_MAX_PAGE = 50;
/** ReviewReply.State, as the reference lists it. */
export const REPLY_STATES = ['REVIEW_REPLY_STATE_UNSPECIFIED', 'PENDING', 'REJECTED', 'APPROVED'];
/**
 * ReviewReply.PolicyViolation, as the reference lists it ("New values may be added in the
 * future"): the same standardized list Business Information's PolicyViolation has.
 */
export const POLICY_VIOLATIONS = [
  'POLICY_VIOLATION_UNSPECIFIED',
  'ACCOUNT_RESTRICTED_AND_SUSPENDED',
  'ACCOUNT_RESTRICTED_AND_EDIT_REJECTED',
  'ASSOCIATED_ACCOUNT_SUSPENDED',
  'BUSINESS_INELIGIBLE',
  'OWNERSHIP_REVOKED',
  'LOCATION_SUSPENDED',
  'LOCATION_DISABLED',
  'LOCATION_VERIFICATION_REQUIRED',
  'PO_BOX',
  'GOOGLE_PAY_SUSPENSION',
  'EDITING_RESTRICTION',
  'ILLEGAL_BUSINESS_HOURS_EDIT',
  'FAKE_ENGAGEMENT',
  'ADULT_THEMED',
  'SEXUALLY_EXPLICIT',
  'ADVERTISING_AND_SOLICITATION',
  'DANGEROUS',
  'GIBBERISH_AND_REPETITIVE',
  'REPETITIVE',
  'UNCLEAR',
  'ILLEGAL',
  'OFF_TOPIC',
  'OFFENSIVE',
  'VIOLENCE_AND_GORE',
  'CHILD_SAFETY',
  'HARASSMENT',
  'HATE_SPEECH',
  'IMPERSONATION',
  'MISINFORMATION',
  'MISREPRESENTATION',
  'OBSCENITY_AND_PROFANITY',
  'PERSONAL_INFO',
  'REGULATED_GOODS_AND_SERVICES',
  'GENERIC_VANDALISM',
  'GENERIC_FRAUD',
  'PHOTOS_AND_VIDEOS_CRITERIA',
  'MODERATION_ERROR',
  'PRIVACY',
  'GENERIC_VIOLATION',
  'GENERIC_QUALITY',
  'IDENTITY_CHANGE',
  'GEOGRAPHIC_LOCATION_CHANGE',
];
/** The violation a reply holding the bare REJECT_MARKER is rejected with. */
export const DEFAULT_VIOLATION = 'GENERIC_VIOLATION';

const REVIEWS = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews$/;
const REVIEW = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews\/([^/:]+)$/;
const REPLY = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews\/([^/:]+)\/reply$/;
const FIXTURE_LOCATIONS = new Set(locationFixtures().map((l) => l.id));

/**
 * The reviews of every seeded location: seeded on first use (and again over a state seeded
 * with an older seed), and joined by the reviews customers wrote on the days since.
 */
export function reviewsOf(store: JsonStore<GoogleState>, rt: Runtime): GReview[] {
  const s = store.data;
  const now = rt.now();
  const seeded = s.locations.filter((l) => FIXTURE_LOCATIONS.has(l.id));
  if (!s.reviews || s.reviewsVersion !== REVIEWS_SEED_VERSION) {
    s.reviews = seedReviews(seeded, now);
    s.reviewsVersion = REVIEWS_SEED_VERSION;
    s.reviewsSeededAt = now;
    s.reviewsDay = 0;
    store.save();
  }
  const since = s.reviewsSeededAt ?? now;
  const today = dayOf(since, now);
  if (today > (s.reviewsDay ?? 0)) {
    s.reviews.push(...dueReviews(seeded, since, s.reviewsDay ?? 0, today));
    s.reviewsDay = today;
    store.save();
  }
  return s.reviews;
}

export const logEvent = (r: GReview, e: GReplyEvent): void => {
  r.history = [...(r.history ?? []), e].slice(-50);
};

/**
 * The violation a reply will be rejected with: `sandbox:reject` → DEFAULT_VIOLATION, and
 * `sandbox:reject:OFF_TOPIC` (any value of POLICY_VIOLATIONS) → that one; null: approved.
 */
export function violationFor(comment: string): string | null {
  const at = comment.indexOf(REJECT_MARKER);
  if (at < 0) return null;
  const named = /^:([A-Z_]+)/.exec(comment.slice(at + REJECT_MARKER.length))?.[1];
  return named && POLICY_VIOLATIONS.includes(named) && named !== 'POLICY_VIOLATION_UNSPECIFIED'
    ? named
    : DEFAULT_VIOLATION;
}

/** Google ends the reply's moderation: APPROVED, or REJECTED with a PolicyViolation. */
export function moderate(rt: Runtime, r: GReview, state: string, violation?: string): void {
  const reply = r.review.reviewReply as Dict | undefined;
  if (!reply) return;
  reply.reviewReplyState = state;
  if (state === 'REJECTED') reply.policyViolation = violation ?? DEFAULT_VIOLATION;
  else delete reply.policyViolation;
  logEvent(r, {
    op: 'moderation',
    at: stamp(rt),
    state,
    ...(state === 'REJECTED' ? { policyViolation: reply.policyViolation as string } : {}),
  });
}

/** A pending reply whose moderation time has come is settled by the read that sees it. */
export function settle(rt: Runtime, r: GReview): boolean {
  const reply = r.review.reviewReply as Dict | undefined;
  if (!reply || reply.reviewReplyState !== 'PENDING' || rt.now() < r.replyLiveAt) return false;
  moderate(rt, r, r.replyVerdict ? 'REJECTED' : 'APPROVED', r.replyVerdict ?? undefined);
  return true;
}

/**
 * Why Google refuses a reply's text, or null: required, and at most 4,096 bytes of UTF-8. How
 * Google words these refusals is not documented; ErrorCode 2 is the code of a recorded "is
 * required" answer (fixtures/google-errors), 3 the emulator's code for an invalid value.
 */
export function replyViolation(comment: unknown): { code: number; message: string } | null {
  if (typeof comment !== 'string' || comment.trim() === '')
    return { code: 2, message: 'comment is required.' };
  if (Buffer.byteLength(comment, 'utf8') > REPLY_MAX_BYTES)
    return { code: 3, message: `comment exceeds the maximum length of ${REPLY_MAX_BYTES} bytes.` };
  return null;
}

/** updateReply: the one reply is created or replaced, PENDING until Google's moderation ends. */
export function putReply(rt: Runtime, r: GReview, comment: string): Dict {
  const reply = { comment, updateTime: stamp(rt), reviewReplyState: 'PENDING' };
  r.review.reviewReply = reply;
  r.replyLiveAt = rt.now() + rt.settings().google.postLiveAfterMs;
  r.replyVerdict = violationFor(comment);
  r.replies += 1;
  logEvent(r, { op: 'updateReply', at: reply.updateTime, comment });
  return { ...reply };
}

/**
 * reviewReplyUrl (2026-07-24): "URL for replying to the review". Its real form is not
 * documented; the sandbox serves its own reply page there (google.v4-reviews-control.ts).
 */
export const replyUrlOf = (rt: Runtime, name: string): string =>
  `${rt.baseUrl}/google/review-reply?review=${encodeURIComponent(name)}`;

/** The Review as Google answers it, its fields in the reference's order. */
export function reviewJson(rt: Runtime, accountId: string, r: GReview): Dict {
  const name = `accounts/${accountId}/locations/${r.locationId}/reviews/${r.id}`;
  const v = r.review;
  const lh3 = `${rt.baseUrl}/google/lh3`;
  const reviewer = v.reviewer as Dict;
  return {
    name,
    reviewId: v.reviewId,
    reviewer: r.photo ? { profilePhotoUrl: `${lh3}/a/${r.photo}`, ...reviewer } : { ...reviewer },
    starRating: v.starRating,
    ...(v.comment !== undefined ? { comment: v.comment } : {}),
    createTime: v.createTime,
    updateTime: v.updateTime,
    ...(v.reviewReply ? { reviewReply: { ...(v.reviewReply as Dict) } } : {}),
    ...(r.media?.length
      ? {
          reviewMediaItems: r.media.map((m) => ({
            thumbnailUrl: `${lh3}/p/${m.key}`,
            ...(m.label ? { thumbnailLabel: m.label } : {}),
            ...(m.video ? { videoUrl: `${lh3}/v/${m.key}` } : {}),
          })),
        }
      : {}),
    reviewReplyUrl: replyUrlOf(rt, name),
  };
}

const starsOf = (r: GReview) => STAR_RATINGS.indexOf(r.review.starRating as never) + 1;
const byUpdateDesc = (x: GReview, y: GReview) =>
  String(y.review.updateTime).localeCompare(String(x.review.updateTime));
/** orderBy: `updateTime desc` (the default), `rating` (ascending), `rating desc`. */
const ORDERS: Record<string, (x: GReview, y: GReview) => number> = {
  'updateTime desc': byUpdateDesc,
  'update_time desc': byUpdateDesc,
  rating: (x, y) => starsOf(x) - starsOf(y) || byUpdateDesc(x, y),
  'rating desc': (x, y) => starsOf(y) - starsOf(x) || byUpdateDesc(x, y),
};

/** A location's reviews.list page (ListReviewsResponse; proto3 JSON leaves zero values out). */
function listReviews(ctx: V4Ctx, req: FastifyRequest, a: string, l: string): Dict {
  const { rt, store } = ctx;
  const pageSize =
    intParam(req, ['pageSize', 'page_size'], 'page_size', 0, REVIEWS_MAX_PAGE, 0) ||
    REVIEWS_MAX_PAGE;
  const offset = decodePage(field(req, 'pageToken') ?? field(req, 'page_token'));
  const order = (field(req, 'orderBy') ?? field(req, 'order_by') ?? 'updateTime desc')
    .trim()
    .replace(/\s+/g, ' ');
  const sort = ORDERS[order];
  if (!sort)
    throw v4ValidationError([
      { code: 3, field: 'order_by', message: `Invalid order_by: ${order}`, value: order },
    ]);
  const all = reviewsOf(store, rt)
    .filter((r) => r.locationId === l && !r.deleted)
    .sort(sort);
  const page = all.slice(offset, offset + pageSize);
  if (page.map((r) => settle(rt, r)).some(Boolean)) store.save();
  const rated = all.map(starsOf).filter((n) => n > 0);
  const average = rated.length ? rated.reduce((s, n) => s + n, 0) / rated.length : 0;
  return {
    ...(page.length ? { reviews: page.map((r) => reviewJson(rt, a, r)) } : {}),
    // One decimal, as Maps shows it; how Google rounds averageRating is not documented.
    ...(average ? { averageRating: Math.round(average * 10) / 10 } : {}),
    ...(all.length ? { totalReviewCount: all.length } : {}),
    ...(offset + pageSize < all.length ? { nextPageToken: encodePage(offset + pageSize) } : {}),
  };
}

export function registerV4Reviews(router: PathRouter, ctx: V4Ctx): void {
  const { rt, store } = ctx;
  const find = (l: string, id: string) => {
    const r = reviewsOf(store, rt).find((x) => x.locationId === l && x.id === id && !x.deleted);
    if (!r) throw notFound();
    return r;
  };

  router.add('GET', REVIEWS, async (req, _reply, [a, l]) => {
    await v4Parent(ctx, req, a as string, l as string);
    return listReviews(ctx, req, a as string, l as string);
  });

  router.add('GET', REVIEW, async (req, _reply, [a, l, id]) => {
    await v4Parent(ctx, req, a as string, l as string);
    const r = find(l as string, id as string);
    if (settle(rt, r)) store.save();
    return reviewJson(rt, a as string, r);
  });

  // The body is a ReviewReply; only `comment` is written, the output-only fields are ignored.
  router.add('PUT', REPLY, async (req, _reply, [a, l, id]) => {
    await v4Parent(ctx, req, a as string, l as string);
    const r = find(l as string, id as string);
    const body = req.body && typeof req.body === 'object' ? (req.body as Dict) : {};
    const bad = replyViolation(body.comment);
    if (bad) throw v4ValidationError([{ ...bad, field: 'comment' }]);
    const reply = putReply(rt, r, body.comment as string);
    store.save();
    return reply;
  });

  // Answers Empty (`{}`). A review without a reply answers NOT_FOUND (UNCONFIRMED).
  router.add('DELETE', REPLY, async (req, _reply, [a, l, id]) => {
    await v4Parent(ctx, req, a as string, l as string);
    const r = find(l as string, id as string);
    if (!r.review.reviewReply) throw notFound();
    delete r.review.reviewReply;
    r.replyVerdict = null;
    logEvent(r, { op: 'deleteReply', at: stamp(rt) });
    store.save();
    return {};
  });
}
