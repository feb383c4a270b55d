import { useEffect, useRef } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { mapTiles } from '../map-config';
import { addGraticule, addPrefectures, OFFLINE_SEA } from '../offline-base';

/** Spec 2 §4 and §5: the map shows the store at zoom 17. */
export const STORE_MAP_ZOOM = 17;
/** With no coordinates yet: Japan from Kyushu to Hokkaido, as large as the map allows. */
const JAPAN: L.LatLngBoundsLiteral = [
  [30.8, 128.8],
  [45.6, 146],
];

/** Six decimals: about 0.1 m, finer than any click. */
const round = (v: number): number => Math.round(v * 1e6) / 1e6;
const same = (a: L.LatLng, lat: number, lng: number) => a.lat === lat && a.lng === lng;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Drawn in the page (no image file to fetch): a pin whose tip is the point.
const pin = L.divIcon({
  className: 'tenpo-store-map-pin',
  html:
    '<svg xmlns="http://www.w3.org/2000/svg" width="28" height="40" viewBox="0 0 28 40" aria-hidden="true">' +
    '<path d="M14 0C6.3 0 0 6.1 0 13.7 0 24 14 40 14 40s14-16 14-26.3C28 6.1 21.7 0 14 0z" fill="#e03131" stroke="#fff" stroke-width="1.5"/>' +
    '<circle cx="14" cy="13.5" r="5" fill="#fff"/></svg>',
  iconSize: [28, 40],
  iconAnchor: [14, 40],
});

export type LeafletMapProps = {
  latitude: number | null;
  longitude: number | null;
  onPick: (latitude: number, longitude: number) => void;
  height: number;
  /** The map's accessible name, and its zoom buttons' (Leaflet's own are in English). */
  label: string;
  zoomIn: string;
  zoomOut: string;
};

/**
 * The Leaflet map of StoreMap, in its own chunk (with Leaflet and its CSS) so that no other
 * screen loads them. The marker follows the props; a click moves it and reports the point.
 */
export function LeafletMap(props: LeafletMapProps) {
  const { latitude, longitude, onPick, height, label, zoomIn, zoomOut } = props;
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const markerRef = useRef<L.Marker | null>(null);
  const onPickRef = useRef(onPick);
  /** The point last clicked: when the props come back with it, the view stays where it is. */
  const picked = useRef<L.LatLng | null>(null);
  const tiles = mapTiles();

  useEffect(() => {
    onPickRef.current = onPick;
  }, [onPick]);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    // SVG, not canvas: crisp outlines, and DOM nodes a test can count.
    const map = L.map(el, { renderer: L.svg(), minZoom: 4, maxZoom: 19, zoomControl: false });
    L.control.zoom({ zoomInTitle: zoomIn, zoomOutTitle: zoomOut }).addTo(map);
    map.fitBounds(JAPAN);
    const source = mapTiles();
    if (source) {
      L.tileLayer(source.url, { attribution: escapeHtml(source.attribution), maxZoom: 19 }).addTo(
        map,
      );
    } else {
      addGraticule(map);
      // A failure to load the outlines leaves the graticule, the marker and the click working.
      addPrefectures(map).catch(() => {});
    }
    map.on('click', (e: L.LeafletMouseEvent) => {
      const at = e.latlng.wrap();
      const lat = round(at.lat);
      const lng = round(at.lng);
      picked.current = L.latLng(lat, lng);
      markerRef.current?.setLatLng([lat, lng]);
      onPickRef.current(lat, lng);
    });
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(el);
    mapRef.current = map;
    return () => {
      resize.disconnect();
      map.remove();
      mapRef.current = null;
      markerRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one map per mount; its zoom titles are read once
  }, []);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    if (latitude === null || longitude === null) {
      markerRef.current?.remove();
      markerRef.current = null;
      return;
    }
    const here = L.latLng(latitude, longitude);
    if (markerRef.current) markerRef.current.setLatLng(here);
    // Not interactive: a click on the pin is a click on the map at that point.
    else
      markerRef.current = L.marker(here, { icon: pin, keyboard: false, interactive: false }).addTo(
        map,
      );
    // New coordinates from outside (the address was geocoded): show the store at zoom 17.
    if (!picked.current || !same(picked.current, latitude, longitude))
      map.setView(here, STORE_MAP_ZOOM);
    picked.current = null;
  }, [latitude, longitude]);

  return (
    <div
      ref={container}
      role="application"
      aria-label={label}
      data-map-source={tiles ? 'tiles' : 'offline'}
      style={{ height, width: '100%', background: tiles ? undefined : OFFLINE_SEA }}
    />
  );
}
