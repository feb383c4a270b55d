import type { ChannelsConfig } from '../../config';
import { form, requestJson, withQuery, type HttpDeps } from '../http';
import { classifyGraph, isGoneAnswer } from './facebook.errors';

/**
 * Pages and Instagram publishing (reference §2.2, §3.1). Page videos need only the three
 * `pages_*` permissions (Video API publishing guide), so `publish_video` is not asked (ADR 0063).
 */
export const FACEBOOK_SCOPES = [
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_posts',
  'business_management',
  'instagram_basic',
  'instagram_content_publish',
];

export type GraphToken = { access_token: string; token_type?: string; expires_in?: number };

export type GraphPage = {
  id: string;
  name: string;
  access_token?: string;
  instagram_business_account?: { id: string };
};

export type Paged<T> = { data?: T[]; paging?: { next?: string; cursors?: { after?: string } } };

/**
 * The `after` cursor of the next page: only while `paging.next` is there (the Graph API leaves
 * it out on the last page, and a short or even empty page is not the end by itself).
 */
export const nextCursor = (page: Paged<unknown>): string | null =>
  (page.paging?.next && page.paging.cursors?.after) || null;

/** The Graph API over fetch, version pinned in config (FACEBOOK_GRAPH_VERSION). */
export function createFacebookClient(cfg: ChannelsConfig['facebook'], http: HttpDeps) {
  const graph = `${cfg.graphUrl}/${cfg.graphVersion}`;
  const get = <T>(url: string) => requestJson<T>(http, url, { method: 'GET' }, classifyGraph);

  return {
    dialogUrl: (p: { state: string; redirectUri: string }): string =>
      withQuery(`${cfg.wwwUrl}/${cfg.graphVersion}/dialog/oauth`, {
        client_id: cfg.appId,
        redirect_uri: p.redirectUri,
        state: p.state,
        scope: FACEBOOK_SCOPES.join(','),
        response_type: 'code',
      }),

    // A code is single-use: an exchange that timed out is not sent again.
    exchangeCode: (code: string, redirectUri: string) =>
      requestJson<GraphToken>(
        http,
        withQuery(`${graph}/oauth/access_token`, {
          client_id: cfg.appId,
          client_secret: cfg.appSecret,
          redirect_uri: redirectUri,
          code,
        }),
        { method: 'GET' },
        classifyGraph,
        { repeatable: false },
      ),

    /** A long-lived (~60 days) user token from a short-lived or a still-valid long one. */
    longLived: (token: string) =>
      get<GraphToken>(
        withQuery(`${graph}/oauth/access_token`, {
          grant_type: 'fb_exchange_token',
          client_id: cfg.appId,
          client_secret: cfg.appSecret,
          fb_exchange_token: token,
        }),
      ),

    me: (token: string) =>
      get<{ id: string; name?: string }>(
        withQuery(`${graph}/me`, { fields: 'id,name', access_token: token }),
      ),

    /** Every page the user granted, following the cursor paging. */
    async pages(userToken: string): Promise<GraphPage[]> {
      const out: GraphPage[] = [];
      let after: string | undefined;
      // Our own URL with the `after` cursor rather than `paging.next`, which carries the token
      // in its query and, from the sandbox, loses the `fields`.
      for (let i = 0; i < 50; i += 1) {
        const page: Paged<GraphPage> = await get<Paged<GraphPage>>(
          withQuery(`${graph}/me/accounts`, {
            fields: 'id,name,access_token,instagram_business_account',
            limit: '100',
            after,
            access_token: userToken,
          }),
        );
        out.push(...(page.data ?? []));
        after = page.paging?.next ? page.paging.cursors?.after : undefined;
        if (!after || (page.data ?? []).length === 0) break;
      }
      return out;
    },

    instagramUser: (igUserId: string, pageToken: string) =>
      get<{ id: string; username?: string }>(
        withQuery(`${graph}/${igUserId}`, { fields: 'username', access_token: pageToken }),
      ),

    /** A POST to a node's edge that creates something (a post, a photo, a container): sent once. */
    create: <T>(path: string, params: Record<string, string | undefined>, token: string) =>
      requestJson<T>(
        http,
        `${graph}/${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ ...params, access_token: token }),
        },
        classifyGraph,
        { repeatable: false },
      ),

    /** A node's edge list (first page), e.g. a page's published posts or an IG user's media. */
    /** One page of an edge; `cursorOf` gives what to pass as `after` for the next, if any. */
    list: <T>(path: string, params: Record<string, string | undefined>, token: string) =>
      get<Paged<T>>(withQuery(`${graph}/${path}`, { ...params, access_token: token })),

    node: <T>(id: string, params: Record<string, string | undefined>, token: string) =>
      get<T>(withQuery(`${graph}/${id}`, { ...params, access_token: token })),

    /** Deletes a node; one Graph says does not exist (100/33) counts as removed. */
    async remove(id: string, token: string): Promise<void> {
      let gone = false;
      try {
        await requestJson(
          http,
          withQuery(`${graph}/${id}`, { access_token: token }),
          { method: 'DELETE' },
          (status, body, headers) => {
            gone = isGoneAnswer(body);
            return classifyGraph(status, body, headers);
          },
        );
      } catch (err) {
        if (gone) return;
        throw err;
      }
    },

    /** What Graph knows of a token (`expires_at` 0: it does not expire), read with the app token. */
    debugToken: (token: string) =>
      get<{ data?: { is_valid?: boolean; expires_at?: number; type?: string } }>(
        withQuery(`${graph}/debug_token`, {
          input_token: token,
          access_token: `${cfg.appId}|${cfg.appSecret}`,
        }),
      ),

    /** De-authorizes the app for the user (DELETE /me/permissions). */
    async revoke(userToken: string): Promise<void> {
      await requestJson(
        http,
        withQuery(`${graph}/me/permissions`, { access_token: userToken }),
        { method: 'DELETE' },
        classifyGraph,
      );
    },
  };
}

export type FacebookClient = ReturnType<typeof createFacebookClient>;
