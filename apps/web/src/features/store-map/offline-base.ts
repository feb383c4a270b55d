import L from 'leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The map's base when no tile server is configured (ADR 0042): Japan's 47 prefectures from
 * Natural Earth (scripts/map-data.mjs), on a sea-coloured background, and a graticule whose
 * spacing follows the zoom, so that the map can be read, panned and clicked with no network.
 * The outlines are at 1:10 million: right for seeing where in Japan the marker is, not for
 * streets (a tile server gives those).
 */
export const OFFLINE_SEA = '#d6e6f1';

type Prefectures = Topology<{ prefectures: GeometryCollection<{ name: string | null }> }>;

/** Loads the outlines (a lazily imported chunk of this app: no outside host) and draws them. */
export async function addPrefectures(map: L.Map): Promise<L.GeoJSON> {
  const { default: data } = await import('./geo/japan-prefectures.topo.json');
  const topo = data as unknown as Prefectures;
  const layer = L.geoJSON(feature(topo, topo.objects.prefectures), {
    attribution: 'Natural Earth',
    style: { color: '#9a9486', weight: 1, fillColor: '#f5f2e9', fillOpacity: 1 },
    onEachFeature: (f, l) => {
      const name = (f.properties as { name: string | null } | null)?.name;
      if (name) l.bindTooltip(name, { sticky: true, direction: 'right', offset: [18, 0] });
    },
  });
  layer.addTo(map);
  layer.bringToBack();
  return layer;
}

// Spacings in degrees, coarse to fine; at zoom 17 lines fall about every 100 m.
const STEPS = [10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002];
const MIN_GAP_PX = 90;

/** The finest spacing whose lines stay at least MIN_GAP_PX apart at this zoom and latitude. */
export const graticuleStep = (map: L.Map): number => {
  const c = map.getCenter();
  const px = (d: number) => map.project([c.lat, c.lng + d]).x - map.project([c.lat, c.lng]).x;
  return STEPS.reduce((best, s) => (px(s) >= MIN_GAP_PX ? s : best), STEPS[0] ?? 10);
};

const label = (v: number, step: number, pos: string, neg: string): string => {
  const decimals = Math.max(0, Math.ceil(-Math.log10(step)));
  return `${Math.abs(v).toFixed(decimals)}°${v >= 0 ? pos : neg}`;
};

/** A graticule redrawn after each move, labelled along the top and right edges. */
export function addGraticule(map: L.Map): L.LayerGroup {
  const group = L.layerGroup().addTo(map);
  const style = { color: '#7f96ab', weight: 0.6, opacity: 0.7, interactive: false };
  // A label beside a line's end: `place` positions it from the point (the icon is 0 × 0).
  const tag = (text: string, at: L.LatLngExpression, place: string) =>
    L.marker(at, {
      interactive: false,
      keyboard: false,
      icon: L.divIcon({
        className: 'tenpo-graticule-label',
        html: `<span style="position:absolute;${place};font:11px/1 system-ui,sans-serif;color:#4d6378;white-space:nowrap">${text}</span>`,
        iconSize: [0, 0],
      }),
    });
  const draw = () => {
    group.clearLayers();
    const b = map.getBounds();
    const step = graticuleStep(map);
    const [south, west, north, east] = [b.getSouth(), b.getWest(), b.getNorth(), b.getEast()];
    const line = (from: L.LatLngTuple, to: L.LatLngTuple) => L.polyline([from, to], style);
    // Longitudes along the top, latitudes along the right: clear of the zoom buttons (top
    // left) and the attribution (bottom right).
    for (let lng = Math.ceil(west / step) * step; lng <= east; lng += step) {
      group.addLayer(line([south, lng], [north, lng]));
      group.addLayer(tag(label(lng, step, 'E', 'W'), [north, lng], 'left:3px;top:4px'));
    }
    for (let lat = Math.ceil(south / step) * step; lat <= north; lat += step) {
      group.addLayer(line([lat, west], [lat, east]));
      group.addLayer(tag(label(lat, step, 'N', 'S'), [lat, east], 'right:4px;bottom:3px'));
    }
  };
  map.on('moveend', draw);
  draw();
  return group;
}
