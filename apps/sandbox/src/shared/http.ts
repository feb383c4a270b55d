import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** An answer in the provider's own error shape, thrown from a handler and sent as is. */
export class ProviderError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`provider error ${status}`);
  }
}

export type Params = string[];

/** Returned by a handler that does not own the path after all: the router tries the next route. */
export const NEXT = Symbol('next-route');
export type Handler = (
  req: FastifyRequest,
  reply: FastifyReply,
  params: Params,
) => Promise<unknown>;
type Route = { method: string; pattern: RegExp; handler: Handler };

/**
 * A tiny router for provider paths Fastify's router cannot express, such as Google's
 * `locations/123:fetchMultiDailyMetricsTimeSeries` or Graph's `/{node-id}/{edge}`.
 * Patterns match the path after the mount prefix, without the leading slash.
 */
export class PathRouter {
  private readonly routes: Route[] = [];

  add(method: string, pattern: RegExp, handler: Handler): this {
    this.routes.push({ method, pattern, handler });
    return this;
  }

  /** Registers `/*` on the scope; `notFound` renders an unmatched path in the provider's shape. */
  mount(scope: FastifyInstance, notFound: (method: string, path: string) => ProviderError): void {
    scope.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/*',
      handler: async (req, reply) => {
        const rest = (req.params as Record<string, string | undefined>)['*'] ?? '';
        let pathOnly = rest;
        try {
          // Some clients escape the slash of `{+name}` (locations%2F123); Google's front end accepts both.
          pathOnly = decodeURIComponent(rest);
        } catch {
          /* keep as is */
        }
        let methodMatched = false;
        for (const r of this.routes) {
          const m = r.pattern.exec(pathOnly);
          if (!m) continue;
          methodMatched = true;
          if (r.method !== req.method) continue;
          const out = await r.handler(
            req,
            reply,
            m.slice(1).map((s) => s ?? ''),
          );
          if (out === NEXT) continue;
          return out;
        }
        throw notFound(methodMatched ? `${req.method}!` : req.method, pathOnly);
      },
    });
  }
}

export const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A plain page for consent dialogs and control screens. */
export const page = (
  title: string,
  body: string,
  accent = '#1a73e8',
): string => `<!doctype html><html lang="ja"><head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,"Hiragino Sans","Noto Sans JP",sans-serif;max-width:640px;margin:2rem auto;padding:0 1rem;color:#202124}
.card{border:1px solid #dadce0;border-radius:8px;padding:1.5rem}h1{font-size:1.4rem}label.opt{display:flex;gap:.6rem;align-items:center;border:1px solid #dadce0;border-radius:6px;padding:.6rem;margin:.4rem 0;cursor:pointer}
button{font-size:1rem;padding:.5rem 1.2rem;border-radius:4px;border:1px solid #dadce0;background:#fff;cursor:pointer}button.primary{background:${accent};border-color:${accent};color:#fff}
.actions{display:flex;gap:.8rem;justify-content:flex-end;margin-top:1.2rem}small,.muted{color:#5f6368}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;font-size:.9rem}
code{background:#f1f3f4;padding:0 .2rem;border-radius:3px}.banner{background:#fef7e0;border:1px solid #f9ab00;border-radius:6px;padding:.5rem .8rem;font-size:.85rem;margin-bottom:1rem}</style></head>
<body><div class="banner">サンドボックス (Sandbox) — 本物のサービスではありません / not the real provider</div>${body}</body></html>`;

export const hiddenInputs = (fields: Record<string, string | undefined>): string =>
  Object.entries(fields)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');

/** Random URL-safe token with a provider-like prefix. */
export const randomToken = (prefix = '', bytes = 24): string =>
  prefix + randomBytes(bytes).toString('base64url');

/** Random decimal id of the given length (providers use long numeric ids). */
export const numericId = (digits: number): string => {
  let s = String(1 + Math.floor(Math.random() * 9));
  while (s.length < digits) s += String(Math.floor(Math.random() * 10));
  return s;
};

export type Dict = Record<string, unknown>;

/** The query string as a map of lists (Google and Graph use repeated keys). */
export function queryLists(req: FastifyRequest): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const q = req.url.indexOf('?');
  if (q < 0) return out;
  for (const [k, v] of new URLSearchParams(req.url.slice(q + 1))) {
    const list = out.get(k) ?? [];
    list.push(v);
    out.set(k, list);
  }
  return out;
}

/** One string field from the query or a form/JSON body (Graph accepts both). */
export function field(req: FastifyRequest, name: string): string | undefined {
  const body = req.body;
  if (body && typeof body === 'object' && !Buffer.isBuffer(body)) {
    const v = (body as Dict)[name];
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (v && typeof v === 'object' && 'value' in v && typeof (v as Dict).value === 'string')
      return (v as Dict).value as string;
  }
  const q = (req.query as Dict | undefined)?.[name];
  if (typeof q === 'string') return q;
  if (Array.isArray(q) && typeof q[0] === 'string') return q[0];
  return undefined;
}

export const bodyObject = (req: FastifyRequest): Dict =>
  req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) && !Array.isArray(req.body)
    ? (req.body as Dict)
    : {};

export const wantsJson = (req: FastifyRequest): boolean =>
  (req.headers.accept ?? '').includes('application/json') ||
  (req.query as Dict | undefined)?.format === 'json';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const bearer = (req: FastifyRequest): string | undefined => {
  const h = req.headers.authorization;
  if (typeof h === 'string' && /^bearer\s+/i.test(h)) return h.replace(/^bearer\s+/i, '').trim();
  return undefined;
};

/** Decodes `Authorization: Basic` into client id and secret (both URL-decoded as RFC 6749 says). */
export function basicAuth(req: FastifyRequest): { id: string; secret: string } | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string' || !/^basic\s+/i.test(h)) return undefined;
  const decoded = Buffer.from(h.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  const dec = (s: string): string => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { id: dec(decoded.slice(0, i)), secret: dec(decoded.slice(i + 1)) };
}

/** Appends query parameters to a redirect URI that may already carry some. */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

export const isHttpUrl = (s: string | undefined): s is string => {
  if (!s) return false;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};
