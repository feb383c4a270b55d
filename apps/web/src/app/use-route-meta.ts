import { useMatches } from 'react-router';
import type { RouteMeta } from './route-meta';

/** The meta of the deepest matched route that has one (route handles carry `{ meta }`). */
export const deepestMeta = (matches: readonly { handle?: unknown }[]): RouteMeta | null => {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const h = matches[i]?.handle as { meta?: RouteMeta } | undefined;
    if (h?.meta) return h.meta;
  }
  return null;
};

/** The meta of the deepest matched route that has one. */
export const useRouteMeta = (): RouteMeta | null => deepestMeta(useMatches());
