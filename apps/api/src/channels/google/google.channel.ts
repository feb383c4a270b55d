import { PUBLISHER_STATUS } from '@tenpo/domain';
import {
  ChannelError,
  type Capabilities,
  type Channel,
  type Grant,
  type GrantAccess,
  type LibraryMedia,
  type LocalDateTime,
  type LocationDetail,
  type Listing,
  type PostDraft,
  type PostReview,
  type PublishedPost,
  type TokenSet,
} from '../channel';
import type {
  GoogleClient,
  GoogleLocalPost,
  GoogleMediaItem,
  GoogleLocationResource,
  GoogleTokenResponse,
} from './google.client';
import { LIST_PAGE_SIZE, pageBack } from '../paging';
import { reviewsOf } from './google.reviews';

export type { LocationDetail };

const MINUTE = 60_000;

export const locationOf = (l: GoogleLocationResource): LocationDetail => ({
  id: (l.name ?? '').replace(/^locations\//, ''),
  title: l.title ?? '',
  openInfo: { canReopen: l.openInfo?.canReopen ?? null, status: l.openInfo?.status ?? null },
  phoneNumbers: { primaryPhone: l.phoneNumbers?.primaryPhone ?? null },
  storefrontAddress: {
    addressLines: l.storefrontAddress?.addressLines ?? [],
    locality: l.storefrontAddress?.locality ?? null,
    administrativeArea: l.storefrontAddress?.administrativeArea ?? null,
    regionCode: l.storefrontAddress?.regionCode ?? null,
  },
  websiteUri: l.websiteUri ?? null,
  postalCode: l.storefrontAddress?.postalCode ?? null,
  storeCode: l.storeCode ?? null,
});

/** The listing fields the store's information reads (readMask is required, §1.4). */
const LISTING_READ_MASK =
  'name,title,storefrontAddress,phoneNumbers,categories,websiteUri,regularHours,profile,openInfo,latlng';

/** A FieldMask's top-level fields in camelCase (`phone_numbers.primary_phone` → phoneNumbers). */
const topFields = (mask: string | null | undefined): string[] => [
  ...new Set(
    (mask ?? '')
      .split(',')
      .map((p) =>
        (p.trim().split('.')[0] ?? '').replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
      )
      .filter(Boolean),
  ),
];

const timeOf = (t: { hours?: number | null; minutes?: number | null } | undefined) => ({
  ...(t?.hours ? { hours: t.hours } : {}),
  ...(t?.minutes ? { minutes: t.minutes } : {}),
});

export const listingOf = (l: GoogleLocationResource): Listing => ({
  id: (l.name ?? '').replace(/^locations\//, ''),
  title: l.title ?? '',
  storefrontAddress: {
    regionCode: l.storefrontAddress?.regionCode ?? null,
    postalCode: l.storefrontAddress?.postalCode ?? null,
    administrativeArea: l.storefrontAddress?.administrativeArea ?? null,
    locality: l.storefrontAddress?.locality ?? null,
    addressLines: l.storefrontAddress?.addressLines ?? [],
  },
  phoneNumbers: {
    primaryPhone: l.phoneNumbers?.primaryPhone ?? null,
    additionalPhones: l.phoneNumbers?.additionalPhones ?? [],
  },
  categories: {
    primaryCategory: l.categories?.primaryCategory?.name
      ? {
          name: l.categories.primaryCategory.name,
          displayName: l.categories.primaryCategory.displayName ?? '',
        }
      : null,
    additionalCategories: (l.categories?.additionalCategories ?? [])
      .filter((c) => c.name)
      .map((c) => ({ name: c.name ?? '', displayName: c.displayName ?? '' })),
  },
  websiteUri: l.websiteUri ?? null,
  regularHours: (l.regularHours?.periods ?? []).map((p) => ({
    openDay: p.openDay ?? 'DAY_OF_WEEK_UNSPECIFIED',
    closeDay: p.closeDay ?? p.openDay ?? 'DAY_OF_WEEK_UNSPECIFIED',
    openTime: timeOf(p.openTime),
    closeTime: timeOf(p.closeTime),
  })),
  description: l.profile?.description ?? null,
  openStatus: l.openInfo?.status ?? null,
  latlng:
    typeof l.latlng?.latitude === 'number' && typeof l.latlng.longitude === 'number'
      ? { latitude: l.latlng.latitude, longitude: l.latlng.longitude }
      : null,
});

export function createGoogleChannel(client: GoogleClient, now: () => Date): Channel {
  const tokenSet = async (t: GoogleTokenResponse, withUser: boolean): Promise<TokenSet> => {
    const user = withUser ? await client.tokenInfo(t.access_token) : null;
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token ?? null,
      expiresAt: t.expires_in ? new Date(now().getTime() + t.expires_in * 1000) : null,
      scope: t.scope ?? null,
      providerUserId: user?.email ?? user?.sub ?? null,
      providerUserName: user?.email ?? null,
    };
  };
  return {
    key: 'google_my_business',
    connectAs: 'google_my_business',
    // Tokens first; the row is connected once a location is chosen on /connect-location.
    afterConnect: { path: '/connect-location', status: PUBLISHER_STATUS.requesting },
    refreshMarginMs: 5 * MINUTE,
    connectUrl: (req) => client.authUrl(req),
    exchangeCode: async (code, redirectUri, verifier) =>
      tokenSet(await client.exchangeCode(code, redirectUri, verifier), true),
    // Google keeps the refresh token valid and sends no new one.
    refresh: async ({ refreshToken }) => {
      if (!refreshToken) throw new ChannelError('reauth', 'google: no refresh token');
      return tokenSet(await client.refresh(refreshToken), false);
    },
    // Revoking the refresh token ends the whole grant.
    revoke: ({ accessToken, refreshToken }) => client.revoke(refreshToken ?? accessToken),
  };
}

/**
 * A LocalPost's `state` as Tenpo follows it (ADR 0060). LIVE and REJECTED end Google's review;
 * PROCESSING and LOCAL_POST_STATE_UNSPECIFIED do not (an unspecified state is read again, never
 * taken as live). A post with no state at all is taken as live, as before states were read.
 */
export const reviewOf = (state: string | undefined): PostReview => {
  switch (state) {
    case undefined:
    case 'LIVE':
      return 'live';
    case 'REJECTED':
      return 'rejected';
    default:
      return 'processing';
  }
};

const postOf = (p: GoogleLocalPost): PublishedPost => ({
  id: p.name ?? '',
  text: p.summary ?? '',
  createdAt: p.createTime ? new Date(p.createTime) : null,
  url: p.searchUrl ?? null,
  review: reviewOf(p.state),
});

const libraryMediaOf = (m: GoogleMediaItem): LibraryMedia => ({
  name: m.name ?? '',
  key: (m.name ?? '').split('/').pop() ?? '',
  format: m.mediaFormat === 'VIDEO' ? 'VIDEO' : 'PHOTO',
  // For a video, googleUrl is its preview image (§1.7).
  url: m.googleUrl || m.thumbnailUrl || null,
  uploadRef: m.dataRef?.resourceName ?? null,
});

const scheduleOf = (start: LocalDateTime, end: LocalDateTime) => ({
  startDate: start.date,
  ...(start.time ? { startTime: { hours: start.time.hours, minutes: start.time.minutes } } : {}),
  endDate: end.date,
  ...(end.time ? { endTime: { hours: end.time.hours, minutes: end.time.minutes } } : {}),
});

/**
 * A draft as a v4 LocalPost (providers.md §1.6): news → STANDARD, event → EVENT with its
 * schedule, offer → OFFER with its coupon, link and terms (an offer takes no call to action).
 * Media go by public `sourceUrl` only: Google fetches them; a post takes one photo.
 */
export function localPostOf(draft: PostDraft): Record<string, unknown> {
  const photo = draft.media.find((m) => m.kind === 'photo');
  const topic = draft.topic ?? { type: 'news' as const };
  const button =
    draft.button ?? (draft.link ? { action: 'LEARN_MORE' as const, url: draft.link } : null);
  const body: Record<string, unknown> = {
    languageCode: 'ja',
    summary: draft.text,
    topicType: topic.type === 'event' ? 'EVENT' : topic.type === 'offer' ? 'OFFER' : 'STANDARD',
    ...(photo ? { media: [{ mediaFormat: 'PHOTO', sourceUrl: photo.url }] } : {}),
  };
  if (topic.type === 'event' || topic.type === 'offer')
    body.event = { title: topic.title, schedule: scheduleOf(topic.start, topic.end) };
  if (topic.type === 'offer') {
    const offer: Record<string, string> = {};
    if (topic.couponCode) offer.couponCode = topic.couponCode;
    if (topic.redeemUrl) offer.redeemOnlineUrl = topic.redeemUrl;
    if (topic.terms) offer.termsConditions = topic.terms;
    if (Object.keys(offer).length) body.offer = offer;
  } else if (button)
    body.callToAction =
      button.action === 'CALL'
        ? { actionType: 'CALL' }
        : { actionType: button.action, url: button.url ?? draft.link ?? undefined };
  return body;
}

/** The chosen location of a grant, or the "no location" refusal. */
const locationIdOf = (g: Grant): string => {
  if (!g.entityId) throw new ChannelError('invalid', 'google: no location chosen');
  return g.entityId;
};

/** Daily metrics and monthly search keywords of the chosen location. */
function metricsOf(
  client: GoogleClient,
  access: GrantAccess,
): NonNullable<Capabilities['fetchMetrics']> {
  return {
    fetchMetrics: (h, range, metrics) =>
      access.use(h, async (g) => {
        const res = await client.dailyMetrics(
          g.accessToken,
          locationIdOf(g),
          metrics,
          range.start,
          range.end,
        );
        return (res.multiDailyMetricTimeSeries ?? [])
          .flatMap((m) => m.dailyMetricTimeSeries ?? [])
          .map((s) => ({
            metric: s.dailyMetric ?? '',
            values: (s.timeSeries?.datedValues ?? []).map((v) => ({
              date: { year: v.date?.year ?? 0, month: v.date?.month ?? 0, day: v.date?.day ?? 0 },
              // Zero values come without `value` (proto3 JSON defaults).
              value: Number(v.value ?? '0'),
            })),
          }));
      }),
    fetchKeywords: (h, month) =>
      access.use(h, async (g) =>
        (await client.monthlyKeywords(g.accessToken, locationIdOf(g), month))
          .filter((k) => !!k.searchKeyword)
          .map((k) => {
            // int64 strings; a count Google hides below its threshold keeps only the threshold.
            const v = k.insightsValue ?? {};
            return v.value !== undefined || v.threshold === undefined
              ? {
                  keyword: k.searchKeyword as string,
                  value: Number(v.value ?? '0'),
                  threshold: null,
                }
              : {
                  keyword: k.searchKeyword as string,
                  value: null,
                  threshold: Number(v.threshold),
                };
          }),
      ),
  };
}

/** The chosen location's listing: read, edited (or checked), and Google's own version of it. */
function listingEditsOf(
  client: GoogleClient,
  access: GrantAccess,
): NonNullable<Capabilities['editLocation']> {
  return {
    readListing: (h) =>
      access.use(h, async (g) =>
        listingOf(await client.getLocation(g.accessToken, locationIdOf(g), LISTING_READ_MASK)),
      ),
    editLocation: (h, patch, updateMask, opts) =>
      access.use(h, async (g) => {
        const mask = updateMask ?? Object.keys(patch).join(',');
        if (!mask) throw new ChannelError('invalid', 'google: empty location patch');
        return locationOf(
          await client.patchLocation(
            g.accessToken,
            locationIdOf(g),
            patch as GoogleLocationResource,
            mask,
            opts?.validateOnly === true,
          ),
        );
      }),
    // getGoogleUpdated (§1.4): masks come as snake_case or camelCase paths; kept top-level.
    providerVersion: (h) =>
      access.use(h, async (g) => {
        const u = await client.getGoogleUpdated(g.accessToken, locationIdOf(g), LISTING_READ_MASK);
        return {
          listing: listingOf(u.location ?? {}),
          changed: topFields(u.diffMask),
          pending: topFields(u.pendingMask),
        };
      }),
  };
}

/** The location's photo library (v4 media), under the account that holds the location. */
function mediaLibraryOf(
  client: GoogleClient,
  access: GrantAccess,
  parentOf: (g: Grant) => Promise<string>,
): NonNullable<Capabilities['mediaLibrary']> {
  return {
    stage: (h, media) =>
      access.use(h, async (g) => {
        const slot = await client.startMediaUpload(g.accessToken, await parentOf(g));
        if (!slot.resourceName) throw new ChannelError('transient', 'google: no upload slot');
        await client.uploadMediaBytes(
          g.accessToken,
          slot.resourceName,
          media.bytes,
          media.contentType,
        );
        return slot.resourceName;
      }),
    create: (h, uploadRef, format) =>
      access.use(h, async (g) =>
        libraryMediaOf(
          await client.createMedia(g.accessToken, await parentOf(g), {
            mediaFormat: format,
            // The library's photos are "additional" photos of the profile, not its cover.
            locationAssociation: { category: 'ADDITIONAL' },
            dataRef: { resourceName: uploadRef },
          }),
        ),
      ),
    list: (h) =>
      access.use(h, async (g) =>
        (await client.listMedia(g.accessToken, await parentOf(g)))
          .filter((m) => !!m.name)
          .map(libraryMediaOf),
      ),
    remove: (h, name) =>
      access.use(h, async (g) => {
        try {
          await client.deleteMedia(g.accessToken, name);
        } catch (err) {
          if (err instanceof ChannelError && err.status === 404) return;
          throw err;
        }
      }),
  };
}

/**
 * Google's capabilities (providers.md §1.4–1.6): local posts (publish, remove, list), daily
 * metrics, and edits of the chosen location. v4 posts live under the account that holds the
 * location; the grant's account is used when stored, otherwise found once and remembered.
 */
export function createGoogleCapabilities(client: GoogleClient, access: GrantAccess): Capabilities {
  const accountOf = new Map<string, string>();
  const parentOf = async (g: Grant): Promise<string> => {
    const locationId = locationIdOf(g);
    let account = g.accountId ? `accounts/${g.accountId.replace(/^accounts\//, '')}` : null;
    account ??= accountOf.get(locationId) ?? null;
    if (!account) {
      for (const a of await client.listAccounts(g.accessToken))
        for (const l of await client.listLocations(g.accessToken, a.name))
          accountOf.set((l.name ?? '').replace(/^locations\//, ''), a.name);
      account = accountOf.get(locationId) ?? null;
    }
    if (!account) throw new ChannelError('invalid', 'google: the chosen location is gone');
    return `${account}/locations/${locationId}`;
  };
  return {
    publish: {
      publish: (h, draft) =>
        access.use(h, async (g) => {
          const body = localPostOf(draft);
          return postOf(await client.createLocalPost(g.accessToken, await parentOf(g), body));
        }),
    },
    readPost: {
      readPost: (h, postId) =>
        access.use(h, async (g) => {
          const name = postId.includes('/') ? postId : `${await parentOf(g)}/localPosts/${postId}`;
          return postOf(await client.getLocalPost(g.accessToken, name));
        }),
    },
    update: {
      // Media are left as they are: the mask names the text, the kind's fields and the button.
      // The button is always masked: a removed button is a masked field left out of the body,
      // which clears it at Google (else the old one stays; ADR 0061).
      update: (h, postId, draft) =>
        access.use(h, async (g) => {
          const name = postId.includes('/') ? postId : `${await parentOf(g)}/localPosts/${postId}`;
          const body = localPostOf({ ...draft, media: [] });
          const mask = ['summary', 'event', 'offer', 'callToAction'].filter(
            (k) =>
              body[k] !== undefined ||
              k === 'callToAction' ||
              (k === 'offer' && draft.topic?.type === 'offer'),
          );
          return postOf(await client.patchLocalPost(g.accessToken, name, body, mask.join(',')));
        }),
    },
    remove: {
      remove: (h, postId) =>
        access.use(h, async (g) => {
          const name = postId.includes('/') ? postId : `${await parentOf(g)}/localPosts/${postId}`;
          await client.deleteLocalPost(g.accessToken, name);
        }),
    },
    listRecent: {
      listRecent: (h, { since }) =>
        access.use(h, async (g) => {
          const parent = await parentOf(g);
          // localPosts.list takes no time filter: pages (`pageToken`) are read newest first
          // until one ends before `since`.
          const posts = await pageBack(
            async (pageToken) => {
              const page = await client.listLocalPosts(
                g.accessToken,
                parent,
                LIST_PAGE_SIZE,
                pageToken,
              );
              return {
                items: (page.localPosts ?? []).map(postOf),
                next: page.nextPageToken || null,
              };
            },
            (p) => p.createdAt,
            since,
          );
          return posts.filter((p) => !p.createdAt || p.createdAt >= since);
        }),
    },
    fetchMetrics: metricsOf(client, access),
    editLocation: listingEditsOf(client, access),
    mediaLibrary: mediaLibraryOf(client, access, parentOf),
    reviews: reviewsOf(client, access, parentOf),
    locations: {
      listLocations: (h) =>
        access.use(h, async (g) => {
          const out: LocationDetail[] = [];
          for (const account of await client.listAccounts(g.accessToken))
            for (const l of await client.listLocations(g.accessToken, account.name)) {
              const detail = locationOf(l);
              accountOf.set(detail.id, account.name);
              out.push(detail);
            }
          return out;
        }),
      getLocation: (h, locationId) =>
        access.use(h, async (g) => locationOf(await client.getLocation(g.accessToken, locationId))),
    },
    categories: {
      listCategories: (h, q) =>
        access.use(h, async (g) =>
          (await client.listCategories(g.accessToken, q.regionCode, q.languageCode))
            .filter((c) => !!c.name)
            .map((c) => ({ name: c.name as string, displayName: c.displayName ?? '' })),
        ),
    },
  };
}
