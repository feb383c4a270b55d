import type { FastifyInstance } from 'fastify';
import { field, numericId, PathRouter, type Dict } from '../shared/http';
import { loadMediaUrl } from '../shared/media';
import { secretMatches } from '../shared/oauth';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { registerInstagramGraph } from '../instagram/instagram.graph';
import { graphError, invalidToken, unsupported } from './facebook.errors';
import { fbPages, fbUsers } from './facebook.fixtures';
import { accessTokenEndpoint } from './facebook.oauth';
import type { FacebookState } from './facebook.state';
import { fieldList, g, pick, type GraphCtx } from './facebook.graph-common';
import { graphAuth, pagesOf } from './facebook.graph-auth';
import { registerFacebookPhotos, registerFacebookVideos } from './facebook.graph-media';
import { registerFacebookNodes } from './facebook.graph-nodes';
import { pageNode, registerFacebookFeed } from './facebook.graph-posts';

export function registerFacebookGraph(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<FacebookState>,
): void {
  const router = new PathRouter();
  const loadMedia: GraphCtx['loadMedia'] = (url, provider, maxBytes = 1024 * 1024 * 1024) =>
    loadMediaUrl(rt, provider, url, maxBytes);
  const ctx: GraphCtx = { rt, store, auth: graphAuth(rt, store), pagesOf, loadMedia };

  // The order matters: the first pattern that matches the path answers it.
  registerFacebookTokens(router, ctx);
  registerFacebookMe(router, ctx);
  registerFacebookFeed(router, ctx);
  registerFacebookPhotos(router, ctx);
  registerFacebookVideos(router, ctx);
  registerInstagramGraph(router, ctx);
  registerFacebookNodes(router, ctx);

  app.register(
    async (scope) =>
      router.mount(scope, (m, p) =>
        m.endsWith('!')
          ? unsupported(m.replace('!', ''), p.replace(/^v\d+\.\d+\//, ''))
          : graphError(
              400,
              2500,
              'Unknown path components: /' + p.replace(/^v\d+\.\d+\//, ''),
              'OAuthException',
            ),
      ),
    {
      prefix: '/facebook/graph',
    },
  );
}

/** The token exchange and debug_token. */
function registerFacebookTokens(router: PathRouter, ctx: GraphCtx): void {
  const { rt, store } = ctx;
  const s = () => store.data;

  router.add('GET', g('oauth/access_token'), accessTokenEndpoint(rt, store));
  router.add('GET', g('debug_token'), async (req) => {
    const app = field(req, 'access_token') ?? '';
    const [id, secret] = app.split('|');
    const appOk = secretMatches(id, secret);
    const caller = appOk ? undefined : s().tokens.find((t) => t.token === app && !t.revoked);
    if (!appOk && !caller) throw invalidToken();
    const t = s().tokens.find((x) => x.token === field(req, 'input_token'));
    if (!t)
      return {
        data: {
          is_valid: false,
          error: { code: 190, message: 'Invalid OAuth access token.' },
          scopes: [],
        },
      };
    const valid = !t.revoked && (t.expiresAt === 0 || t.expiresAt > rt.now());
    return {
      data: {
        app_id: 'tenpo-sandbox',
        type: t.kind === 'page' ? 'PAGE' : 'USER',
        application: 'Tenpo (sandbox)',
        data_access_expires_at: Math.floor((t.issuedAt + 90 * 86400_000) / 1000),
        expires_at: t.expiresAt === 0 ? 0 : Math.floor(t.expiresAt / 1000),
        is_valid: valid,
        issued_at: Math.floor(t.issuedAt / 1000),
        scopes: t.scopes,
        granular_scopes: t.scopes
          .filter((x) => x.startsWith('pages_') || x.startsWith('instagram_'))
          .map((scope) => ({ scope, target_ids: t.pageIds })),
        user_id: t.userId,
        ...(t.pageId ? { profile_id: t.pageId } : {}),
      },
    };
  });
}

/** The caller: me, its permissions, and the pages it manages (me/accounts, with page tokens). */
function registerFacebookMe(router: PathRouter, ctx: GraphCtx): void {
  const { rt, store, auth } = ctx;
  const s = () => store.data;

  router.add('GET', g('me'), async (req, reply) => {
    const t = await auth(req, reply, 'facebook', []);
    if (t.kind === 'page') return pageNode(req, t.pageId as string);
    const u = fbUsers.find((x) => x.id === t.userId);
    return pick(
      { id: t.userId, name: u?.name, ...(t.scopes.includes('email') ? { email: u?.email } : {}) },
      fieldList(req),
      ['name'],
    );
  });
  router.add('GET', g('me/permissions'), async (req, reply) => {
    const t = await auth(req, reply, 'facebook', []);
    return {
      data: [
        ...t.scopes.map((p) => ({ permission: p, status: 'granted' })),
        ...t.declined.map((p) => ({ permission: p, status: 'declined' })),
      ],
    };
  });
  router.add('DELETE', g('me/permissions'), async (req, reply) => {
    const t = await auth(req, reply, 'facebook', []);
    // De-authorizing the app ends every token of this user.
    for (const x of s().tokens) if (x.userId === t.userId) x.revoked = true;
    store.save();
    return { success: true };
  });
  router.add('GET', g('me/accounts'), async (req, reply) => {
    const t = await auth(req, reply, 'facebook', []);
    if (t.kind !== 'user')
      throw graphError(
        400,
        100,
        '(#100) Tried accessing nonexisting field (accounts) on node type (Page)',
        'OAuthException',
      );
    const ids = t.scopes.includes('pages_show_list') ? pagesOf(t) : [];
    const limit = Math.min(100, Math.max(1, Number(field(req, 'limit') ?? 25) || 25));
    const after = field(req, 'after');
    const before = field(req, 'before');
    let start = 0;
    if (after) start = ids.indexOf(Buffer.from(after, 'base64url').toString()) + 1;
    if (before)
      start = Math.max(0, ids.indexOf(Buffer.from(before, 'base64url').toString()) - limit);
    const slice = ids.slice(start, start + limit);
    const fields = fieldList(req);
    const data = slice.map((id) => {
      const pg = fbPages.find((p) => p.id === id);
      let pt = s().tokens.find(
        (x) =>
          x.kind === 'page' &&
          x.pageId === id &&
          x.userId === t.userId &&
          !x.revoked &&
          x.long === t.long &&
          (x.expiresAt === 0 || x.expiresAt === t.expiresAt),
      );
      if (!pt) {
        pt = {
          ...t,
          token: `EAAT${numericId(6)}${Buffer.from(`${id}:${Math.random()}`).toString('base64url')}`,
          kind: 'page',
          pageId: id,
          issuedAt: rt.now(),
          expiresAt: t.long ? 0 : t.expiresAt,
        };
        s().tokens.push(pt);
      }
      const node: Dict = {
        access_token: pt.token,
        category: pg?.category,
        category_list: [{ id: pg?.categoryId, name: pg?.category }],
        name: pg?.name,
        id,
        tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
        ...(pg?.igId ? { instagram_business_account: { id: pg.igId } } : {}),
      };
      return pick(node, fields, ['access_token', 'category', 'category_list', 'name', 'tasks']);
    });
    store.save();
    const cursor = (id: string | undefined) => Buffer.from(id ?? '').toString('base64url');
    return {
      data,
      paging: {
        cursors: { before: cursor(slice[0]), after: cursor(slice[slice.length - 1]) },
        ...(start + limit < ids.length
          ? {
              next: `${rt.baseUrl}/facebook/graph/me/accounts?limit=${limit}&after=${cursor(slice[slice.length - 1])}`,
            }
          : {}),
        ...(start > 0
          ? {
              previous: `${rt.baseUrl}/facebook/graph/me/accounts?limit=${limit}&before=${cursor(slice[0])}`,
            }
          : {}),
      },
    };
  });
}
