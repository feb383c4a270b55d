import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../src/lib/clock';
import { createLimiter } from '../src/jobs/limiter';
import type { RateLimit } from '../src/jobs/engine';
import { createTestDb, dbKinds, type TestDb } from './job-db';

/**
 * The rate limits' check-and-record (ADR 0020; on PostgreSQL one statement, ADR 0100), counted
 * in `job_rate_events`, from several connection pools at once as several processes would.
 */
describe.each(dbKinds())('rate limiter on %s', (kind) => {
  let tdb: TestDb;
  beforeEach(async () => {
    tdb = await createTestDb(kind);
  });
  afterEach(async () => {
    await tdb.drop();
  });

  const limit = (key: string, max: number, perMs = 60_000): RateLimit<unknown> => ({
    key: () => key,
    max,
    perMs,
  });
  const events = async (key: string) =>
    (
      await tdb.handle.db
        .selectFrom('job_rate_events')
        .select('at')
        .where('key', '=', key)
        .execute()
    ).length;

  it('records exactly max starts among many at once from three pools', async () => {
    const limiters = [tdb.handle, tdb.open(), tdb.open()].map((h) =>
      createLimiter(h.db, h.dialect, systemClock),
    );
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (limiters[i % 3] as (typeof limiters)[number]).acquire([limit('x:page', 7)], {}),
      ),
    );
    expect(results.filter((r) => r === null)).toHaveLength(7);
    expect(await events('x:page')).toBe(7);
    // Each refusal names a time just after the oldest start leaves the window.
    for (const r of results.filter((r): r is Date => r !== null)) {
      expect(r.getTime()).toBeGreaterThan(Date.now() + 50_000);
      expect(r.getTime()).toBeLessThanOrEqual(Date.now() + 60_001);
    }
  });

  it('takes every limit or none: a refused second limit gives the first back', async () => {
    const limiter = createLimiter(tdb.handle.db, tdb.handle.dialect, systemClock);
    const both = [limit('app', 5), limit('account:a', 2)];
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.acquire(both, {}));
    expect(results.map((r) => r === null)).toEqual([true, true, false, false]);
    expect(await events('app')).toBe(2);
    expect(await events('account:a')).toBe(2);
    // Another account still has the app's three left.
    for (let i = 0; i < 4; i++)
      results.push(await limiter.acquire([limit('app', 5), limit('account:b', 9)], {}));
    expect(results.slice(4).map((r) => r === null)).toEqual([true, true, true, false]);
    expect(await events('app')).toBe(5);
  });

  it('counts only the window, and a null key is no limit', async () => {
    let now = Date.parse('2026-11-29T00:00:00.000Z');
    const clock: Clock = { now: () => new Date(now) };
    const limiter = createLimiter(tdb.handle.db, tdb.handle.dialect, clock);
    const l = limit('g', 2, 1000);
    expect(await limiter.acquire([l], {})).toBeNull();
    now += 400;
    expect(await limiter.acquire([l], {})).toBeNull();
    now += 400;
    const wait = await limiter.acquire([l], {});
    // The first start (at 0 ms) leaves the window at 1,000 ms: try again just after.
    expect(wait?.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-11-29T00:00:01.001Z'));
    expect(wait?.getTime()).toBeLessThan(Date.parse('2026-11-29T00:00:01.050Z'));
    now += 250; // 1,050 ms: the first start has left
    expect(await limiter.acquire([l], {})).toBeNull();
    expect(
      await limiter.acquire([{ key: () => null, max: 0, perMs: 1000 }, limit('g2', 1, 1000)], {}),
    ).toBeNull();
  });
});
