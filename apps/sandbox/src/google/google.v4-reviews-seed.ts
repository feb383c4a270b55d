// The Google emulator's reviews (google.fixtures.ts has their texts): seeded for every location
// over the last six months of the sandbox clock, drawn from each location's id so every run
// seeds the same ones, and the reviews customers write on the days after the seed.
import { createHash } from 'node:crypto';
import type { Dict } from '../shared/http';
import { seededDraw } from '../shared/runtime';
import {
  ownerReplies,
  rejectedReplySeeds,
  reviewerNames,
  reviewKindOf,
  reviewSeedCounts,
  reviewTexts,
  type ReviewTexts,
} from './google.fixtures';
import type { GLocation, GReview, GReviewMedia } from './google.state';

/** Review.StarRating without STAR_RATING_UNSPECIFIED, one star first. */
export const STAR_RATINGS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;
/**
 * The name shown for an anonymous reviewer. The reference only says `displayName` carries the
 * real name when `isAnonymous` is false; what it carries otherwise is not documented (UNCONFIRMED,
 * fixtures/google-reviews/README.md).
 */
export const ANONYMOUS_NAME = 'Google ユーザー';
/** Bumped when the seed changes: a state seeded with an older one is seeded again. */
export const REVIEWS_SEED_VERSION = 2;

const DAY = 86_400_000;
/** How far back the seeded reviews go. */
const SPAN_DAYS = 180;
/** A day's chance that a location with reviews gets a new one after the seed. */
const NEW_REVIEW_CHANCE = 0.07;
/** New reviews are drawn for at most this many days at once (a clock moved years ahead). */
const MAX_CATCH_UP_DAYS = 90;

/** The n-th number in [0, 1) of a sequence keyed by `key` (the same every run). */
function drawsOf(key: string): () => number {
  const seed = createHash('sha256').update(key).digest().readInt32BE(0);
  let n = 0;
  return () => seededDraw(seed, n++);
}

const pick = <T>(list: readonly T[], x: number): T =>
  list[Math.floor(x * list.length) % list.length] as T;

/** Stars as shops' reviews skew: mostly four and five, fewer threes, a tail of ones and twos. */
const starsOf = (x: number): number =>
  x < 0.46 ? 5 : x < 0.74 ? 4 : x < 0.86 ? 3 : x < 0.93 ? 2 : 1;

/**
 * An opaque id. Google's reviewId is "the encrypted unique identifier"; its format is not
 * documented, so the sandbox makes up a URL-safe one.
 */
export const reviewIdFor = (key: string): string =>
  createHash('sha256').update(`review:${key}`).digest('base64url').slice(0, 38);

const iso = (ms: number): string => new Date(ms).toISOString();

const textsOf = (loc: GLocation): ReviewTexts => {
  const primary = (loc.location.categories as Dict | undefined)?.primaryCategory as
    | Dict
    | undefined;
  return reviewTexts[reviewKindOf(String(primary?.name ?? ''))];
};

/** Photos (now and then a video) a reviewer attached, labelled as the author did, or not. */
function mediaOf(id: string, texts: ReviewTexts, draw: () => number): GReviewMedia[] {
  const n = 1 + Math.floor(draw() * 3);
  const video = draw() < 0.2;
  return Array.from({ length: n }, (_, i) => {
    const label = draw() < 0.5 ? pick(texts.photoLabels, draw()) : undefined;
    return {
      key: `${id.slice(0, 12)}-${i}`,
      ...(label ? { label } : {}),
      ...(video && i === 0 ? { video: true } : {}),
    };
  });
}

/** One customer's review written at `at` (ms); edited later now and then, never after `now`. */
export function draftReview(
  locationId: string,
  texts: ReviewTexts,
  key: string,
  at: number,
  now: number,
  draw: () => number,
): GReview {
  const id = reviewIdFor(`${locationId}:${key}`);
  const stars = starsOf(draw());
  const group = stars >= 4 ? texts.good : stars === 3 ? texts.mixed : texts.bad;
  const comment = draw() >= 0.18 ? pick(group, draw()) : undefined;
  const anonymous = draw() < 0.1;
  const name = pick(reviewerNames, draw());
  const withMedia = texts.photoLabels.length > 0 && draw() < 0.16;
  const edited = draw() < 0.08 ? Math.min(now, at + (1 + draw() * 10) * DAY) : at;
  return reviewRecord({
    locationId,
    id,
    stars,
    reviewer: anonymous ? null : name,
    comment,
    createTime: iso(at),
    updateTime: iso(edited),
    media: withMedia ? mediaOf(id, texts, draw) : [],
  });
}

/**
 * A review as the emulator keeps it, from what its customer wrote: `reviewer` null is an
 * anonymous one (Google's placeholder name, no photo). Seeded, due and control-written reviews.
 */
export function reviewRecord(p: {
  locationId: string;
  id: string;
  stars: number;
  reviewer: string | null;
  comment: string | undefined;
  createTime: string;
  updateTime: string;
  media: GReviewMedia[];
}): GReview {
  const anonymous = p.reviewer === null;
  return {
    locationId: p.locationId,
    id: p.id,
    review: {
      reviewId: p.id,
      reviewer: anonymous
        ? { displayName: ANONYMOUS_NAME, isAnonymous: true }
        : { displayName: p.reviewer, isAnonymous: false },
      starRating: STAR_RATINGS[p.stars - 1],
      ...(p.comment ? { comment: p.comment } : {}),
      createTime: p.createTime,
      updateTime: p.updateTime,
    },
    ...(anonymous ? {} : { photo: `rv-${p.id.slice(0, 12)}` }),
    ...(p.media.length ? { media: p.media } : {}),
    replyLiveAt: 0,
    replies: 0,
  };
}

/** The owner's reply, sent a few hours to days after the review and long since approved. */
function seededReply(r: GReview, now: number, draw: () => number): void {
  const at = Date.parse(String(r.review.updateTime));
  const good = r.review.starRating === 'FOUR' || r.review.starRating === 'FIVE';
  r.review.reviewReply = {
    comment: pick(good ? ownerReplies.good : ownerReplies.bad, draw()),
    updateTime: iso(Math.min(now, at + (0.1 + draw() * 3) * DAY)),
    reviewReplyState: 'APPROVED',
  };
}

/** Every location's seeded reviews, newest first within a location. */
export function seedReviews(locations: readonly GLocation[], now: number): GReview[] {
  return locations.flatMap((loc) => {
    const draw = drawsOf(loc.id);
    const count = reviewSeedCounts[loc.id] ?? 3 + Math.floor(draw() * 10);
    const texts = textsOf(loc);
    const list = Array.from({ length: count }, (_, i) => {
      const ageDays = ((i + 0.05 + draw() * 0.9) / count) * SPAN_DAYS;
      const r = draftReview(loc.id, texts, `s${i}`, now - ageDays * DAY, now, draw);
      // Recent reviews are less often answered yet.
      if (draw() < (ageDays < 7 ? 0.2 : 0.6)) seededReply(r, now, draw);
      return r;
    });
    const rejected = rejectedReplySeeds[loc.id];
    const target = list.find((r) => r.review.reviewReply);
    if (rejected && target)
      target.review.reviewReply = {
        ...(target.review.reviewReply as Dict),
        comment: rejected.comment,
        reviewReplyState: 'REJECTED',
        policyViolation: rejected.policyViolation,
      };
    return list;
  });
}

/**
 * The reviews customers wrote on days `fromDay + 1` … `toDay` after the seed (at most the last
 * MAX_CATCH_UP_DAYS of them): each day, each location that has reviews gets one with a chance
 * of NEW_REVIEW_CHANCE, at a time within that day, unanswered.
 */
export function dueReviews(
  locations: readonly GLocation[],
  seededAt: number,
  fromDay: number,
  toDay: number,
): GReview[] {
  const out: GReview[] = [];
  for (let d = Math.max(fromDay + 1, toDay - MAX_CATCH_UP_DAYS + 1); d <= toDay; d++)
    for (const loc of locations) {
      if (reviewSeedCounts[loc.id] === 0) continue;
      const draw = drawsOf(`${loc.id}:day:${d}`);
      if (draw() >= NEW_REVIEW_CHANCE) continue;
      const at = seededAt + (d - draw()) * DAY;
      out.push(draftReview(loc.id, textsOf(loc), `d${d}`, at, at, draw));
    }
  return out;
}

/** Days since the seed, as `dueReviews` counts them. */
export const dayOf = (seededAt: number, now: number): number => Math.floor((now - seededAt) / DAY);
