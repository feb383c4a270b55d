// What the Facebook and Instagram Graph handlers share. A module of its own so that
// facebook.graph (which registers Instagram's routes) and instagram.graph need not import
// each other.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { field, type Dict } from '../shared/http';
import type { LoadedMedia } from '../shared/media';
import type { Provider, Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import type { FacebookState, FbToken } from './facebook.state';

/** Graph paths may carry a version (`v25.0/…`) or none; any version is accepted. */
export const g = (path: string): RegExp => new RegExp(`^(?:v\\d+\\.\\d+\\/)?${path}$`);

export const graphTime = (ms: number): string =>
  new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

/** `fields=a,b{c,d},e` → ['a','b','e'] (nested selections are answered whole). */
export function fieldList(req: FastifyRequest): string[] | undefined {
  const raw = field(req, 'fields');
  if (!raw) return undefined;
  let depth = 0;
  let cur = '';
  const out: string[] = [];
  for (const ch of raw) {
    if (ch === '{') depth += 1;
    else if (ch === '}') depth -= 1;
    else if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else if (depth === 0) cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out.map((f) => f.replace(/\..*$/, ''));
}

export const pick = (obj: Dict, fields: string[] | undefined, defaults: string[]): Dict => {
  const want = fields ?? defaults;
  const out: Dict = {};
  for (const f of want) if (obj[f] !== undefined) out[f] = obj[f];
  if (obj.id !== undefined) out.id = obj.id;
  return out;
};

export type GraphCtx = {
  rt: Runtime;
  store: JsonStore<FacebookState>;
  /** Token → caller, then faults and throttling for the given provider and nodes. */
  auth(
    req: FastifyRequest,
    reply: FastifyReply,
    provider: Provider,
    nodeKeys: string[],
  ): Promise<FbToken>;
  /** Pages this token may act for. */
  pagesOf(token: FbToken): string[];
  /** Fetches a media URL as Meta's crawler does (logged; `fetched` is kept on the object made). */
  loadMedia(
    url: string,
    provider: 'facebook' | 'instagram',
    maxBytes?: number,
  ): Promise<LoadedMedia>;
};
