import { describe, expect, it } from 'vitest';
import { dailyAt, everyMinutes, nextRun, readRecurrence, ScheduleError } from './recurrence';

const next = (cron: string, after: string) => nextRun(cron, new Date(after)).toISOString();

describe('schedules in Tokyo time', () => {
  it('reads a daily time as Tokyo wall-clock time (UTC+9)', () => {
    // 03:30 every day in Tokyo is 18:30 UTC the day before.
    expect(next('30 3 * * *', '2026-11-23T00:00:00Z')).toBe('2026-11-23T18:30:00.000Z');
    expect(next('30 3 * * *', '2026-11-23T18:30:00Z')).toBe('2026-11-24T18:30:00.000Z');
    expect(next('30 3 * * *', '2026-11-23T18:29:59.999Z')).toBe('2026-11-23T18:30:00.000Z');
    expect(next('*/15 * * * *', '2026-11-23T00:07:59Z')).toBe('2026-11-23T00:15:00.000Z');
    expect(next('* * * * *', '2026-11-23T00:07:59Z')).toBe('2026-11-23T00:08:00.000Z');
  });

  it('crosses a Tokyo midnight, a month end, a year end and a leap day', () => {
    // Midnight Tokyo from 23:59:30 on 30 November Tokyo: 1 December, 15:00 UTC on the 30th.
    expect(next('0 0 * * *', '2026-11-30T14:59:30Z')).toBe('2026-11-30T15:00:00.000Z');
    // The billing run at 10:00, asked at 10:00:01 on 30 November: 1 December.
    expect(next(dailyAt(10), '2026-11-30T01:00:01Z')).toBe('2026-12-01T01:00:00.000Z');
    // The metrics sync at 06:00, asked at 07:00 on 31 December Tokyo: 1 January.
    expect(next(dailyAt(6), '2026-12-30T22:00:00Z')).toBe('2026-12-31T21:00:00.000Z');
    // 23:45 Tokyo on 28 February 2028, then the leap day.
    expect(next(dailyAt(23, 45), '2028-02-28T14:45:00Z')).toBe('2028-02-29T14:45:00.000Z');
    // Every 30 minutes across Tokyo's midnight at the end of February.
    expect(next(everyMinutes(30), '2027-02-28T14:59:59Z')).toBe('2027-02-28T15:00:00.000Z');
  });

  it('writes the cron text pg-boss takes and job_schedules stores', () => {
    expect(dailyAt(6)).toBe('0 6 * * *');
    expect(dailyAt(23, 45)).toBe('45 23 * * *');
    expect(everyMinutes(1)).toBe('* * * * *');
    expect(everyMinutes(15)).toBe('*/15 * * * *');
    expect(readRecurrence(dailyAt(10))).toEqual({ daily: { hour: 10, minute: 0 } });
    expect(readRecurrence(' 0  6 * * * ')).toEqual({ daily: { hour: 6, minute: 0 } });
    expect(readRecurrence(everyMinutes(5))).toEqual({ everyMinutes: 5 });
  });

  it('refuses anything else', () => {
    for (const text of [
      '* * *',
      '61 3 * * *',
      '0 24 * * *',
      '0 3 1 * *',
      '0 9 * * 1',
      '0 0 29 2 *',
      '*/7 * * * *',
      '*/0 * * * *',
      '0,30 * * * *',
      '00 3 * * *',
    ])
      expect(() => readRecurrence(text), text).toThrow(ScheduleError);
    expect(() => dailyAt(24)).toThrow(ScheduleError);
    expect(() => dailyAt(3, 60)).toThrow(ScheduleError);
    expect(() => everyMinutes(7)).toThrow(ScheduleError);
  });
});
