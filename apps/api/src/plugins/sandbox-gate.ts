import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ja } from '@tenpo/domain';
import type { Config } from '../config';
import { AppError } from '../lib/errors';
import { safeEqualTo } from '../lib/tokens';
import { API_KEY_HEADER } from './api-key';

/**
 * The emulators of a production staging demo answer only callers holding the API key (ADR
 * 0051): our own processes send the header; a browser, which cannot add a header to a page it
 * opens (OAuth consent, the SBPS payment page, the mailbox), carries a cookie instead, set with
 * the web app's page (which holds the key already) or once by `?api_key=` on any /sandbox URL.
 */
export const SANDBOX_COOKIE = 'tenpo_sandbox';
export const SANDBOX_KEY_QUERY = 'api_key';

/**
 * The cookie's value: derived from the API key, not the key itself, so that it is no use as an
 * X-Api-Key on /api, and changes with either key.
 */
export const sandboxCookieValue = (config: Pick<Config, 'apiKey' | 'secretKey'>): string =>
  createHmac('sha256', config.secretKey)
    .update(`tenpo-sandbox-access\0${config.apiKey}`)
    .digest('base64url');

export const sandboxCookie = (config: Pick<Config, 'apiKey' | 'secretKey' | 'publicUrl'>) =>
  [
    `${SANDBOX_COOKIE}=${sandboxCookieValue(config)}`,
    'Path=/sandbox',
    'HttpOnly',
    'SameSite=Lax',
    ...(config.publicUrl.startsWith('https:') ? ['Secure'] : []),
  ].join('; ');

const cookieOf = (header: string | undefined, name: string): string | null => {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
};

/** Puts every route of `scope` (the /sandbox mount) behind the API key. */
export function registerSandboxGate(
  scope: FastifyInstance,
  config: Pick<Config, 'apiKey' | 'secretKey' | 'publicUrl'>,
): void {
  const isApiKey = safeEqualTo(config.apiKey);
  const isCookie = safeEqualTo(sandboxCookieValue(config));
  const cookie = sandboxCookie(config);
  scope.addHook('onRequest', (request, reply: FastifyReply, done) => {
    const header = request.headers[API_KEY_HEADER];
    if (typeof header === 'string' && isApiKey(header)) return done();
    const held = cookieOf(request.headers.cookie, SANDBOX_COOKIE);
    if (held !== null && isCookie(held)) return done();
    const url = new URL(request.url, 'http://sandbox.invalid');
    const given = url.searchParams.get(SANDBOX_KEY_QUERY);
    if (request.method === 'GET' && given !== null && isApiKey(given)) {
      // Once: the cookie, and the same page again without the key in its address (history,
      // Referer, access logs of whatever comes next).
      url.searchParams.delete(SANDBOX_KEY_QUERY);
      void reply
        .header('set-cookie', cookie)
        .header('cache-control', 'no-store')
        .redirect(`${url.pathname}${url.search}`, 303);
      return;
    }
    done(new AppError(401, 'invalid_api_key', ja.invalidApiKey));
  });
}

/**
 * `fetch` for our own processes: calls to the emulators mounted under PUBLIC_URL/sandbox carry
 * the API key; every other call goes out as it was.
 */
export const fetchWithSandboxKey = (
  config: Pick<Config, 'apiKey' | 'publicUrl'>,
  base: typeof fetch = globalThis.fetch,
): typeof fetch => {
  const prefix = `${config.publicUrl}/sandbox/`;
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(prefix)) return base(input, init);
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((v, k) => headers.set(k, v));
    headers.set(API_KEY_HEADER, config.apiKey);
    return base(input, { ...init, headers });
  };
};
