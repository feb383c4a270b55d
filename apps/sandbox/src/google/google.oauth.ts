import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  basicAuth,
  bearer,
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
import { googleUsers } from './google.fixtures';
import type { GAccess, GoogleState } from './google.state';

const scopeLabels: Record<string, string> = {
  'https://www.googleapis.com/auth/business.manage':
    'Google に登録されたビジネスの管理 / See, edit, create and delete your Google business listings',
  'https://www.googleapis.com/auth/plus.business.manage':
    'Google に登録されたビジネスの管理 (旧スコープ) / Manage your business listings (legacy)',
  openid: 'Google アカウントとの関連付け / Associate you with your personal info on Google',
  email: 'メールアドレスの表示 / See your primary Google Account email address',
  profile: '個人情報の表示 / See your personal info',
  'https://www.googleapis.com/auth/userinfo.email':
    'メールアドレスの表示 / See your primary Google Account email address',
  'https://www.googleapis.com/auth/userinfo.profile': '個人情報の表示 / See your personal info',
};

const AUTH_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'access_type',
  'prompt',
  'login_hint',
  'include_granted_scopes',
  'code_challenge',
  'code_challenge_method',
] as const;

const errorPage = (reply: FastifyReply, status: number, error: string, detail: string): string => {
  reply.code(status).type('text/html; charset=utf-8');
  return page(
    `Error ${status}: ${error}`,
    `<div class="card"><h1>アクセスをブロック: 承認エラー<br><small>Access blocked: Authorization Error</small></h1>
<p>${esc(detail)}</p><p><b>エラー ${status}: ${esc(error)}</b></p></div>`,
  );
};

const params = (req: FastifyRequest): Record<string, string | undefined> =>
  Object.fromEntries(AUTH_PARAMS.map((k) => [k, field(req, k)]));

/** Checks Google makes before it shows the consent screen (errors on its own page, not a redirect). */
const precheck = (
  reply: FastifyReply,
  p: Record<string, string | undefined>,
): string | undefined => {
  if (!p.client_id)
    return errorPage(reply, 400, 'invalid_request', 'Missing required parameter: client_id');
  if (!clientKnown(p.client_id))
    return errorPage(reply, 401, 'invalid_client', 'The OAuth client was not found.');
  if (!isHttpUrl(p.redirect_uri))
    return errorPage(
      reply,
      400,
      'redirect_uri_mismatch',
      `Invalid redirect_uri: ${p.redirect_uri ?? ''}`,
    );
  if (!p.scope)
    return errorPage(reply, 400, 'invalid_request', 'Missing required parameter: scope');
  if (p.response_type !== 'code')
    return errorPage(
      reply,
      400,
      'unsupported_response_type',
      `Invalid response_type: ${p.response_type ?? ''}`,
    );
  if (p.code_challenge_method && !['S256', 'plain'].includes(p.code_challenge_method))
    return errorPage(reply, 400, 'invalid_request', 'Invalid code_challenge_method value.');
  return undefined;
};

const tokenError = (reply: FastifyReply, status: number, error: string, description: string) => {
  reply.code(status).header('cache-control', 'no-cache, no-store, max-age=0, must-revalidate');
  return { error, error_description: description };
};

export function registerGoogleOAuth(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  registerGoogleConsent(app, rt, store);
  registerGoogleToken(app, rt, store);
  registerGoogleTokenInfo(app, rt, store);
}

/** The consent screen: choose an account, allow or deny; allowing redirects with a code. */
function registerGoogleConsent(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  const consent = async (req: FastifyRequest, reply: FastifyReply) => {
    const p = params(req);
    const bad = precheck(reply, p);
    if (bad) return bad;
    const scopes = (p.scope ?? '').split(/\s+/).filter(Boolean);
    const hint = p.login_hint?.toLowerCase();
    const options = googleUsers
      .map(
        (
          u,
          i,
        ) => `<label class="opt"><input type="radio" name="account" value="${esc(u.email)}" ${(hint ? hint === u.email : i === 0) ? 'checked' : ''}>
<span><b>${esc(u.name)}</b><br><small>${esc(u.email)}</small></span></label>`,
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    return page(
      'Google でログイン - Sign in with Google',
      `<div class="card"><h1>アカウントの選択<br><small>Choose an account to continue to Tenpo (${esc(p.client_id ?? '')})</small></h1>
<form method="post">${hiddenInputs(p)}
${options}
<p>Tenpo が次のことを求めています / Tenpo wants to:</p>
<ul>${scopes.map((s) => `<li>${esc(scopeLabels[s] ?? s)}</li>`).join('')}</ul>
<p class="muted">リダイレクト先 / Redirect: <code>${esc(p.redirect_uri ?? '')}</code></p>
<div class="actions"><button name="decision" value="deny">キャンセル / Cancel</button>
<button class="primary" name="decision" value="allow">許可 / Allow</button></div></form></div>`,
    );
  };

  const decide = async (req: FastifyRequest, reply: FastifyReply) => {
    const p = params(req);
    const bad = precheck(reply, p);
    if (bad) return bad;
    const redirect = p.redirect_uri as string;
    if (field(req, 'decision') !== 'allow')
      return reply.redirect(withQuery(redirect, { error: 'access_denied', state: p.state }), 302);
    const email = field(req, 'account') ?? '';
    if (!googleUsers.some((u) => u.email === email))
      return errorPage(reply, 400, 'invalid_request', 'No account chosen.');
    const s = store.data;
    const offline = p.access_type === 'offline';
    const hasGrant = s.refreshTokens.some(
      (t) => t.clientId === p.client_id && t.email === email && !t.revoked,
    );
    const code = randomToken('4/0A', 36);
    s.codes.push({
      code,
      clientId: p.client_id as string,
      redirectUri: redirect,
      email,
      scope: (p.scope ?? '').split(/\s+/).filter(Boolean).join(' '),
      issueRefresh: offline && (!hasGrant || (p.prompt ?? '').split(' ').includes('consent')),
      expiresAt: rt.now() + rt.settings().google.codeTtlSeconds * 1000,
      used: false,
      codeChallenge: p.code_challenge,
      codeChallengeMethod: p.code_challenge ? (p.code_challenge_method ?? 'plain') : undefined,
    });
    store.save();
    return reply.redirect(
      withQuery(redirect, {
        state: p.state,
        code,
        scope: p.scope,
        authuser: '0',
        prompt: 'consent',
      }),
      302,
    );
  };

  for (const path of ['/google/accounts/o/oauth2/v2/auth', '/google/accounts/o/oauth2/auth']) {
    app.get(path, consent);
    app.post(path, decide);
  }
}

/** The token endpoint: an authorization code or a refresh token for an access token. */
function registerGoogleToken(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  const issueAccess = (
    clientId: string,
    email: string,
    scope: string,
    refreshToken?: string,
  ): GAccess => {
    const ttl = rt.settings().google.accessTokenTtlSeconds;
    const t: GAccess = {
      token: randomToken('ya29.a0', 48),
      clientId,
      email,
      scope,
      expiresAt: rt.now() + ttl * 1000,
      refreshToken,
      revoked: false,
    };
    store.data.accessTokens.push(t);
    return t;
  };

  app.post('/google/oauth2/token', async (req, reply) => {
    const basic = basicAuth(req);
    const clientId = basic?.id ?? field(req, 'client_id');
    const secret = basic?.secret ?? field(req, 'client_secret');
    const grant = field(req, 'grant_type');
    reply
      .header('cache-control', 'no-cache, no-store, max-age=0, must-revalidate')
      .header('pragma', 'no-cache');
    if (grant !== 'authorization_code' && grant !== 'refresh_token')
      return tokenError(reply, 400, 'unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`);
    if (!clientId)
      return tokenError(
        reply,
        400,
        'invalid_request',
        'Could not determine client ID from request.',
      );
    if (!clientKnown(clientId))
      return tokenError(reply, 401, 'invalid_client', 'The OAuth client was not found.');
    if (!secretMatches(clientId, secret))
      return tokenError(reply, 401, 'invalid_client', 'Unauthorized');
    const s = store.data;

    if (grant === 'authorization_code') {
      const codeValue = field(req, 'code');
      if (!codeValue)
        return tokenError(reply, 400, 'invalid_request', 'Missing required parameter: code');
      const code = s.codes.find((c) => c.code === codeValue);
      if (!code || code.clientId !== clientId)
        return tokenError(reply, 400, 'invalid_grant', 'Malformed auth code.');
      if (code.used || code.expiresAt <= rt.now())
        return tokenError(reply, 400, 'invalid_grant', 'Bad Request');
      if (field(req, 'redirect_uri') !== code.redirectUri)
        return tokenError(reply, 400, 'redirect_uri_mismatch', 'Bad Request');
      if (code.codeChallenge) {
        const verifier = field(req, 'code_verifier');
        if (!verifier) return tokenError(reply, 400, 'invalid_grant', 'Missing code verifier.');
        if (!pkceMatches(code.codeChallenge, code.codeChallengeMethod, verifier))
          return tokenError(reply, 400, 'invalid_grant', 'Invalid code verifier.');
      }
      code.used = true;
      let refresh: string | undefined;
      if (code.issueRefresh) {
        refresh = randomToken('1//0e', 60);
        s.refreshTokens.push({
          token: refresh,
          clientId,
          email: code.email,
          scope: code.scope,
          revoked: false,
          createdAt: rt.now(),
        });
      } else {
        refresh = s.refreshTokens.find(
          (t) => t.clientId === clientId && t.email === code.email && !t.revoked,
        )?.token;
      }
      const access = issueAccess(clientId, code.email, code.scope, refresh);
      store.save();
      return {
        access_token: access.token,
        expires_in: rt.settings().google.accessTokenTtlSeconds,
        ...(code.issueRefresh && refresh ? { refresh_token: refresh } : {}),
        scope: code.scope,
        token_type: 'Bearer',
      };
    }

    const rtValue = field(req, 'refresh_token');
    if (!rtValue)
      return tokenError(reply, 400, 'invalid_request', 'Missing required parameter: refresh_token');
    const refresh = s.refreshTokens.find((t) => t.token === rtValue);
    if (!refresh || refresh.revoked)
      return tokenError(reply, 400, 'invalid_grant', 'Token has been expired or revoked.');
    if (refresh.clientId !== clientId)
      return tokenError(reply, 400, 'unauthorized_client', 'Unauthorized');
    const access = issueAccess(clientId, refresh.email, refresh.scope, refresh.token);
    store.save();
    return {
      access_token: access.token,
      expires_in: rt.settings().google.accessTokenTtlSeconds,
      scope: refresh.scope,
      token_type: 'Bearer',
    };
  });
}

/** Revoking a grant, and learning whose account a token holds (tokeninfo, userinfo). */
function registerGoogleTokenInfo(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  app.post('/google/oauth2/revoke', async (req, reply) => {
    const value = field(req, 'token');
    const s = store.data;
    const refresh = s.refreshTokens.find((t) => t.token === value && !t.revoked);
    const access = s.accessTokens.find(
      (t) => t.token === value && !t.revoked && t.expiresAt > rt.now(),
    );
    if (!refresh && !access) {
      reply.code(400);
      return { error: 'invalid_token', error_description: 'Token expired or revoked' };
    }
    // Revoking either token ends the whole grant: the refresh token and every access token from it.
    const grant = refresh?.token ?? access?.refreshToken;
    if (grant) {
      for (const t of s.refreshTokens) if (t.token === grant) t.revoked = true;
      for (const t of s.accessTokens) if (t.refreshToken === grant) t.revoked = true;
    }
    if (access) access.revoked = true;
    store.save();
    reply.type('application/json; charset=utf-8');
    return {};
  });

  // Token introspection and the OpenID userinfo, so a client can learn whose account it holds.
  // tokeninfo takes the token as `access_token` (query or form) or as a Bearer header, by GET
  // or POST: google-auth-library's getTokenInfo POSTs with only the header.
  const tokenInfo = async (req: FastifyRequest, reply: FastifyReply) => {
    const value = field(req, 'access_token') ?? bearer(req);
    const t = store.data.accessTokens.find((x) => x.token === value);
    if (!t || t.revoked || t.expiresAt <= rt.now()) {
      reply.code(400);
      return { error: 'invalid_token', error_description: 'Invalid Value' };
    }
    const u = googleUsers.find((x) => x.email === t.email);
    const left = Math.floor((t.expiresAt - rt.now()) / 1000);
    return {
      azp: t.clientId,
      aud: t.clientId,
      sub: u?.accountId,
      scope: t.scope,
      exp: String(Math.floor(t.expiresAt / 1000)),
      expires_in: String(left),
      email: t.email,
      email_verified: 'true',
      access_type: t.refreshToken ? 'offline' : 'online',
    };
  };
  app.get('/google/oauth2/tokeninfo', tokenInfo);
  app.post('/google/oauth2/tokeninfo', tokenInfo);

  app.get('/google/openidconnect/v1/userinfo', async (req, reply) => {
    const h = req.headers.authorization ?? '';
    const value = h.replace(/^bearer\s+/i, '');
    const t = store.data.accessTokens.find((x) => x.token === value);
    if (!t || t.revoked || t.expiresAt <= rt.now()) {
      reply
        .code(401)
        .header(
          'www-authenticate',
          'Bearer realm="https://accounts.google.com/", error="invalid_token"',
        );
      return { error: 'invalid_request', error_description: 'Invalid Credentials' };
    }
    const u = googleUsers.find((x) => x.email === t.email);
    return {
      sub: u?.accountId,
      name: u?.name,
      given_name: u?.name,
      email: t.email,
      email_verified: true,
      picture: `${rt.baseUrl}/google/avatar.png`,
      locale: 'ja',
    };
  });
}
