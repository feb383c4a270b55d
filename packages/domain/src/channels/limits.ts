import type { PublisherKey } from '../publishers/publishers';

/** A budget of calls in a window, counted per account (store grant) or per app (all of ours). */
export type RateLimit = {
  /**
   * What the provider counts: a call kind of its own, named for our limiters. `user_token`:
   * calls made with a user's token rather than a page's or an account's (Facebook's page list
   * while connecting), which no job makes.
   */
  call: 'any' | 'publish' | 'remove' | 'edit_location' | 'user_token';
  per: 'account' | 'app';
  limit: number;
  windowMs: number;
};

export type ChannelLimits = {
  /** Longest post text, in the channel's own counting (X: weighted, spec 1 §9 says 160). */
  textMaxLength: number;
  /** How the length is counted: plain code points, or X's weighted count (CJK counts 2). */
  textCounting: 'chars' | 'x_weighted';
  /** Media files (photos and videos) on one post: spec 2 §5's media count per channel. */
  maxImages: number;
  /** Posts per rolling 24 hours per account; null when the channel sets none we act on. */
  postsPer24h: number | null;
  rateLimits: readonly RateLimit[];
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Every per-channel limit Tenpo acts on, in one table (CONVENTIONS: no shared code branches on
 * a channel name). Figures from reference/providers.md; where the providers' documents
 * disagree the stricter figure is kept and noted. The job engine's limiters read `rateLimits`.
 */
export const CHANNEL_LIMITS: Readonly<Record<PublisherKey, ChannelLimits>> = {
  google_my_business: {
    // A UI rule at Google (providers.md §1.6, unconfirmed for the API).
    textMaxLength: 1500,
    textCounting: 'chars',
    maxImages: 1,
    postsPer24h: null,
    rateLimits: [
      // Every GBP API defaults to 300 queries per minute per project (§1.2).
      { call: 'any', per: 'app', limit: 300, windowMs: MINUTE },
      // Business Information: 10 edits per minute per profile, not raisable (§1.2).
      { call: 'edit_location', per: 'account', limit: 10, windowMs: MINUTE },
    ],
  },
  facebook: {
    textMaxLength: 63_206,
    textCounting: 'chars',
    // Spec 2 §5 (the form's count); Facebook documents no cap on attached_media.
    maxImages: 80,
    postsPer24h: null,
    rateLimits: [
      // Pages business-use-case budget: about 4,800 × engaged users per 24 h (§2.5); one
      // engaged user is the floor we can count on.
      { call: 'any', per: 'account', limit: 4800, windowMs: DAY },
      // Platform limit: about 200 × daily active users per rolling hour, for calls made with
      // user or app tokens only (§2.5). Posts and removals use the page's token and count
      // against the page's budget above, so this one never holds a post back.
      { call: 'user_token', per: 'app', limit: 200, windowMs: HOUR },
    ],
  },
  instagram: {
    // Caption limit (§3.2).
    textMaxLength: 2200,
    textCounting: 'chars',
    maxImages: 10,
    // Meta has said 25, 50 and 100 (§3.2 [CONFLICT]); the spec's 25 is the safe floor. The
    // content_publishing_limit endpoint's quota_total is the live figure when read.
    postsPer24h: 25,
    rateLimits: [
      { call: 'publish', per: 'account', limit: 25, windowMs: DAY },
      { call: 'any', per: 'account', limit: 4800, windowMs: DAY },
    ],
  },
  twitter: {
    // Spec 1 §9 (DESIGN §10): 160, stricter than X's 280 weighted.
    textMaxLength: 160,
    textCounting: 'x_weighted',
    maxImages: 4,
    postsPer24h: null,
    rateLimits: [
      // POST /2/tweets: 100 per 15 min per user, 10,000 per 24 h per app (§4.5 [CONFLICT];
      // the current table's figures).
      { call: 'publish', per: 'account', limit: 100, windowMs: 15 * MINUTE },
      { call: 'publish', per: 'app', limit: 10_000, windowMs: DAY },
      // DELETE /2/tweets/:id: 50 per 15 min per user.
      { call: 'remove', per: 'account', limit: 50, windowMs: 15 * MINUTE },
    ],
  },
};

export const channelLimits = (key: PublisherKey): ChannelLimits => CHANNEL_LIMITS[key];

/** The limits of one kind of call on a channel (what a limiter for that call must honour). */
export const rateLimitsFor = (key: PublisherKey, call: RateLimit['call']): readonly RateLimit[] =>
  CHANNEL_LIMITS[key].rateLimits.filter((r) => r.call === call || r.call === 'any');
