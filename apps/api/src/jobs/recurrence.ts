import { nextMinuteMark, nextTokyoTimeOfDay } from '@tenpo/domain';

/**
 * What a recurring job can say (ADR 0078): daily at HH:MM Tokyo, or every N minutes (N divides
 * 60). Every schedule of the product is one of these (the metrics sync at METRICS_SYNC_HOUR, the
 * billing run at BILLING_HOUR), so no general cron is read. A schedule is still written as the
 * cron text pg-boss takes (with `tz: 'Asia/Tokyo'`) and `job_schedules.cron` stores:
 * `dailyAt(6)` is `0 6 * * *`, `everyMinutes(15)` is `*\/15 * * * *`; other text is refused.
 */
export type Recurrence = { daily: { hour: number; minute: number } } | { everyMinutes: number };

export class ScheduleError extends Error {}

const inRange = (n: number, max: number) => Number.isInteger(n) && n >= 0 && n <= max;

/** Every day at `hour:minute`, Tokyo time. */
export const dailyAt = (hour: number, minute = 0): string => {
  if (!inRange(hour, 23) || !inRange(minute, 59))
    throw new ScheduleError(`daily at ${hour}:${minute}: an hour 0-23 and a minute 0-59 expected`);
  return `${minute} ${hour} * * *`;
};

/** Every `n` minutes, on the marks of the hour (n divides 60: 1, 5, 15, 30…). */
export const everyMinutes = (n: number): string => {
  if (!Number.isInteger(n) || n < 1 || 60 % n !== 0)
    throw new ScheduleError(`every ${n} minutes: a divisor of 60 expected`);
  return n === 1 ? '* * * * *' : `*/${n} * * * *`;
};

const NUMBER = '(0|[1-9]\\d?)';
const DAILY_RE = new RegExp(`^${NUMBER} ${NUMBER} \\* \\* \\*$`);
const EVERY_RE = new RegExp(`^(?:\\*|\\*/${NUMBER}) \\* \\* \\* \\*$`);

/** The recurrence of a schedule's text; a ScheduleError for anything but the two shapes. */
export function readRecurrence(cron: string): Recurrence {
  const text = cron.trim().replace(/\s+/g, ' ');
  const daily = DAILY_RE.exec(text);
  if (daily) {
    const [minute, hour] = [Number(daily[1]), Number(daily[2])];
    if (inRange(hour, 23) && inRange(minute, 59)) return { daily: { hour, minute } };
  }
  const every = EVERY_RE.exec(text);
  if (every) {
    const n = every[1] === undefined ? 1 : Number(every[1]);
    if (n >= 1 && 60 % n === 0) return { everyMinutes: n };
  }
  throw new ScheduleError(
    `schedule "${cron}": "M H * * *" (daily, Tokyo) or "*/N * * * *" (N divides 60) expected`,
  );
}

/** The first run strictly after `after`. */
export function nextRun(r: string | Recurrence, after: Date): Date {
  const rec = typeof r === 'string' ? readRecurrence(r) : r;
  return new Date(
    'daily' in rec
      ? nextTokyoTimeOfDay(after, rec.daily.hour, rec.daily.minute)
      : nextMinuteMark(after, rec.everyMinutes),
  );
}
