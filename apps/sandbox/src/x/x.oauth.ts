import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  basicAuth,
  esc,
  field,
  hiddenInputs,
  isHttpUrl,
  page,
  randomToken,
  withQuery,
} from '../shared/http';
import { clientKnown, pkceMatches, secretMatches } from '../shared/oauth';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { oauthError } from './x.errors';
import { xUsers, type XState, type XToken } from './x.state';

const PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;
const SCOPES = [
  'tweet.read',
  'tweet.write',
  'tweet.moderate.write',
  'users.read',
  'users.email',
  'follows.read',
  'follows.write',
  'offline.access',
  'space.read',
  'mute.read',
  'mute.write',
  'like.read',
  'like.write',
  'list.read',
  'list.write',
  'block.read',
  'block.write',
  'bookmark.read',
  'bookmark.write',
  'dm.read',
  'dm.write',
  'media.write',
];

export function registerXOAuth(app: FastifyInstance, rt: Runtime, store: JsonStore<XState>): void {
  const params = (req: FastifyRequest) =>
    Object.fromEntries(PARAMS.map((k) => [k, field(req, k)])) as Record<
      (typeof PARAMS)[number],
      string | undefined
    >;
  const broken = (reply: FastifyReply, why: string) => {
    reply.code(400).type('text/html; charset=utf-8');
    return page(
      'X',
      `<div class="card"><h1>問題が発生しました<br><small>Something went wrong</small></h1><p>アプリへのアクセスを許可できませんでした。戻ってもう一度ログインしてください。<br><small>You weren’t able to give access to the App. Go back and try logging in again.</small></p><p class="muted">${esc(why)}</p></div>`,
      '#000',
    );
  };
  const precheck = (reply: FastifyReply, p: ReturnType<typeof params>) => {
    if (p.response_type !== 'code') return broken(reply, 'response_type must be code');
    if (!clientKnown(p.client_id)) return broken(reply, 'unknown client_id');
    if (!isHttpUrl(p.redirect_uri)) return broken(reply, 'invalid redirect_uri');
    if (!p.state) return broken(reply, 'state is required');
    if (!p.code_challenge) return broken(reply, 'code_challenge is required (PKCE)');
    if (!['s256', 'plain'].includes((p.code_challenge_method ?? 'plain').toLowerCase()))
      return broken(reply, 'code_challenge_method must be S256 or plain');
    const bad = (p.scope ?? '').split(/\s+/).filter((s) => s && !SCOPES.includes(s));
    if (!p.scope || bad.length) return broken(reply, `invalid scope: ${bad.join(' ')}`);
    return undefined;
  };

  app.get('/x/i/oauth2/authorize', async (req, reply) => {
    const p = params(req);
    const bad = precheck(reply, p);
    if (bad) return bad;
    const users = xUsers
      .map(
        (u, i) =>
          `<label class="opt"><input type="radio" name="user_id" value="${u.id}" ${i === 0 ? 'checked' : ''}><span><b>${esc(u.name)}</b><br><small>@${esc(u.username)}</small></span></label>`,
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    return page(
      'X - アプリを認証 / Authorize app',
      `<div class="card"><h1>Tenpo があなたの X アカウントへのアクセスを求めています<br><small>Tenpo wants to access your X account</small></h1>
<form method="post">${hiddenInputs(p)}${users}
<p>許可する内容 / Scopes:</p><ul>${(p.scope ?? '')
        .split(/\s+/)
        .map((s) => `<li><code>${esc(s)}</code></li>`)
        .join('')}</ul>
<div class="actions"><button name="decision" value="deny">キャンセル / Cancel</button><button class="primary" name="decision" value="allow">アプリにアクセスを許可 / Authorize app</button></div></form></div>`,
      '#000',
    );
  });

  app.post('/x/i/oauth2/authorize', async (req, reply) => {
    const p = params(req);
    const bad = precheck(reply, p);
    if (bad) return bad;
    if (field(req, 'decision') !== 'allow')
      return reply.redirect(
        withQuery(p.redirect_uri as string, { error: 'access_denied', state: p.state }),
        302,
      );
    const userId = field(req, 'user_id') ?? '';
    if (!xUsers.some((u) => u.id === userId)) return broken(reply, 'no account chosen');
    const code = randomToken('', 60);
    store.data.codes.push({
      code,
      clientId: p.client_id as string,
      redirectUri: p.redirect_uri as string,
      userId,
      scope: (p.scope ?? '').split(/\s+/).filter(Boolean).join(' '),
      challenge: p.code_challenge as string,
      method: p.code_challenge_method ?? 'plain',
      expiresAt: rt.now() + rt.settings().x.codeTtlSeconds * 1000,
      used: false,
    });
    store.save();
    return reply.redirect(withQuery(p.redirect_uri as string, { state: p.state, code }), 302);
  });

  /** Confidential clients authenticate with HTTP Basic; Tenpo's sandbox client is confidential. */
  const client = (req: FastifyRequest): string => {
    const basic = basicAuth(req);
    if (!basic || !secretMatches(basic.id, basic.secret))
      throw oauthError(401, 'unauthorized_client', 'Missing valid authorization header');
    const bodyId = field(req, 'client_id');
    if (bodyId && bodyId !== basic.id)
      throw oauthError(401, 'unauthorized_client', 'Missing valid authorization header');
    return basic.id;
  };

  const issue = (clientId: string, userId: string, scope: string) => {
    const s = store.data;
    const ttl = rt.settings().x.accessTokenTtlSeconds;
    const refresh = scope.split(' ').includes('offline.access') ? randomToken('', 60) : undefined;
    if (refresh) s.refreshTokens.push({ token: refresh, clientId, userId, scope, revoked: false });
    const access: XToken = {
      token: randomToken('', 60),
      clientId,
      userId,
      scope,
      expiresAt: rt.now() + ttl * 1000,
      revoked: false,
      refresh,
    };
    s.tokens.push(access);
    store.save();
    return {
      token_type: 'bearer',
      expires_in: ttl,
      access_token: access.token,
      scope,
      ...(refresh ? { refresh_token: refresh } : {}),
    };
  };

  app.post('/x/api/2/oauth2/token', async (req) => {
    const clientId = client(req);
    const grant = field(req, 'grant_type');
    const s = store.data;
    if (grant === 'authorization_code') {
      const code = s.codes.find((c) => c.code === field(req, 'code'));
      const verifier = field(req, 'code_verifier');
      if (!verifier)
        throw oauthError(400, 'invalid_request', 'Missing required parameter [code_verifier].');
      const valid =
        code &&
        !code.used &&
        code.expiresAt > rt.now() &&
        code.clientId === clientId &&
        code.redirectUri === field(req, 'redirect_uri') &&
        pkceMatches(code.challenge, code.method, verifier);
      if (code) code.used = true;
      if (!valid || !code) {
        store.save();
        throw oauthError(
          400,
          'invalid_request',
          'Value passed for the authorization code was invalid.',
        );
      }
      return issue(clientId, code.userId, code.scope);
    }
    if (grant === 'refresh_token') {
      const r = s.refreshTokens.find((t) => t.token === field(req, 'refresh_token'));
      if (!r || r.revoked || r.clientId !== clientId)
        throw oauthError(400, 'invalid_request', 'Value passed for the token was invalid.');
      // Rotation: the refresh token just used stops working.
      r.revoked = true;
      return issue(clientId, r.userId, r.scope);
    }
    throw oauthError(400, 'invalid_request', 'Value passed for the grant_type was invalid.');
  });

  app.post('/x/api/2/oauth2/revoke', async (req) => {
    client(req);
    const value = field(req, 'token');
    const s = store.data;
    for (const t of s.tokens) if (t.token === value || t.refresh === value) t.revoked = true;
    for (const t of s.refreshTokens) if (t.token === value) t.revoked = true;
    store.save();
    return { revoked: true };
  });
}
