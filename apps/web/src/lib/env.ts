// The only reader of import.meta.env (eslint enforces it).

/** Fallback API key for `vite dev`, matching the API's development default. */
const DEV_API_KEY = 'tenpo-dev-key';

export const isDev: boolean = import.meta.env.DEV;

/** The server injects `<meta name="tenpo-api-key">` into index.html when it serves it. */
export const apiKey = (): string =>
  document.querySelector<HTMLMetaElement>('meta[name="tenpo-api-key"]')?.content || DEV_API_KEY;

export const API_BASE = '/api';

const meta = (name: string): string | null =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || null;

/**
 * The store map's tile server (ADR 0042): the server injects MAP_TILE_URL and MAP_ATTRIBUTION
 * as meta tags. Null without one: the map draws its offline outlines of Japan.
 */
export const mapTiles = (): { url: string; attribution: string } | null => {
  const url = meta('tenpo-map-tile-url');
  return url ? { url, attribution: meta('tenpo-map-attribution') ?? '' } : null;
};
