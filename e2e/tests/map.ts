import type { Locator, Page } from '@playwright/test';
import { expect } from './support';

// Steps for the store map of /basic-information (StoreMap, spec 2 §4, ADR 0042).

/** The map itself (a Leaflet container named for screen readers). */
export const storeMap = (page: Page): Locator =>
  page.getByRole('application', { name: '店舗の位置の地図' });

/** The line beside the map: 「緯度: 35.681236 / 経度: 139.767125」 or 「緯度: 未設定 / …」. */
export const mapPositionText = (page: Page): Locator => page.getByText(/^緯度: .* \/ 経度: /);

export type LatLng = { lat: number; lng: number };

/** The marker's position as the page writes it beside the map; null when 未設定. */
export async function mapPosition(page: Page): Promise<LatLng | null> {
  const text = (await mapPositionText(page).textContent()) ?? '';
  const m = /緯度: (-?[\d.]+) \/ 経度: (-?[\d.]+)/.exec(text);
  return m ? { lat: Number(m[1]), lng: Number(m[2]) } : null;
}

/** Waits until the map has drawn its base: tiles, or the offline prefectures. */
export async function mapReady(page: Page): Promise<void> {
  const map = storeMap(page);
  // The map's code and the prefecture outlines load on demand: slower on a loaded CI machine.
  await expect(map).toBeVisible({ timeout: 30_000 });
  const offline = (await map.getAttribute('data-map-source')) === 'offline';
  await expect(
    map.locator(offline ? 'path[fill="#f5f2e9"]' : 'img.leaflet-tile-loaded').first(),
  ).toBeAttached({ timeout: 30_000 });
}

/**
 * Clicks the map `dx`, `dy` pixels from its centre (keep clear of the zoom buttons at the top
 * left and the attribution at the bottom right) and returns the position the page then shows.
 */
export async function clickMapAt(page: Page, dx: number, dy: number): Promise<LatLng> {
  const map = storeMap(page);
  const box = await map.boundingBox();
  if (!box) throw new Error('the store map is not on the page');
  const before = await mapPositionText(page).textContent();
  await map.click({ position: { x: box.width / 2 + dx, y: box.height / 2 + dy } });
  await expect(mapPositionText(page)).not.toHaveText(before ?? '');
  const at = await mapPosition(page);
  if (!at) throw new Error('the map click set no position');
  return at;
}

const toPixels = (p: LatLng, zoom: number) => {
  const world = 256 * 2 ** zoom;
  const s = Math.sin((p.lat * Math.PI) / 180);
  return {
    x: ((p.lng + 180) / 360) * world,
    y: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * world,
  };
};

/**
 * How many screen pixels apart two points are at a zoom. Leaflet rounds the map's pixel origin,
 * so a click lands within a pixel of where a test aims it: compare with this, not with degrees.
 */
export function pixelsApart(a: LatLng, b: LatLng, zoom = 17): number {
  const p = toPixels(a, zoom);
  const q = toPixels(b, zoom);
  return Math.hypot(p.x - q.x, p.y - q.y);
}

/**
 * The point `dx`, `dy` pixels from `center` at a Web Mercator zoom (17 by default, spec 2 §5):
 * what a click there should report while the map is centred on `center`.
 */
export function pointAt(center: LatLng, dx: number, dy: number, zoom = 17): LatLng {
  const world = 256 * 2 ** zoom;
  const c = toPixels(center, zoom);
  const x = c.x + dx;
  const y = c.y + dy;
  return {
    lat: (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / world))) * 180) / Math.PI,
    lng: (x / world) * 360 - 180,
  };
}

const LOCAL = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/**
 * Fails every request to a host other than this machine's, and lists them: with no
 * MAP_TILE_URL the map must ask no outside host for anything (ADR 0042). Call it before the
 * page loads; assert the list is empty at the end.
 */
export async function refuseOutsideHosts(page: Page): Promise<string[]> {
  const outside: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (/^https?:$|^wss?:$/.test(url.protocol) && !LOCAL.test(url.hostname))
      outside.push(req.url());
  });
  await page.route(
    (url) => !LOCAL.test(url.hostname),
    (route) => route.abort('blockedbyclient'),
  );
  return outside;
}
