import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { describe, expect, it } from 'vitest';
import data from './japan-prefectures.topo.json';

// The offline outlines (scripts/map-data.mjs, ADR 0042): what the map relies on.
const topo = data as unknown as Topology<{
  prefectures: GeometryCollection<{ name: string | null }>;
}>;
const features = feature(topo, topo.objects.prefectures).features;

describe('the offline outlines of Japan', () => {
  it('name the 47 prefectures in Japanese, once each', () => {
    const names = features.map((f) => f.properties.name).filter((n) => n !== null);
    expect(names).toHaveLength(47);
    expect(new Set(names).size).toBe(47);
    for (const n of names) expect(n).toMatch(/^(北海道|東京都|京都府|大阪府|.{2,3}県)$/);
    expect(names).toEqual(expect.arrayContaining(['北海道', '東京都', '静岡県', '沖縄県']));
  });

  it('lie in longitude and latitude around Japan', () => {
    const points = features.flatMap((f) => {
      const g = f.geometry;
      const polys =
        g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
      return polys.flat(2) as unknown as [number, number][];
    });
    expect(points.length).toBeGreaterThan(10_000);
    for (const [lng, lat] of points) {
      expect(lng).toBeGreaterThanOrEqual(122);
      expect(lng).toBeLessThanOrEqual(154.1);
      expect(lat).toBeGreaterThanOrEqual(24);
      expect(lat).toBeLessThanOrEqual(45.6);
    }
  });
});
