import { describe, expect, it } from 'vitest';
import { PUBLISHER_KEYS, type PublisherKey } from '../publishers/publishers';
import { CHANNEL_LIMITS, rateLimitsFor } from './limits';

describe('channel limits', () => {
  it('has a row for every publisher key, with positive figures', () => {
    expect(Object.keys(CHANNEL_LIMITS).sort()).toEqual([...PUBLISHER_KEYS].sort());
    for (const l of Object.values(CHANNEL_LIMITS)) {
      expect(l.textMaxLength).toBeGreaterThan(0);
      for (const r of l.rateLimits) {
        expect(r.limit).toBeGreaterThan(0);
        expect(r.windowMs).toBeGreaterThan(0);
      }
    }
  });

  it.each<[PublisherKey, number, 'chars' | 'x_weighted']>([
    ['twitter', 160, 'x_weighted'],
    ['instagram', 2200, 'chars'],
    ['google_my_business', 1500, 'chars'],
  ])('%s posts hold at most %i characters (%s)', (key, max, counting) => {
    expect(CHANNEL_LIMITS[key]).toMatchObject({ textMaxLength: max, textCounting: counting });
  });

  it.each<[PublisherKey, 'publish' | 'remove' | 'edit_location', number[]]>([
    ['instagram', 'publish', [25, 4800]],
    ['twitter', 'publish', [100, 10_000]],
    ['twitter', 'remove', [50]],
    ['google_my_business', 'edit_location', [300, 10]],
  ])('%s %s calls are limited to %j', (key, call, limits) => {
    expect(rateLimitsFor(key, call).map((r) => r.limit)).toEqual(limits);
  });

  it('counts 25 Instagram posts per rolling 24 hours (the spec; Meta has said more)', () => {
    expect(CHANNEL_LIMITS.instagram.postsPer24h).toBe(25);
  });
});
