import { describe, expect, it } from 'vitest';
import { CronError, nextCronTime, parseCron } from './cron';

const next = (expr: string, after: string) => nextCronTime(expr, new Date(after)).toISOString();

describe('cron in Tokyo time', () => {
  it('reads the fields as Tokyo wall-clock time (UTC+9)', () => {
    // 03:30 every day in Tokyo is 18:30 UTC the day before.
    expect(next('30 3 * * *', '2026-11-23T00:00:00Z')).toBe('2026-11-23T18:30:00.000Z');
    expect(next('30 3 * * *', '2026-11-23T18:30:00Z')).toBe('2026-11-24T18:30:00.000Z');
    expect(next('*/15 * * * *', '2026-11-23T00:07:59Z')).toBe('2026-11-23T00:15:00.000Z');
  });

  it('handles day of week, month ends and leap days', () => {
    // Mondays at 09:00 Tokyo: 2026-11-23 is a Monday; 09:00 Tokyo is 00:00 UTC.
    expect(next('0 9 * * 1', '2026-11-23T00:00:00Z')).toBe('2026-11-30T00:00:00.000Z');
    expect(next('0 9 * * 7', '2026-11-23T00:00:00Z')).toBe('2026-11-29T00:00:00.000Z');
    expect(next('0 0 31 * *', '2026-11-01T00:00:00Z')).toBe('2026-12-30T15:00:00.000Z');
    expect(next('0 0 29 2 *', '2026-03-01T00:00:00Z')).toBe('2028-02-28T15:00:00.000Z');
    // Both day fields restricted: either matches (the 1st, or a Friday).
    expect(next('0 12 1 * 5', '2026-11-23T00:00:00Z')).toBe('2026-11-27T03:00:00.000Z');
  });

  it('refuses what it cannot read, naming the field', () => {
    expect(() => parseCron('* * *')).toThrow(CronError);
    expect(() => parseCron('61 * * * *')).toThrow(/minute/);
    expect(() => parseCron('* * * 13 *')).toThrow(/month/);
    expect(() => parseCron('* * * * mon')).toThrow(/day of week/);
    expect(() => nextCronTime('0 0 31 2 *', new Date())).toThrow(/no time/);
  });
});
