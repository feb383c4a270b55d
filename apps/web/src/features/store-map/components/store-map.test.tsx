import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '@/app/providers';
import { createQueryClient } from '@/lib/query-client';
import { StoreMap } from './store-map';

// jsdom lays nothing out: the map's container measures 0 × 0, so the map's centre sits at the
// container's top-left corner and a click at (x, y) is x px east and y px south of the centre.
// The expected points are worked out here with Web Mercator itself, not with Leaflet.
const WORLD = (z: number) => 256 * 2 ** z;
const project = (lat: number, lng: number, z: number) => {
  const s = Math.sin((lat * Math.PI) / 180);
  return {
    x: ((lng + 180) / 360) * WORLD(z),
    y: (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * WORLD(z),
  };
};
const unproject = (x: number, y: number, z: number) => ({
  lat: (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / WORLD(z)))) * 180) / Math.PI,
  lng: (x / WORLD(z)) * 360 - 180,
});
const offset = (lat: number, lng: number, dx: number, dy: number, z = 17) => {
  const p = project(lat, lng, z);
  return unproject(p.x + dx, p.y + dy, z);
};

const TOKYO = { lat: 35.681236, lng: 139.767125 };
const OSAKA = { lat: 34.702485, lng: 135.495951 };

const mapOf = () => screen.findByRole('application', { name: '店舗の位置の地図' });
const click = (el: HTMLElement, x: number, y: number) =>
  act(() => {
    el.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: x, clientY: y }));
  });

function renderMap(lat: number | null, lng: number | null, onPick = vi.fn()) {
  const view = render(
    <Providers client={createQueryClient()} env="test">
      <StoreMap latitude={lat} longitude={lng} onPick={onPick} />
    </Providers>,
  );
  const rerender = (a: number | null, b: number | null) =>
    view.rerender(
      <Providers client={createQueryClient()} env="test">
        <StoreMap latitude={a} longitude={b} onPick={onPick} />
      </Providers>,
    );
  return { onPick, rerender };
}

const expectPicked = (onPick: ReturnType<typeof vi.fn>, want: { lat: number; lng: number }) => {
  const [lat, lng] = onPick.mock.lastCall as [number, number];
  expect(lat).toBeCloseTo(want.lat, 5);
  expect(lng).toBeCloseTo(want.lng, 5);
};

afterEach(() => {
  document.head.querySelectorAll('meta[name^="tenpo-map-"]').forEach((m) => m.remove());
});

describe('StoreMap (spec 2 §4)', () => {
  it('writes the marker position beside the map, and 未設定 without one', async () => {
    const { rerender } = renderMap(TOKYO.lat, TOKYO.lng);
    expect(screen.getByText('緯度: 35.681236 / 経度: 139.767125')).toBeInTheDocument();
    await mapOf();
    expect(document.querySelectorAll('.tenpo-store-map-pin')).toHaveLength(1);
    expect(screen.getByRole('button', { name: '拡大' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '縮小' })).toBeInTheDocument();
    rerender(null, null);
    expect(screen.getByText('緯度: 未設定 / 経度: 未設定')).toBeInTheDocument();
    expect(document.querySelectorAll('.tenpo-store-map-pin')).toHaveLength(0);
  });

  it('reports a click with the clicked point at zoom 17', async () => {
    const { onPick } = renderMap(TOKYO.lat, TOKYO.lng);
    const map = await mapOf();
    click(map, 120, 45);
    expect(onPick).toHaveBeenCalledTimes(1);
    expectPicked(onPick, offset(TOKYO.lat, TOKYO.lng, 120, 45));
    // The point is rounded to six decimals.
    const [lat, lng] = onPick.mock.lastCall as [number, number];
    expect(Math.round(lat * 1e6) / 1e6).toBe(lat);
    expect(Math.round(lng * 1e6) / 1e6).toBe(lng);
  });

  it('recentres on new coordinates from outside, but not on the point just clicked', async () => {
    const { onPick, rerender } = renderMap(TOKYO.lat, TOKYO.lng);
    const map = await mapOf();
    // The address changed: the form passes Osaka, and the map's centre moves there.
    rerender(OSAKA.lat, OSAKA.lng);
    // The marker is on the centre, the pin (28 × 40) drawn with its tip there.
    const pin = () => document.querySelector<HTMLElement>('.tenpo-store-map-pin');
    expect([pin()?.style.left, pin()?.style.top]).toEqual(['0px', '0px']);
    expect([pin()?.style.marginLeft, pin()?.style.marginTop]).toEqual(['-14px', '-40px']);
    click(map, 0, 0);
    expectPicked(onPick, OSAKA);
    // A click 200 px east; the form passes that point back: the view stays on Osaka.
    click(map, 200, 0);
    const [lat, lng] = onPick.mock.lastCall as [number, number];
    rerender(lat, lng);
    // The marker follows the point, 200 px east of the unchanged centre.
    expect([pin()?.style.left, pin()?.style.top]).toEqual(['200px', '0px']);
    expect(
      screen.getByText(`緯度: ${lat.toFixed(6)} / 経度: ${lng.toFixed(6)}`),
    ).toBeInTheDocument();
    click(map, 0, 0);
    expectPicked(onPick, OSAKA);
  });

  it('with no tile server, draws the prefectures of Japan and loads no tile', async () => {
    renderMap(TOKYO.lat, TOKYO.lng);
    const map = await mapOf();
    expect(map).toHaveAttribute('data-map-source', 'offline');
    // 47 prefectures and the islands Natural Earth gives to none, one SVG path each.
    await waitFor(() => expect(map.querySelectorAll('path[fill="#f5f2e9"]')).toHaveLength(48));
    expect(map.querySelector('.leaflet-tile')).toBeNull();
    expect(map.querySelector('.leaflet-control-attribution')).toHaveTextContent('Natural Earth');
  });

  it('takes the tile server from the page, and shows its attribution as text', async () => {
    const meta = (name: string, content: string) => {
      const m = document.createElement('meta');
      m.name = name;
      m.content = content;
      document.head.appendChild(m);
    };
    meta('tenpo-map-tile-url', 'https://tiles.example.jp/{z}/{x}/{y}.png');
    meta('tenpo-map-attribution', '© Tiles <img src=x onerror=alert(1)>');
    renderMap(TOKYO.lat, TOKYO.lng);
    const map = await mapOf();
    expect(map).toHaveAttribute('data-map-source', 'tiles');
    const tile = await waitFor(() => {
      const img = map.querySelector<HTMLImageElement>('img.leaflet-tile');
      expect(img).not.toBeNull();
      return img as HTMLImageElement;
    });
    expect(tile.src).toMatch(/^https:\/\/tiles\.example\.jp\/17\/\d+\/\d+\.png$/);
    const attribution = map.querySelector('.leaflet-control-attribution') as HTMLElement;
    expect(attribution).toHaveTextContent('© Tiles <img src=x onerror=alert(1)>');
    expect(attribution.querySelector('img')).toBeNull();
    expect(map.querySelectorAll('path[fill="#f5f2e9"]')).toHaveLength(0);
  });
});
