import type { ChannelsConfig } from '../../config';
import { form, requestJson, withQuery, type HttpDeps } from '../http';
import { classifyX } from './x.errors';

/** Posting with media needs these; offline.access brings a refresh token (reference §4.1). */
export const X_SCOPE = 'tweet.read tweet.write users.read offline.access media.write';

export type XToken = {
  token_type?: string;
  expires_in?: number;
  access_token: string;
  scope?: string;
  refresh_token?: string;
};

/**
 * X API v2 over fetch (DESIGN §9: twitter-api-v2 hard-codes its hosts). A confidential
 * client: the token endpoint takes HTTP Basic with the client id and secret.
 */
export function createXClient(cfg: ChannelsConfig['x'], http: HttpDeps) {
  const classify = classifyX(http.now);
  const basic = `Basic ${Buffer.from(`${cfg.clientId}:${cfg.clientSecret}`).toString('base64')}`;
  // Token endpoint calls: neither a code exchange (single-use code) nor a refresh (X rotates
  // refresh tokens: once the first call reached X, the old one is refused) is sent twice.
  const post = <T>(path: string, params: Record<string, string | undefined>, repeatable: boolean) =>
    requestJson<T>(
      http,
      `${cfg.apiUrl}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body: form({ client_id: cfg.clientId, ...params }),
      },
      classify,
      { repeatable },
    );
  const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

  return {
    authorizeUrl: (p: { state: string; redirectUri: string; codeChallenge: string }): string =>
      withQuery(`${cfg.wwwUrl}/i/oauth2/authorize`, {
        response_type: 'code',
        client_id: cfg.clientId,
        redirect_uri: p.redirectUri,
        scope: X_SCOPE,
        state: p.state,
        code_challenge: p.codeChallenge,
        code_challenge_method: 'S256',
      }),
    exchangeCode: (code: string, redirectUri: string, codeVerifier: string) =>
      post<XToken>(
        '/2/oauth2/token',
        {
          code,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          code_verifier: codeVerifier,
        },
        false,
      ),
    refresh: (refreshToken: string) =>
      post<XToken>(
        '/2/oauth2/token',
        { grant_type: 'refresh_token', refresh_token: refreshToken },
        false,
      ),
    async revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
      await post('/2/oauth2/revoke', { token, token_type_hint: hint }, true);
    },
    me: (accessToken: string) =>
      requestJson<{ data?: { id: string; name?: string; username?: string } }>(
        http,
        withQuery(`${cfg.apiUrl}/2/users/me`, {}),
        { method: 'GET', headers: bearer(accessToken) },
        classify,
      ),

    /** POST /2/tweets (§4.2): creates a post, so it is sent once only. */
    createTweet: (accessToken: string, body: { text?: string; media?: { media_ids: string[] } }) =>
      requestJson<{ data: { id: string; text: string } }>(
        http,
        `${cfg.apiUrl}/2/tweets`,
        {
          method: 'POST',
          headers: { ...bearer(accessToken), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        },
        classify,
        { repeatable: false },
      ),

    async deleteTweet(accessToken: string, id: string): Promise<void> {
      await requestJson(
        http,
        `${cfg.apiUrl}/2/tweets/${encodeURIComponent(id)}`,
        { method: 'DELETE', headers: bearer(accessToken) },
        classify,
      );
    },

    /** One page of the user's timeline; `meta.next_token` names the next (sent back as is). */
    userTweets: (
      accessToken: string,
      userId: string,
      since: Date,
      max: number,
      paginationToken: string | null = null,
    ) =>
      requestJson<{
        data?: {
          id: string;
          text: string;
          created_at?: string;
          attachments?: { media_keys?: string[] };
        }[];
        meta?: { next_token?: string };
      }>(
        http,
        withQuery(`${cfg.apiUrl}/2/users/${encodeURIComponent(userId)}/tweets`, {
          max_results: String(Math.max(5, Math.min(100, max))),
          pagination_token: paginationToken ?? undefined,
          start_time: since.toISOString(),
          'tweet.fields': 'created_at,attachments',
        }),
        { method: 'GET', headers: bearer(accessToken) },
        classify,
      ),

    /**
     * Chunked upload, step 1 (§4.3 `initialize`): creates a media object, so it is sent once
     * only (an unanswered one leaves at most an unused media id, which expires).
     */
    initializeUpload: (
      accessToken: string,
      body: { media_type: string; total_bytes: number; media_category: string },
    ) =>
      requestJson<XMediaAnswer>(
        http,
        `${cfg.apiUrl}/2/media/upload/initialize`,
        {
          method: 'POST',
          headers: { ...bearer(accessToken), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        },
        classify,
        { repeatable: false },
      ),

    /** Step 2: one segment (multipart `segment_index`, `media`); sent once (X appends it). */
    async appendUpload(accessToken: string, id: string, index: number, chunk: Uint8Array) {
      const body = new FormData();
      body.set('segment_index', String(index));
      body.set('media', new Blob([chunk], { type: 'application/octet-stream' }), 'media');
      await requestJson(
        http,
        `${cfg.apiUrl}/2/media/upload/${encodeURIComponent(id)}/append`,
        { method: 'POST', headers: bearer(accessToken), body },
        classify,
        { repeatable: false },
      );
    },

    /** Step 3: the bytes are complete; X answers with its processing state. Repeatable. */
    finalizeUpload: (accessToken: string, id: string) =>
      requestJson<XMediaAnswer>(
        http,
        `${cfg.apiUrl}/2/media/upload/${encodeURIComponent(id)}/finalize`,
        { method: 'POST', headers: bearer(accessToken) },
        classify,
        { repeatable: true },
      ),

    /** Step 4: `GET /2/media/upload?command=STATUS&media_id=` while X processes a video. */
    uploadStatus: (accessToken: string, id: string) =>
      requestJson<XMediaAnswer>(
        http,
        withQuery(`${cfg.apiUrl}/2/media/upload`, { command: 'STATUS', media_id: id }),
        { method: 'GET', headers: bearer(accessToken) },
        classify,
      ),

    /** One-shot image upload (§4.3): creates a media object, so it is sent once only. */
    uploadImage(accessToken: string, bytes: Uint8Array, contentType: string) {
      const body = new FormData();
      body.set('media_category', 'tweet_image');
      body.set('media', new Blob([bytes], { type: contentType }), 'media');
      return requestJson<{ data: { id: string; media_key?: string } }>(
        http,
        `${cfg.apiUrl}/2/media/upload`,
        { method: 'POST', headers: bearer(accessToken), body },
        classify,
        { repeatable: false },
      );
    },
  };
}

export type XClient = ReturnType<typeof createXClient>;

/** A media object's processing as X reports it (finalize and STATUS, §4.3). */
export type XProcessing = {
  state: 'pending' | 'in_progress' | 'succeeded' | 'failed';
  check_after_secs?: number;
  progress_percent?: number;
  error?: { code?: number; name?: string; message?: string };
};
export type XMediaAnswer = {
  data: {
    id: string;
    media_key?: string;
    size?: number;
    expires_after_secs?: number;
    processing_info?: XProcessing;
  };
};
