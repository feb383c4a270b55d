import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  esc,
  field,
  hiddenInputs,
  isHttpUrl,
  page,
  PathRouter,
  ProviderError,
  randomToken,
  withQuery,
} from '../shared/http';
import { clientKnown, secretMatches } from '../shared/oauth';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { graphError, invalidParam } from './facebook.errors';
import { fbPages, fbUsers, FB_PERMISSIONS } from './facebook.fixtures';
import type { FacebookState, FbToken } from './facebook.state';

const PARAMS = [
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'response_type',
  'auth_type',
  'config_id',
] as const;

export function registerFacebookDialog(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<FacebookState>,
): void {
  const params = (req: FastifyRequest) =>
    Object.fromEntries(PARAMS.map((k) => [k, field(req, k)])) as Record<
      (typeof PARAMS)[number],
      string | undefined
    >;
  const errorPage = (reply: FastifyReply, title: string, text: string) => {
    reply.code(400).type('text/html; charset=utf-8');
    return page(
      title,
      `<div class="card"><h1>${esc(title)}</h1><p>${esc(text)}</p></div>`,
      '#1877f2',
    );
  };
  const precheck = (reply: FastifyReply, p: ReturnType<typeof params>): string | undefined => {
    if (!clientKnown(p.client_id))
      return errorPage(
        reply,
        'Invalid App ID / 無効なアプリID',
        'The provided app ID does not look like a valid app ID.',
      );
    if (!isHttpUrl(p.redirect_uri))
      return errorPage(
        reply,
        'URL Blocked / URLがブロックされました',
        "This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings.",
      );
    return undefined;
  };

  const router = new PathRouter();
  const DIALOG = /^(?:v\d+\.\d+\/)?dialog\/oauth$/;
  router.add('GET', DIALOG, async (req, reply) => {
    const p = params(req);
    const bad = precheck(reply, p);
    if (bad) return bad;
    const scopes = (p.scope ?? 'public_profile').split(/[,\s]+/).filter(Boolean);
    const users = fbUsers
      .map(
        (u, i) =>
          `<label class="opt"><input type="radio" name="user_id" value="${u.id}" ${i === 0 ? 'checked' : ''}><span><b>${esc(u.name)}</b><br><small>${esc(u.email)}</small></span></label>`,
      )
      .join('');
    const pages = fbPages
      .map((pg) => {
        const owner = fbUsers.find((u) => u.id === pg.ownerId);
        const ig = pg.igId ? ' · Instagram 連携あり / linked to Instagram' : '';
        return `<label class="opt"><input type="checkbox" name="page_ids" value="${pg.id}" checked><span>${esc(pg.name)}<br><small>${esc(pg.category)}${ig} — ${esc(owner?.name ?? '')}</small></span></label>`;
      })
      .join('');
    const perms = scopes
      .map(
        (s) =>
          `<label class="opt"><input type="checkbox" name="granted" value="${esc(s)}" checked><span><code>${esc(s)}</code>${FB_PERMISSIONS.includes(s) ? '' : ' <small>(unknown permission)</small>'}</span></label>`,
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    return page(
      'Facebook にログイン - Log in with Facebook',
      `<div class="card"><h1>Tenpo が Facebook アカウントへのアクセスをリクエストしています<br><small>Tenpo is requesting access to your Facebook account</small></h1>
<form method="post">${hiddenInputs(p)}
<h3>ログインするユーザー / Continue as</h3>${users}
<h3>Tenpo がアクセスできるページ / Pages Tenpo may use</h3>${pages}
<h3>許可 / Permissions</h3>${perms}
<div class="actions"><button name="decision" value="deny">キャンセル / Cancel</button>
<button class="primary" name="decision" value="allow">続行 / Continue</button></div></form></div>`,
      '#1877f2',
    );
  });
  router.add('POST', DIALOG, async (req, reply) => {
    const p = params(req);
    const bad = precheck(reply, p);
    if (bad) return bad;
    const redirect = p.redirect_uri as string;
    if (field(req, 'decision') !== 'allow')
      return reply.redirect(
        withQuery(redirect, {
          error: 'access_denied',
          error_code: '200',
          error_description: 'Permissions error',
          error_reason: 'user_denied',
          state: p.state,
        }),
        302,
      );
    const body = (req.body ?? {}) as Record<string, unknown>;
    const list = (v: unknown): string[] =>
      Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];
    const userId = field(req, 'user_id') ?? '';
    if (!fbUsers.some((u) => u.id === userId)) return errorPage(reply, 'Error', 'No user chosen.');
    const requested = (p.scope ?? 'public_profile').split(/[,\s]+/).filter(Boolean);
    const granted = list(body.granted).filter((s) => requested.includes(s));
    const code = randomToken('AQ', 90);
    store.data.codes.push({
      code,
      clientId: p.client_id as string,
      redirectUri: redirect,
      userId,
      scopes: [...new Set(['public_profile', ...granted])],
      declined: requested.filter((s) => !granted.includes(s) && s !== 'public_profile'),
      pageIds: list(body.page_ids).filter((id) =>
        fbPages.some((pg) => pg.id === id && pg.ownerId === userId),
      ),
      expiresAt: rt.now() + 10 * 60_000,
      used: false,
    });
    store.save();
    return reply.redirect(`${withQuery(redirect, { code, state: p.state })}#_=_`, 302);
  });
  app.register(
    async (scope) =>
      router.mount(
        scope,
        () =>
          new ProviderError(404, "Sorry, this page isn't available.", {
            'content-type': 'text/plain; charset=utf-8',
          }),
      ),
    {
      prefix: '/facebook/www',
    },
  );
}

/** GET /oauth/access_token: code exchange, fb_exchange_token and app tokens. */
export function accessTokenEndpoint(rt: Runtime, store: JsonStore<FacebookState>) {
  return async (req: FastifyRequest) => {
    const clientId = field(req, 'client_id');
    const secret = field(req, 'client_secret');
    const grant = field(req, 'grant_type');
    if (!clientId) throw invalidParam('Missing client_id parameter.');
    if (!clientKnown(clientId))
      throw graphError(400, 101, 'Error validating application. Invalid application ID.');
    if (!secretMatches(clientId, secret))
      throw graphError(400, 1, 'Error validating client secret.');
    const s = store.data;
    const settings = rt.settings().facebook;
    if (grant === 'client_credentials')
      return { access_token: `${clientId}|${secret}`, token_type: 'bearer' };
    if (grant === 'fb_exchange_token') {
      const short = s.tokens.find((t) => t.token === field(req, 'fb_exchange_token'));
      if (!short || short.revoked)
        throw graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token');
      if (short.expiresAt !== 0 && short.expiresAt <= rt.now())
        throw graphError(
          400,
          190,
          'Error validating access token: Session has expired.',
          'OAuthException',
          { error_subcode: 463 },
        );
      const long: FbToken = {
        ...short,
        token: randomToken('EAAT', 120),
        long: true,
        issuedAt: rt.now(),
        expiresAt:
          short.kind === 'page'
            ? 0
            : // A long-lived token exchanged again is not extended (the documented exchange
              // is from a short-lived token; UNCONFIRMED how Graph answers, ADR 0063).
              short.long && settings.reexchangeKeepsExpiry
              ? short.expiresAt
              : rt.now() + settings.longTokenTtlSeconds * 1000,
      };
      s.tokens.push(long);
      store.save();
      return {
        access_token: long.token,
        token_type: 'bearer',
        ...(long.expiresAt
          ? { expires_in: Math.max(0, Math.round((long.expiresAt - rt.now()) / 1000)) }
          : {}),
      };
    }
    const codeValue = field(req, 'code');
    if (!codeValue) throw invalidParam('Missing code parameter.');
    const code = s.codes.find((c) => c.code === codeValue);
    if (!code) throw graphError(400, 100, 'Invalid verification code format.', 'OAuthException');
    if (code.used)
      throw graphError(400, 100, 'This authorization code has been used.', 'OAuthException', {
        error_subcode: 36009,
      });
    if (code.expiresAt <= rt.now())
      throw graphError(400, 100, 'This authorization code has expired.', 'OAuthException', {
        error_subcode: 36007,
      });
    if (field(req, 'redirect_uri') !== code.redirectUri)
      throw graphError(
        400,
        100,
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        'OAuthException',
        { error_subcode: 36008 },
      );
    code.used = true;
    const token: FbToken = {
      token: randomToken('EAAT', 100),
      kind: 'user',
      long: false,
      userId: code.userId,
      scopes: code.scopes,
      declined: code.declined,
      pageIds: code.pageIds,
      issuedAt: rt.now(),
      expiresAt: rt.now() + settings.shortTokenTtlSeconds * 1000,
      revoked: false,
    };
    s.tokens.push(token);
    store.save();
    return {
      access_token: token.token,
      token_type: 'bearer',
      expires_in: settings.shortTokenTtlSeconds,
    };
  };
}
