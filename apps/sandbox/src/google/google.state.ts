import type { FetchedMedia } from '../shared/media';
import { SANDBOX_CLIENT } from '../shared/oauth';
import { jsonStore, type JsonStore } from '../shared/store';
import { googleDemoGrants, googleUsers, locationFixtures } from './google.fixtures';

export type GAccount = {
  id: string;
  accountName: string;
  type: 'PERSONAL' | 'LOCATION_GROUP';
  ownerEmail: string;
};
export type GLocation = { id: string; accountId: string; location: Record<string, unknown> };
export type GCode = {
  code: string;
  clientId: string;
  redirectUri: string;
  email: string;
  scope: string;
  issueRefresh: boolean;
  expiresAt: number;
  used: boolean;
  codeChallenge?: string;
  codeChallengeMethod?: string;
};
export type GRefresh = {
  token: string;
  clientId: string;
  email: string;
  scope: string;
  revoked: boolean;
  createdAt: number;
};
export type GAccess = {
  token: string;
  clientId: string;
  email: string;
  scope: string;
  expiresAt: number;
  refreshToken?: string;
  revoked: boolean;
};
export type GPost = {
  id: string;
  accountId: string;
  locationId: string;
  post: Record<string, unknown>;
  liveAt: number;
  reject: boolean;
  deleted: boolean;
  /** What was fetched from each `media[].sourceUrl` (size, type from the bytes). */
  fetched?: FetchedMedia[];
};
export type GMedia = {
  key: string;
  accountId: string;
  locationId: string;
  item: Record<string, unknown>;
  blob?: string;
};
export type GUpload = {
  resourceName: string;
  accountId: string;
  locationId: string;
  blob: string;
  uploaded: boolean;
};

/** A photo or video a reviewer attached (Review.ReviewMediaItem), drawn by the sandbox. */
export type GReviewMedia = { key: string; label?: string; video?: boolean };

/** What happened to a review's reply at Google, oldest first (read by tests through a control). */
export type GReplyEvent = {
  op: 'updateReply' | 'deleteReply' | 'moderation';
  at: string;
  comment?: string;
  state?: string;
  policyViolation?: string;
};

/**
 * A review of a location: the v4 Review as Google answers it, without `name`, `reviewReplyUrl`
 * and the image URLs (drawn from `photo`/`media` against the sandbox's base URL when answered),
 * and the emulator's bookkeeping.
 */
export type GReview = {
  locationId: string;
  id: string;
  review: Record<string, unknown>;
  /** Key of the reviewer's profile photo (none for an anonymous reviewer). */
  photo?: string;
  media?: GReviewMedia[];
  /** When the reply's moderation ends (the first read after it settles it). */
  replyLiveAt: number;
  /** The PolicyViolation the pending reply will be rejected with; null: it will be approved. */
  replyVerdict?: string | null;
  /** How many times updateReply was called on it (tests count at Google's side). */
  replies: number;
  /** updateReply / deleteReply / moderation events, newest last (at most 50). */
  history?: GReplyEvent[];
  /** The customer deleted the review: get answers NOT_FOUND, list leaves it out. */
  deleted?: boolean;
};

export type GoogleState = {
  accounts: GAccount[];
  locations: GLocation[];
  codes: GCode[];
  refreshTokens: GRefresh[];
  accessTokens: GAccess[];
  posts: GPost[];
  media: GMedia[];
  uploads: GUpload[];
  /**
   * Daily values set through `POST {S}/control/google/daily-metric` in place of the generated
   * ones: Google revises recent days, and a test needs to see a revision arrive.
   */
  metricOverrides?: { locationId: string; metric: string; day: string; value: number }[];
  /**
   * Google's own review of a location's listing, set through `POST {S}/control/google/listing-
   * review` (ADR 0061): fields Google shows with its own value (`overrides`, top-level Location
   * fields), and, while `holdPending`, edits kept pending — Maps shows the value from before
   * (`pendingBefore`) until released. Served by getGoogleUpdated and `metadata`.
   */
  listingReview?: GListingReview[];
  /** Customers' reviews of the locations (v4 reviews), seeded on first use. */
  reviews?: GReview[];
  /** Which seed the reviews are of (a state saved with an older one is seeded again). */
  reviewsVersion?: number;
  /** When they were seeded: new reviews arrive on later days (google.v4-reviews-seed.ts). */
  reviewsSeededAt?: number;
  /** The last day (since `reviewsSeededAt`) whose new reviews have arrived. */
  reviewsDay?: number;
};

export type GListingReview = {
  locationId: string;
  overrides: Record<string, unknown>;
  holdPending: boolean;
  /** Field → the value Maps shows while the edit is pending (null: the field was unset). */
  pendingBefore: Record<string, unknown>;
};

/** The demo stores' pre-issued grants (google.fixtures.ts) as the token endpoint keeps them. */
const demoRefreshTokens = (now: number): GRefresh[] =>
  googleDemoGrants.map((g) => ({
    token: g.refreshToken,
    clientId: SANDBOX_CLIENT.id,
    email: g.email,
    scope: g.scope,
    revoked: false,
    createdAt: now,
  }));

/** Every seeded user's personal account, then the location groups it owns. */
const seededAccounts = (): GAccount[] =>
  googleUsers.flatMap((u) => [
    { id: u.accountId, accountName: u.accountName, type: 'PERSONAL' as const, ownerEmail: u.email },
    ...(u.groups ?? []).map((g) => ({
      id: g.accountId,
      accountName: g.accountName,
      type: 'LOCATION_GROUP' as const,
      ownerEmail: u.email,
    })),
  ]);

export const seedGoogle = (now: number): GoogleState => ({
  accounts: seededAccounts(),
  locations: locationFixtures(),
  codes: [],
  refreshTokens: demoRefreshTokens(now),
  accessTokens: [],
  posts: [],
  media: [],
  uploads: [],
});

/**
 * A state saved before some demo grants existed gets them on load, with the seeded accounts
 * and locations they reach; what the state already has stays as it is (a revoked demo grant
 * stays revoked, an edited location keeps its edits, until a reset).
 */
export function withDemoGrants(s: GoogleState, now: number): GoogleState {
  for (const a of seededAccounts()) if (!s.accounts.some((x) => x.id === a.id)) s.accounts.push(a);
  for (const l of locationFixtures())
    if (!s.locations.some((x) => x.id === l.id)) s.locations.push(l);
  for (const t of demoRefreshTokens(now))
    if (!s.refreshTokens.some((x) => x.token === t.token)) s.refreshTokens.push(t);
  return s;
}

export function googleStore(dir: string, now: () => number): JsonStore<GoogleState> {
  const store = jsonStore(
    dir,
    'google',
    () => seedGoogle(now()),
    (s) => {
      // Keep the file small: forget codes and access tokens a day after they stopped working.
      const cutoff = now() - 24 * 3600_000;
      s.codes = s.codes.filter((c) => c.expiresAt > cutoff);
      s.accessTokens = s.accessTokens.filter((t) => t.expiresAt > cutoff);
    },
  );
  withDemoGrants(store.data, now());
  return store;
}
