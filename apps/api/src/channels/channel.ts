import type { FacebookPage, Location, PublisherKey, PublisherStatus } from '@tenpo/domain';

/**
 * What went wrong at a provider, in the classes the rest of Tenpo acts on (CONVENTIONS:
 * errors). Each channel folder classifies its provider's raw answers once; nothing outside a
 * channel folder reads a vendor's message.
 * - transient: the provider failed or was unreachable before the call took effect; the same
 *   call may work later.
 * - reauth: the grant is gone (revoked, expired, password changed); the user must reconnect.
 * - invalid: the provider refused what we sent (bad request, invalid media); retrying the same
 *   call will not help.
 * - rate_limited: too many calls in a short window; `retryAfterMs` says when, if known.
 * - quota: a budget for a long window is spent (Instagram's posts per 24 h, X's usage cap).
 * - blocked: the provider blocks this account from posting for a while for its policies
 *   (Graph 368); not retried automatically, the user sees why (ADR 0063).
 * - outcome_unknown: a call that is not safe to repeat (publish, upload, create) was sent and
 *   no answer came back (time-out, connection cut): it may or may not have taken effect. It is
 *   never retried automatically; the caller settles it by reading the provider (settle.ts).
 */
export type FailureKind =
  | 'transient'
  | 'reauth'
  | 'invalid'
  | 'rate_limited'
  | 'quota'
  | 'blocked'
  | 'outcome_unknown';

/**
 * One field a provider refused: its path as the provider spells it and its (English) reason;
 * Google's v4 ValidationError also gives an ErrorCode number and the refused value, v1's
 * ErrorInfo a reason constant (ADR 0061). Screens name the field, never show `description`.
 */
export type FieldViolation = {
  field: string;
  description: string;
  /** Google v4 ErrorCode (e.g. 1000 photo fetch failed). */
  code?: number;
  /** The value the provider refused, when it says. */
  value?: string;
  /** Google v1 google.rpc.ErrorInfo.reason (UPPER_SNAKE_CASE). */
  reason?: string;
};

export class ChannelError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
    /** The channel the failure came from, once a caller's handle named it. */
    readonly publisher: PublisherKey | null = null,
    /** The fields the provider refused (its field violations), when it named them. */
    readonly fields: readonly FieldViolation[] = [],
  ) {
    super(message);
    this.name = 'ChannelError';
  }

  /** The same failure, tagged with the channel it came from (for the caller's messages). */
  from(publisher: PublisherKey): ChannelError {
    if (this.publisher === publisher) return this;
    const e = new ChannelError(
      this.kind,
      this.message,
      this.retryAfterMs,
      this.status,
      publisher,
      this.fields,
    );
    e.stack = this.stack;
    return e;
  }
}

/** Tokens as a channel hands them over; stored sealed by the publisher repo. */
export type TokenSet = {
  accessToken: string;
  /** null: the provider issued none (or keeps the previous one: see `refresh`). */
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string | null;
  /** Who granted access at the provider (Google e-mail, Facebook user id, X user id). */
  providerUserId: string | null;
  /** A name to show for the grant (X @username), when the provider gives one. */
  providerUserName: string | null;
};

export type ConnectRequest = { state: string; redirectUri: string; codeChallenge: string };

/**
 * One channel's OAuth side. Publishing, removing, uploading, listing, metrics and listing
 * edits are the capability interfaces below, reached through the registry (ADR 0022).
 */
export interface Channel {
  readonly key: PublisherKey;
  /**
   * The channel whose consent screen grants this one (Instagram is granted through the
   * Facebook login); the connection is stored under that key.
   */
  readonly connectAs: PublisherKey;
  /** After the provider's consent: where the browser goes, and the row's status. */
  readonly afterConnect: { path: string; status: PublisherStatus };
  /** Refresh this long before expiry, so a call never starts with a dying token. */
  readonly refreshMarginMs: number;
  connectUrl(req: ConnectRequest): string;
  exchangeCode(code: string, redirectUri: string, codeVerifier: string): Promise<TokenSet>;
  /**
   * A fresh access token; `refreshToken` in the result is null when the old one stays.
   * `pageToken` is the chosen page's token where the grant has one (Facebook, Instagram).
   */
  refresh(tokens: {
    accessToken: string;
    refreshToken: string | null;
    pageToken?: string | null;
  }): Promise<TokenSet>;
  /** Ends the grant at the provider, best effort (disconnect goes on locally regardless). */
  revoke(tokens: { accessToken: string; refreshToken: string | null }): Promise<void>;
}

export type Channels = Readonly<Record<PublisherKey, Channel>>;

// ---- capabilities ---------------------------------------------------------------------------

declare const handleBrand: unique symbol;

/**
 * Names one store's grant on one channel, and nothing else: capabilities take it instead of
 * tokens, and `GrantAccess` resolves it to live tokens (refreshing once per grant, ADR 0022).
 */
export type CredentialHandle = {
  readonly storeId: number;
  readonly publisher: PublisherKey;
  readonly [handleBrand]: true;
};

export const credentialHandle = (storeId: number, publisher: PublisherKey): CredentialHandle =>
  Object.freeze({ storeId, publisher }) as CredentialHandle;

/** What a handle resolves to for one call: live tokens and the chosen target at the provider. */
export type Grant = {
  accessToken: string;
  /** Who granted access (Google e-mail, Facebook user id, X user id). */
  providerUserId: string | null;
  /** Google: the account that holds the chosen location, when known. */
  accountId: string | null;
  /** The chosen listing/page/account (Google location id, page id, IG user id). */
  entityId: string | null;
  pageId: string | null;
  pageToken: string | null;
  igUserId: string | null;
};

/** Resolves a handle and runs one provider call with its tokens. */
export interface GrantAccess {
  /**
   * Runs `call` with a live grant: refreshed first when it expires within the channel's
   * margin, and once more if the provider answers that the token expired (a refused call has
   * not taken effect, so running it again is safe). Never retries otherwise; failures leave
   * as ChannelErrors tagged with the handle's channel.
   */
  use<T>(handle: CredentialHandle, call: (grant: Grant) => Promise<T>): Promise<T>;
}

/** A photo or video a provider fetches from a public URL, or one uploaded to it already. */
export type MediaItem = { kind: 'photo' | 'video'; url: string; providerId?: string | null };

/** A day and an optional time in the store's own time zone (how Google takes event dates). */
export type LocalDateTime = { date: CalendarDay; time?: { hours: number; minutes: number } | null };

/**
 * What kind of post this is on a channel that has kinds (Google local posts: news = STANDARD,
 * event = EVENT, offer = OFFER, providers.md §1.6). Channels without kinds ignore it.
 */
export type PostTopic =
  | { type: 'news' }
  | { type: 'event'; title: string; start: LocalDateTime; end: LocalDateTime }
  | {
      type: 'offer';
      title: string;
      start: LocalDateTime;
      end: LocalDateTime;
      couponCode?: string | null;
      redeemUrl?: string | null;
      terms?: string | null;
    };

/** A post's button where the channel has buttons (Google's call to action); CALL has no url. */
export type PostButton = {
  action: 'BOOK' | 'ORDER' | 'SHOP' | 'LEARN_MORE' | 'SIGN_UP' | 'CALL';
  url?: string | null;
};

/**
 * What a provider has made so far for a publish it is still preparing (Instagram's containers:
 * the carousel's items and the container to publish), kept on the target so that the next run
 * resumes them instead of making new ones (ADR 0063). Nothing is posted until it is published.
 */
export type PublishResume = {
  /** The container to publish, once made. */
  containerId: string | null;
  /** A carousel's item containers, in order. */
  children: string[];
  /** When the first of them was made (ISO, Tenpo's clock): containers expire after 24 h. */
  createdAt: string;
};

/**
 * A publish the provider is still preparing (a video container still IN_PROGRESS): nothing is
 * posted yet, and no worker should wait minutes for it. The caller keeps `resume` and runs the
 * publish again after `waitMs`, with `resume` in the draft.
 */
export class PublishPending extends Error {
  constructor(
    readonly resume: PublishResume,
    readonly waitMs: number,
  ) {
    super('publish still being prepared by the provider');
    this.name = 'PublishPending';
  }
}

export type PostDraft = {
  text: string;
  /** Photos and videos by public URL: the providers fetch them from there (Google, Facebook, Instagram). */
  media: readonly MediaItem[];
  link?: string | null;
  /** Optional: the post's kind (Google); absent = news. */
  topic?: PostTopic;
  /** Optional: the button (Google); absent = LEARN_MORE to `link` when there is one. */
  button?: PostButton;
  /** What an earlier run of this publish left at the provider to resume (PublishPending). */
  resume?: PublishResume | null;
};

export type PublishedPost = {
  id: string;
  text: string;
  createdAt: Date | null;
  url: string | null;
  /** What the post carries, where the provider's list says (Facebook status_type). */
  kind?: 'text' | 'photo' | 'video' | null;
  /** The provider's ids of the media attached, where its list says (X attachments). */
  mediaIds?: readonly string[] | null;
  /**
   * Where the provider reviews a post after taking it (Google local posts' `state`, ADR 0060):
   * `processing` until its review ends, then `live` or `rejected`. Absent: no review (the post
   * is live once the create answers).
   */
  review?: PostReview | null;
};

/** A moderated post's review as the provider reports it. */
export type PostReview = 'processing' | 'live' | 'rejected';

export interface Publishes {
  /** Sent once, never repeated: a time-out is `outcome_unknown`, settled by `settle()`. */
  publish(handle: CredentialHandle, draft: PostDraft): Promise<PublishedPost>;
}

/** Reads one post back (Google localPosts.get): how a post under review is followed. */
export interface ReadsPost {
  /** Repeatable. A post that is gone is a ChannelError of status 404. */
  readPost(handle: CredentialHandle, postId: string): Promise<PublishedPost>;
}

export interface Removes {
  remove(handle: CredentialHandle, postId: string): Promise<void>;
}

/** Edits a live post in place (Google: PATCH localPosts with an updateMask; ADR 0030). */
export interface UpdatesPost {
  /** Repeatable: whole fields named by the mask replace the stored ones. */
  update(handle: CredentialHandle, postId: string, draft: PostDraft): Promise<PublishedPost>;
}

export type MediaUpload = { kind: 'photo' | 'video'; contentType: string; bytes: Uint8Array };

export interface UploadsMedia {
  /** Sent once, never repeated (an upload creates a media object at the provider). */
  uploadMedia(handle: CredentialHandle, media: MediaUpload): Promise<MediaItem>;
}

export interface ListsRecentPosts {
  /**
   * Every post of the account made since `since`, newest first (what `settle` reads): the
   * provider's pages are followed back to `since`, however many other posts came after it.
   */
  listRecent(handle: CredentialHandle, opts: { since: Date }): Promise<PublishedPost[]>;
}

export type CalendarDay = { year: number; month: number; day: number };
export type MetricSeries = { metric: string; values: { date: CalendarDay; value: number }[] };

/** A month's search keyword: an exact count, or "fewer than `threshold`" (Google's own split). */
export type KeywordCount = { keyword: string; value: number | null; threshold: number | null };

export interface FetchesMetrics {
  fetchMetrics(
    handle: CredentialHandle,
    range: { start: CalendarDay; end: CalendarDay },
    metrics: readonly string[],
  ): Promise<MetricSeries[]>;
  /** One month's search keywords (every page), as the provider counts them. */
  fetchKeywords?(
    handle: CredentialHandle,
    month: { year: number; month: number },
  ): Promise<KeywordCount[]>;
}

/** A time of day as a listing provider keeps it (zero fields may be left out). */
export type ListingTime = { hours?: number; minutes?: number };
export type ListingPeriod = {
  openDay: string;
  closeDay: string;
  openTime: ListingTime;
  closeTime: ListingTime;
};
export type ListingCategory = { name: string; displayName?: string };

/** Fields of a listing a store may edit, by the provider's field paths (providers.md §1.4). */
export type LocationPatch = {
  title?: string;
  websiteUri?: string | null;
  phoneNumbers?: { primaryPhone: string; additionalPhones?: string[] };
  profile?: { description: string };
  storefrontAddress?: {
    regionCode: string;
    languageCode?: string;
    postalCode?: string;
    administrativeArea?: string;
    locality?: string;
    addressLines: string[];
  };
  categories?: { primaryCategory: ListingCategory; additionalCategories?: ListingCategory[] };
  regularHours?: { periods: ListingPeriod[] };
  openInfo?: { status: 'OPEN' | 'CLOSED_TEMPORARILY' };
};

/** The listing's editable fields as the provider holds them (what a pull reads back). */
export type Listing = {
  id: string;
  title: string;
  storefrontAddress: {
    regionCode: string | null;
    postalCode: string | null;
    administrativeArea: string | null;
    locality: string | null;
    addressLines: string[];
  };
  phoneNumbers: { primaryPhone: string | null; additionalPhones: string[] };
  categories: { primaryCategory: ListingCategory | null; additionalCategories: ListingCategory[] };
  websiteUri: string | null;
  regularHours: ListingPeriod[];
  description: string | null;
  openStatus: string | null;
  latlng: { latitude: number; longitude: number } | null;
};

/** A chosen location with what the publisher row shows of it. */
export type LocationDetail = Location & {
  postalCode: string | null;
  storeCode: string | null;
};

export interface EditsLocation {
  /**
   * Sends a partial listing; `updateMask` names the fields it replaces (by default its top-level
   * keys). Repeatable: the named fields are replaced whole.
   */
  editLocation(
    handle: CredentialHandle,
    patch: LocationPatch,
    updateMask?: string,
    /** `validateOnly`: the provider checks the edit (and refuses it as it would) but keeps nothing. */
    opts?: { validateOnly?: boolean },
  ): Promise<LocationDetail>;
  /** The chosen listing's editable fields as the provider holds them now. */
  readListing(handle: CredentialHandle): Promise<Listing>;
  /**
   * What the provider shows instead of the store's listing (Google's getGoogleUpdated,
   * ADR 0061): its version, the fields it changed and those it holds pending. Absent on a
   * channel that takes edits as sent.
   */
  providerVersion?(handle: CredentialHandle): Promise<ListingProviderVersion>;
}

/** The provider's own version of a listing, beside the store's (providers.md §1.4). */
export type ListingProviderVersion = {
  listing: Listing;
  /** Top-level field paths (camelCase) the provider changed: it shows its value, not ours. */
  changed: string[];
  /** Top-level field paths with edits the provider holds for review (not yet shown). */
  pending: string[];
};

/** The location picker of a listing channel (connect flow). */
export interface PicksLocation {
  listLocations(handle: CredentialHandle): Promise<LocationDetail[]>;
  getLocation(handle: CredentialHandle, locationId: string): Promise<LocationDetail>;
}

/** A category of the provider's catalogue (Google: `categories/gcid:…` and its display name). */
export type BusinessCategoryItem = { name: string; displayName: string };

/** The provider's catalogue of business categories, in one region and language. */
export interface ListsCategories {
  listCategories(
    handle: CredentialHandle,
    q: { regionCode: string; languageCode: string },
  ): Promise<BusinessCategoryItem[]>;
}

/** A page the user manages, with its page token and linked Instagram account. */
export type PageGrant = FacebookPage & {
  pageToken: string | null;
  igUserId: string | null;
};

/** The page picker of a pages channel (connect flow). */
export interface PicksPage {
  listPages(handle: CredentialHandle): Promise<PageGrant[]>;
  /** The username of an Instagram account linked to a page, read with the page's token. */
  instagramUsername(igUserId: string, pageToken: string): Promise<string | null>;
}

/** One photo or video of a listing's own media (Google v4 media of the location). */
export type LibraryMedia = {
  /** The provider's name of the item (`accounts/{a}/locations/{l}/media/{key}`). */
  name: string;
  /** Its short key (the last part of the name). */
  key: string;
  format: 'PHOTO' | 'VIDEO';
  /** Where it can be seen (changes over time at Google); null when the provider gives none. */
  url: string | null;
  /** The upload slot it was made from, when it was uploaded as bytes. */
  uploadRef: string | null;
};

/**
 * A listing's media library (ADR 0043). An upload is two steps so that the caller can record
 * the slot between them: `stage` (repeatable) sends the bytes to a new slot; `create` (sent
 * once, never repeated) makes the item from the slot, which the item then names (`uploadRef`),
 * so a create without an answer is settled by listing.
 */
export interface KeepsMediaLibrary {
  stage(handle: CredentialHandle, media: MediaUpload): Promise<string>;
  create(
    handle: CredentialHandle,
    uploadRef: string,
    format: LibraryMedia['format'],
  ): Promise<LibraryMedia>;
  list(handle: CredentialHandle): Promise<LibraryMedia[]>;
  /** Removes the item; one that is already gone counts as removed. */
  remove(handle: CredentialHandle, name: string): Promise<void>;
}

/** A review as Tenpo reads it from the provider (Google v4 Review). */
export type ProviderReview = {
  /** The provider's full name of the review (accounts/…/locations/…/reviews/…). */
  name: string;
  reviewId: string;
  reviewerName: string;
  reviewerPhotoUrl: string | null;
  isAnonymous: boolean;
  /** 1–5; a review with no rating (STAR_RATING_UNSPECIFIED) is 0. */
  stars: number;
  comment: string | null;
  media: { thumbnailUrl: string; videoUrl: string | null }[];
  createTime: string;
  updateTime: string;
  reply: ProviderReviewReply | null;
  replyUrl: string | null;
};

export type ProviderReviewReply = {
  comment: string;
  updateTime: string;
  /** Google's moderation of the reply: pending, live once shown, rejected with a reason. */
  state: 'pending' | 'live' | 'rejected';
  policyViolation: string | null;
};

/** One page of a location's reviews, newest first, with the location's totals. */
export type ReviewPage = {
  reviews: ProviderReview[];
  averageRating: number | null;
  totalReviewCount: number;
  nextPageToken: string | null;
};

/** A listing's reviews (Google v4 reviews): read them, reply (create or replace), delete a reply. */
export interface KeepsReviews {
  list(handle: CredentialHandle, opts: { pageToken?: string | null }): Promise<ReviewPage>;
  get(handle: CredentialHandle, name: string): Promise<ProviderReview>;
  /** Creates or replaces the reply: repeatable (one reply, whatever the number of calls). */
  reply(handle: CredentialHandle, name: string, comment: string): Promise<ProviderReviewReply>;
  /** Removes the reply; none there counts as removed. */
  deleteReply(handle: CredentialHandle, name: string): Promise<void>;
  /** The listing's link for customers to write a review (Location.metadata.newReviewUri). */
  reviewLink(
    handle: CredentialHandle,
  ): Promise<{ newReviewUri: string | null; placeId: string | null }>;
}

/** What a channel can do beyond OAuth; a channel fills in only what its provider offers. */
export type Capabilities = {
  publish?: Publishes;
  remove?: Removes;
  readPost?: ReadsPost;
  update?: UpdatesPost;
  uploadMedia?: UploadsMedia;
  listRecent?: ListsRecentPosts;
  fetchMetrics?: FetchesMetrics;
  editLocation?: EditsLocation;
  locations?: PicksLocation;
  categories?: ListsCategories;
  pages?: PicksPage;
  mediaLibrary?: KeepsMediaLibrary;
  reviews?: KeepsReviews;
};
export type Capability = keyof Capabilities;

export type RegisteredChannel = {
  readonly key: PublisherKey;
  readonly oauth: Channel;
  readonly can: Readonly<Capabilities>;
};

/** Every channel by publisher key: shared code asks for a capability, never for a name. */
export interface ChannelRegistry {
  get(key: PublisherKey): RegisteredChannel;
  /** The capability, or a ChannelError of class `invalid` when the channel has none. */
  require<C extends Capability>(key: PublisherKey, capability: C): NonNullable<Capabilities[C]>;
  /** The channels that have a capability (e.g. every channel one can publish to). */
  having(capability: Capability): RegisteredChannel[];
}
