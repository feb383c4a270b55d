import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/** helmet's options for every response (the sandbox's own pages drop the CSP: compose.ts). */
export const SECURITY_HEADERS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      fontSrc: ["'self'", 'data:'],
      scriptSrc: ["'self'"],
      connectSrc: ["'self'"],
      frameSrc: ["'self'", 'blob:'],
      objectSrc: ["'self'"],
      workerSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * Where the photo library's images come from besides Tenpo (issue 23 item 7): a photo only Google
 * holds is shown from Google's image host (live), or from the sandbox's, which answers on
 * PUBLIC_URL's host — another origin for a page opened on an agency's white-label host.
 */
export const providerImageOrigins = (config: {
  providers: 'sandbox' | 'live';
  publicUrl: string;
  sandboxUrl: string | null;
}): string[] =>
  config.providers === 'live'
    ? ['https://*.googleusercontent.com']
    : [new URL(config.sandboxUrl ?? config.publicUrl).origin];

/** Outside origins the card payment needs (ADR 0050); none when SBPS answers on our own. */
export type PaymentOrigins = {
  /** The token script's origin: loaded as a script, and it calls its own host. */
  tokenOrigin: string | null;
  /** The hosted purchase page's origin: the browser posts the A01-1 form there. */
  purchaseOrigin: string | null;
};

/** SBPS's origins that differ from PUBLIC_URL's (the sandbox under /sandbox needs none). */
export const paymentOriginsOf = (
  publicUrl: string,
  sbps: { tokenScriptUrl: string; purchaseUrl: string },
): PaymentOrigins => {
  const own = new URL(publicUrl).origin;
  const other = (url: string) => {
    const o = new URL(url).origin;
    return o === own ? null : o;
  };
  return { tokenOrigin: other(sbps.tokenScriptUrl), purchaseOrigin: other(sbps.purchaseUrl) };
};

/**
 * The options for a server: SECURITY_HEADERS, plus the map's tile server in img-src when one is
 * configured (ADR 0042; Leaflet loads tiles as images), and SBPS's token script (script-src,
 * connect-src) and hosted purchase page (form-action) when they live on another origin
 * (ADR 0050). No other outside origin is ever allowed.
 */
export function securityHeadersFor(
  map: { origin: string } | null,
  payments: PaymentOrigins = { tokenOrigin: null, purchaseOrigin: null },
  providerImages: readonly string[] = [],
): FastifyHelmetOptions {
  if (!map && !payments.tokenOrigin && !payments.purchaseOrigin && providerImages.length === 0)
    return SECURITY_HEADERS;
  const csp = SECURITY_HEADERS.contentSecurityPolicy as { directives: Record<string, unknown> };
  const plus = (origin: string | null) => (origin ? [origin] : []);
  return {
    ...SECURITY_HEADERS,
    contentSecurityPolicy: {
      directives: {
        ...csp.directives,
        imgSrc: ["'self'", 'data:', 'blob:', ...plus(map?.origin ?? null), ...providerImages],
        scriptSrc: ["'self'", ...plus(payments.tokenOrigin)],
        connectSrc: ["'self'", ...plus(payments.tokenOrigin)],
        formAction: ["'self'", ...plus(payments.purchaseOrigin)],
      },
    },
  };
}

/**
 * The headers helmet sets with these options, worked out once by @fastify/helmet itself on a
 * scratch instance. With no nonces and no per-route settings they are the same on every
 * response, and @fastify/helmet would rebuild helmet (re-parsing the CSP) on each request
 * (ADR 0016).
 */
export async function helmetHeaders(
  options: FastifyHelmetOptions,
): Promise<Record<string, string>> {
  if (options.enableCSPNonces || options.global === false)
    throw new Error('helmetHeaders: nonces and per-route helmet need @fastify/helmet itself');
  const scratch = Fastify({ logger: false });
  let headers: Record<string, string> = {};
  await scratch.register(helmet, options);
  scratch.addHook('onRequest', async (_req, reply) => {
    // helmet writes to the raw response; nothing else has set a header by now.
    headers = Object.fromEntries(
      Object.entries(reply.raw.getHeaders()).map(([k, v]) => [k, String(v)]),
    );
  });
  scratch.get('/', async () => '');
  await scratch.inject({ method: 'GET', url: '/' });
  await scratch.close();
  if (!headers['content-security-policy']) throw new Error('helmet set no headers');
  return Object.freeze(headers);
}

/** Sets helmet's headers on every response of `app` (DESIGN §9: helmet), from one table. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<void> {
  const headers = await helmetHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
