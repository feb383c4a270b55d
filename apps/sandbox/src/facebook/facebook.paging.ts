import type { FastifyRequest } from 'fastify';
import { field, type Dict } from '../shared/http';

/**
 * Graph API cursor paging (developers.facebook.com/docs/graph-api/results, "Cursor-based
 * Pagination"): `limit` (25 unless asked, at most 100 here), `after`/`before` cursors that
 * point at an item, and `paging.cursors` with `paging.next`/`previous` URLs that repeat the
 * request's own query (fields and token included). `next` is left out on the last page only:
 * a short page is not the end (the doc says not to rely on the count).
 */
export function cursorPage<T>(
  req: FastifyRequest,
  baseUrl: string,
  items: readonly T[],
  idOf: (x: T) => string,
): { slice: T[]; paging: Dict } {
  const limit = Math.min(100, Math.max(1, Number(field(req, 'limit') ?? 25) || 25));
  const after = field(req, 'after');
  const before = field(req, 'before');
  const decode = (c: string) => Buffer.from(c, 'base64url').toString();
  const ids = items.map(idOf);
  let start = 0;
  if (after) {
    const at = ids.indexOf(decode(after));
    // A cursor whose item is gone is no longer valid (the same doc): nothing after it.
    start = at < 0 ? ids.length : at + 1;
  } else if (before) start = Math.max(0, ids.indexOf(decode(before)) - limit);
  const slice = items.slice(start, start + limit);
  const cursor = (x: T | undefined) => Buffer.from(x ? idOf(x) : '').toString('base64url');
  const query = (extra: Record<string, string>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries((req.query ?? {}) as Dict))
      if (k !== 'after' && k !== 'before' && typeof v === 'string') q.set(k, v);
    q.set('limit', String(limit));
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    // The request's own path (it carries the sandbox's mount prefix) on the public origin.
    return `${new URL(baseUrl).origin}${req.url.split('?')[0] ?? ''}?${q.toString()}`;
  };
  return {
    slice,
    paging: {
      ...(slice.length
        ? { cursors: { before: cursor(slice[0]), after: cursor(slice[slice.length - 1]) } }
        : {}),
      ...(start + limit < items.length
        ? { next: query({ after: cursor(slice[slice.length - 1]) }) }
        : {}),
      ...(start > 0 && slice.length ? { previous: query({ before: cursor(slice[0]) }) } : {}),
    },
  };
}

/** `since`/`until` as the Graph API takes them: a Unix time in seconds, or a date strtotime reads. */
export function graphTimeParam(req: FastifyRequest, name: string): number | null {
  const raw = field(req, name);
  if (raw === undefined || raw === '') return null;
  const ms = /^\d+$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
  return Number.isFinite(ms) ? ms : null;
}
