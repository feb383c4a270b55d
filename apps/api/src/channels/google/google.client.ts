import { mybusinessaccountmanagement } from '@googleapis/mybusinessaccountmanagement';
import { mybusinessbusinessinformation } from '@googleapis/mybusinessbusinessinformation';
import type { mybusinessbusinessinformation_v1 } from '@googleapis/mybusinessbusinessinformation';
import type { ChannelsConfig } from '../../config';
import { form, requestJson, withQuery, withRetry, type HttpDeps } from '../http';
import { classifyGaxios, classifyGoogle } from './google.errors';

export type GoogleLocationResource = mybusinessbusinessinformation_v1.Schema$Location;
export type GoogleUpdatedLocationResource =
  mybusinessbusinessinformation_v1.Schema$GoogleUpdatedLocation;

export type GoogleTokenResponse = {
  access_token: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  token_type?: string;
};

export const GOOGLE_SCOPE = 'https://www.googleapis.com/auth/business.manage openid email';

/** The Location fields the picker and the publisher row need (readMask is required). */
export const LOCATION_READ_MASK =
  'name,title,storeCode,phoneNumbers,storefrontAddress,websiteUri,openInfo';

type GoogleConfig = ChannelsConfig['google'];

const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** OAuth: two form POSTs over fetch (we keep the tokens), and the token's own look-ups. */
function oauthCalls(cfg: GoogleConfig, http: HttpDeps) {
  // A code is single-use: an exchange that timed out is not sent again.
  const token = (params: Record<string, string | undefined>, repeatable: boolean) =>
    requestJson<GoogleTokenResponse>(
      http,
      `${cfg.oauth2Url}/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ client_id: cfg.clientId, client_secret: cfg.clientSecret, ...params }),
      },
      classifyGoogle,
      { repeatable },
    );

  return {
    authUrl: (p: { state: string; redirectUri: string; codeChallenge: string }): string =>
      withQuery(`${cfg.accountsUrl}/o/oauth2/v2/auth`, {
        client_id: cfg.clientId,
        redirect_uri: p.redirectUri,
        response_type: 'code',
        scope: GOOGLE_SCOPE,
        state: p.state,
        // offline + consent: a refresh token on every connect, also a reconnect.
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        code_challenge: p.codeChallenge,
        code_challenge_method: 'S256',
      }),

    exchangeCode: (code: string, redirectUri: string, codeVerifier: string) =>
      token(
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: codeVerifier,
        },
        false,
      ),

    refresh: (refreshToken: string) =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken }, true),

    async revoke(tokenValue: string): Promise<void> {
      await requestJson(
        http,
        `${cfg.oauth2Url}/revoke`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ token: tokenValue }),
        },
        classifyGoogle,
        { repeatable: true },
      );
    },

    /** The signed-in user's e-mail (OpenID userinfo lives on the oauth2 host's sibling). */
    async tokenInfo(accessToken: string): Promise<{ email?: string; sub?: string }> {
      return requestJson(
        http,
        withQuery(`${cfg.oauth2Url}/tokeninfo`, { access_token: accessToken }),
        { method: 'GET' },
        classifyGoogle,
      );
    },
  };
}

/**
 * Account Management and Business Information, through the official clients with `rootUrl`
 * from config (ADR 0009).
 */
function businessInformationCalls(cfg: GoogleConfig, http: HttpDeps) {
  // The clients' own retry is off: retries, and waits on 429, are ours (channels/http.ts).
  // `rootUrl` goes on each call, not on the client: a client-wide rootUrl keeps only its
  // origin (googleapis-common resolves the method's absolute path against it), which loses a
  // path prefix such as the sandbox's /sandbox/google/…; a per-call one is prepended as is.
  const options = (rootUrl: string, accessToken: string) => ({
    rootUrl: `${rootUrl}/`,
    headers: { authorization: `Bearer ${accessToken}` },
    retry: false,
    fetchImplementation: http.fetch,
  });
  const accounts = mybusinessaccountmanagement({ version: 'v1' });
  const info = mybusinessbusinessinformation({ version: 'v1' });
  // Only reads and whole-field patches go through the official clients: all repeatable.
  const official = <T>(call: () => Promise<{ data: T }>): Promise<T> =>
    withRetry(http, async () => {
      try {
        return (await call()).data;
      } catch (err) {
        throw classifyGaxios(err);
      }
    });

  return {
    async listAccounts(accessToken: string): Promise<{ name: string; accountName: string }[]> {
      const out: { name: string; accountName: string }[] = [];
      let pageToken: string | undefined;
      do {
        const page = await official(() =>
          accounts.accounts.list(
            { pageSize: 20, pageToken },
            options(cfg.accountManagementUrl, accessToken),
          ),
        );
        for (const a of page.accounts ?? [])
          if (a.name) out.push({ name: a.name, accountName: a.accountName ?? '' });
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
      return out;
    },

    async listLocations(accessToken: string, account: string): Promise<GoogleLocationResource[]> {
      const out: GoogleLocationResource[] = [];
      let pageToken: string | undefined;
      do {
        const page = await official(() =>
          info.accounts.locations.list(
            { parent: account, readMask: LOCATION_READ_MASK, pageSize: 100, pageToken },
            options(cfg.businessInformationUrl, accessToken),
          ),
        );
        out.push(...(page.locations ?? []));
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
      return out;
    },

    /** Business Information categories.list (§1.4), every page (up to 100 a page) followed. */
    async listCategories(
      accessToken: string,
      regionCode: string,
      languageCode: string,
      pageSize = 100,
    ): Promise<mybusinessbusinessinformation_v1.Schema$Category[]> {
      const out: mybusinessbusinessinformation_v1.Schema$Category[] = [];
      let pageToken: string | undefined;
      do {
        const page = await official(() =>
          info.categories.list(
            { regionCode, languageCode, view: 'BASIC', pageSize, pageToken },
            options(cfg.businessInformationUrl, accessToken),
          ),
        );
        out.push(...(page.categories ?? []));
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
      return out;
    },

    /**
     * Whole fields named by `updateMask` replace the stored ones: repeatable (§1.4). With
     * `validateOnly` Google checks the edit and answers as if made, changing nothing.
     */
    patchLocation: (
      accessToken: string,
      locationId: string,
      patch: GoogleLocationResource,
      updateMask: string,
      validateOnly = false,
    ): Promise<GoogleLocationResource> =>
      official(() =>
        info.locations.patch(
          {
            name: `locations/${locationId}`,
            updateMask,
            ...(validateOnly ? { validateOnly: true } : {}),
            requestBody: patch,
          },
          options(cfg.businessInformationUrl, accessToken),
        ),
      ),

    /**
     * Google's version of the location (what Maps and Search show): `diffMask` names the
     * fields Google changed, `pendingMask` those with edits not yet pushed (§1.4).
     */
    getGoogleUpdated: (
      accessToken: string,
      locationId: string,
      readMask: string,
    ): Promise<GoogleUpdatedLocationResource> =>
      official(() =>
        info.locations.getGoogleUpdated(
          { name: `locations/${locationId}`, readMask },
          options(cfg.businessInformationUrl, accessToken),
        ),
      ),

    getLocation: (
      accessToken: string,
      locationId: string,
      readMask: string = LOCATION_READ_MASK,
    ): Promise<GoogleLocationResource> =>
      official(() =>
        info.locations.get(
          { name: `locations/${locationId}`, readMask },
          options(cfg.businessInformationUrl, accessToken),
        ),
      ),
  };
}

/** v4 local posts (§1.6). */
function localPostCalls(cfg: GoogleConfig, http: HttpDeps) {
  const v4 = `${cfg.myBusinessUrl}/v4`;
  return {
    /** v4 localPosts create (§1.6): creates a post, so it is sent once only. */
    createLocalPost: (accessToken: string, parent: string, post: Record<string, unknown>) =>
      requestJson<GoogleLocalPost>(
        http,
        `${v4}/${parent}/localPosts`,
        {
          method: 'POST',
          headers: { ...bearer(accessToken), 'content-type': 'application/json' },
          body: JSON.stringify(post),
        },
        classifyGoogle,
        { repeatable: false },
      ),

    /** v4 localPosts patch (§1.6): the masked fields replace the stored ones, repeatable. */
    patchLocalPost: (
      accessToken: string,
      postName: string,
      post: Record<string, unknown>,
      updateMask: string,
    ) =>
      requestJson<GoogleLocalPost>(
        http,
        withQuery(`${v4}/${postName}`, { updateMask }),
        {
          method: 'PATCH',
          headers: { ...bearer(accessToken), 'content-type': 'application/json' },
          body: JSON.stringify(post),
        },
        classifyGoogle,
      ),

    /**
     * v4 localPosts get: one post as Google holds it now, with its review `state`
     * (PROCESSING, LIVE, REJECTED; ADR 0060). Repeatable.
     */
    getLocalPost: (accessToken: string, postName: string) =>
      requestJson<GoogleLocalPost>(
        http,
        `${v4}/${postName}`,
        { method: 'GET', headers: bearer(accessToken) },
        classifyGoogle,
      ),

    listLocalPosts: (
      accessToken: string,
      parent: string,
      pageSize: number,
      pageToken: string | null = null,
    ) =>
      requestJson<{ localPosts?: GoogleLocalPost[]; nextPageToken?: string }>(
        http,
        withQuery(`${v4}/${parent}/localPosts`, {
          pageSize: String(pageSize),
          pageToken: pageToken ?? undefined,
        }),
        { method: 'GET', headers: bearer(accessToken) },
        classifyGoogle,
      ),

    async deleteLocalPost(accessToken: string, postName: string): Promise<void> {
      await requestJson(
        http,
        `${v4}/${postName}`,
        { method: 'DELETE', headers: bearer(accessToken) },
        classifyGoogle,
      );
    },
  };
}

/** v4 reviews (providers.md §1.6; fixtures/google-reviews): a location's reviews and replies. */
function reviewCalls(cfg: GoogleConfig, http: HttpDeps) {
  const v4 = `${cfg.myBusinessUrl}/v4`;
  return {
    /** One page, newest first (`updateTime desc`, Google's default order). Repeatable. */
    listReviews: (
      accessToken: string,
      parent: string,
      pageSize: number,
      pageToken: string | null = null,
    ) =>
      requestJson<GoogleReviewPage>(
        http,
        withQuery(`${v4}/${parent}/reviews`, {
          pageSize: String(pageSize),
          pageToken: pageToken ?? undefined,
        }),
        { method: 'GET', headers: bearer(accessToken) },
        classifyGoogle,
      ),

    getReview: (accessToken: string, reviewName: string) =>
      requestJson<GoogleReview>(
        http,
        `${v4}/${reviewName}`,
        { method: 'GET', headers: bearer(accessToken) },
        classifyGoogle,
      ),

    /** updateReply: creates or replaces the reply (a PUT), so it may be sent again. */
    updateReply: (accessToken: string, reviewName: string, comment: string) =>
      requestJson<GoogleReviewReply>(
        http,
        `${v4}/${reviewName}/reply`,
        {
          method: 'PUT',
          headers: { ...bearer(accessToken), 'content-type': 'application/json' },
          body: JSON.stringify({ comment }),
        },
        classifyGoogle,
        { repeatable: true },
      ),

    async deleteReply(accessToken: string, reviewName: string): Promise<void> {
      await requestJson(
        http,
        `${v4}/${reviewName}/reply`,
        { method: 'DELETE', headers: bearer(accessToken) },
        classifyGoogle,
      );
    },
  };
}

/** v4 media (§1.7): the location's photo library. */
function mediaCalls(cfg: GoogleConfig, http: HttpDeps) {
  const v4 = `${cfg.myBusinessUrl}/v4`;
  return {
    /**
     * v4 media, step 1 of a byte upload (§1.7): a slot to send bytes to. Repeatable: a slot
     * that is never used makes no media item.
     */
    startMediaUpload: (accessToken: string, parent: string) =>
      requestJson<{ resourceName?: string }>(
        http,
        `${v4}/${parent}/media:startUpload`,
        {
          method: 'POST',
          headers: { ...bearer(accessToken), 'content-type': 'application/json' },
          body: '{}',
        },
        classifyGoogle,
        { repeatable: true },
      ),

    /** Step 2: the raw bytes to the slot. Repeatable: the same slot is written again. */
    async uploadMediaBytes(
      accessToken: string,
      resourceName: string,
      bytes: Uint8Array,
      contentType: string,
    ): Promise<void> {
      await requestJson(
        http,
        withQuery(`${cfg.myBusinessUrl}/upload/v1/media/${resourceName}`, {
          upload_type: 'media',
        }),
        {
          method: 'POST',
          headers: { ...bearer(accessToken), 'content-type': contentType },
          body: bytes as unknown as NonNullable<RequestInit['body']>,
        },
        classifyGoogle,
        { repeatable: true },
      );
    },

    /** Step 3: the media item from the slot (`dataRef`). Creates: sent once, never repeated. */
    createMedia: (accessToken: string, parent: string, item: Record<string, unknown>) =>
      requestJson<GoogleMediaItem>(
        http,
        `${v4}/${parent}/media`,
        {
          method: 'POST',
          headers: { ...bearer(accessToken), 'content-type': 'application/json' },
          body: JSON.stringify(item),
        },
        classifyGoogle,
        { repeatable: false },
      ),

    /** Every media item of the location, all pages (2500 a page, Google's maximum). */
    async listMedia(accessToken: string, parent: string): Promise<GoogleMediaItem[]> {
      const out: GoogleMediaItem[] = [];
      let pageToken: string | undefined;
      do {
        const page = await requestJson<{ mediaItems?: GoogleMediaItem[]; nextPageToken?: string }>(
          http,
          withQuery(`${v4}/${parent}/media`, { pageSize: '2500', pageToken }),
          { method: 'GET', headers: bearer(accessToken) },
          classifyGoogle,
        );
        out.push(...(page.mediaItems ?? []));
        pageToken = page.nextPageToken || undefined;
      } while (pageToken);
      return out;
    },

    async deleteMedia(accessToken: string, mediaName: string): Promise<void> {
      await requestJson(
        http,
        `${v4}/${mediaName}`,
        { method: 'DELETE', headers: bearer(accessToken) },
        classifyGoogle,
      );
    },
  };
}

/** Business Profile Performance v1 (§1.5). */
function performanceCalls(cfg: GoogleConfig, http: HttpDeps) {
  return {
    /** Performance v1 daily series (§1.5); values are int64 strings, zeros may be omitted. */
    dailyMetrics(
      accessToken: string,
      locationId: string,
      metrics: readonly string[],
      start: { year: number; month: number; day: number },
      end: { year: number; month: number; day: number },
    ): Promise<GoogleDailySeries> {
      const q = new URLSearchParams();
      for (const m of metrics) q.append('dailyMetrics', m);
      for (const [k, d] of [
        ['startDate', start],
        ['endDate', end],
      ] as const) {
        q.set(`dailyRange.${k}.year`, String(d.year));
        q.set(`dailyRange.${k}.month`, String(d.month));
        q.set(`dailyRange.${k}.day`, String(d.day));
      }
      return requestJson<GoogleDailySeries>(
        http,
        `${cfg.performanceUrl}/v1/locations/${locationId}:fetchMultiDailyMetricsTimeSeries?${q.toString()}`,
        { method: 'GET', headers: bearer(accessToken) },
        classifyGoogle,
      );
    },

    /**
     * Performance v1 monthly search keywords (§1.5) of one month (startMonth = endMonth, so each
     * month is stored on its own), every page followed. `insightsValue` has `value` (an int64
     * string) or `threshold` (fewer than N); an empty month comes without `searchKeywordsCounts`.
     */
    async monthlyKeywords(
      accessToken: string,
      locationId: string,
      month: { year: number; month: number },
    ): Promise<GoogleKeywordCount[]> {
      const out: GoogleKeywordCount[] = [];
      let pageToken: string | undefined;
      do {
        const q = new URLSearchParams();
        for (const k of ['startMonth', 'endMonth']) {
          q.set(`monthlyRange.${k}.year`, String(month.year));
          q.set(`monthlyRange.${k}.month`, String(month.month));
        }
        q.set('pageSize', '100');
        if (pageToken) q.set('pageToken', pageToken);
        const page = await requestJson<{
          searchKeywordsCounts?: GoogleKeywordCount[];
          nextPageToken?: string;
        }>(
          http,
          `${cfg.performanceUrl}/v1/locations/${locationId}/searchkeywords/impressions/monthly?${q.toString()}`,
          { method: 'GET', headers: bearer(accessToken) },
          classifyGoogle,
        );
        out.push(...(page.searchKeywordsCounts ?? []));
        pageToken = page.nextPageToken || undefined;
      } while (pageToken);
      return out;
    },
  };
}

/**
 * Google over HTTP. OAuth is two form POSTs over fetch (we keep the tokens, so the auth
 * library's own refresh loop would fight ours); Account Management and Business Information
 * go through the official clients with `rootUrl` from config (ADR 0009).
 */
export function createGoogleClient(cfg: GoogleConfig, http: HttpDeps) {
  return {
    ...oauthCalls(cfg, http),
    ...businessInformationCalls(cfg, http),
    ...localPostCalls(cfg, http),
    ...mediaCalls(cfg, http),
    ...reviewCalls(cfg, http),
    ...performanceCalls(cfg, http),
  };
}

export type GoogleClient = ReturnType<typeof createGoogleClient>;

export type GoogleLocalPost = {
  name?: string;
  summary?: string;
  createTime?: string;
  /** LocalPostState: LOCAL_POST_STATE_UNSPECIFIED, REJECTED, LIVE, PROCESSING. */
  state?: string;
  searchUrl?: string;
};

/** A v4 MediaItem (providers.md §1.7), the fields Tenpo reads. */
export type GoogleMediaItem = {
  name?: string;
  mediaFormat?: string;
  googleUrl?: string;
  thumbnailUrl?: string;
  createTime?: string;
  dataRef?: { resourceName?: string };
  sourceUrl?: string;
};

export type GoogleKeywordCount = {
  searchKeyword?: string;
  insightsValue?: { value?: string; threshold?: string };
};

export type GoogleDailySeries = {
  multiDailyMetricTimeSeries?: {
    dailyMetricTimeSeries?: {
      dailyMetric?: string;
      timeSeries?: {
        datedValues?: { date?: { year?: number; month?: number; day?: number }; value?: string }[];
      };
    }[];
  }[];
};

/** A v4 ReviewReply (fixtures/google-reviews), with its 2026 moderation fields. */
export type GoogleReviewReply = {
  comment?: string;
  updateTime?: string;
  reviewReplyState?: string;
  /** A ReviewReply.PolicyViolation value (ADVERTISING_AND_SOLICITATION…), when rejected. */
  policyViolation?: string;
};

/** A v4 Review (fixtures/google-reviews), the fields Tenpo reads. */
export type GoogleReview = {
  name?: string;
  reviewId?: string;
  reviewer?: { profilePhotoUrl?: string; displayName?: string; isAnonymous?: boolean };
  starRating?: string;
  comment?: string;
  createTime?: string;
  updateTime?: string;
  reviewReply?: GoogleReviewReply;
  reviewMediaItems?: { thumbnailUrl?: string; videoUrl?: string; googleUrl?: string }[];
  reviewReplyUrl?: string;
};

export type GoogleReviewPage = {
  reviews?: GoogleReview[];
  averageRating?: number;
  totalReviewCount?: number;
  nextPageToken?: string;
};
