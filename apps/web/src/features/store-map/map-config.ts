const meta = (name: string): string | null =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || null;

/**
 * The store map's tile server (ADR 0042): the server injects MAP_TILE_URL and MAP_ATTRIBUTION
 * into index.html as meta tags, as it does the API key. Null without one: the map draws its
 * offline outlines of Japan.
 */
export const mapTiles = (): { url: string; attribution: string } | null => {
  const url = meta('tenpo-map-tile-url');
  return url ? { url, attribution: meta('tenpo-map-attribution') ?? '' } : null;
};
