import { z } from 'zod';
import { storeInfoJa } from '../messages/store-info';

/**
 * Opening hours (spec 2 §3, §4): what the screen edits (a row a day, OPEN / ALL_DAYS / CLOSED,
 * extra intervals as extra rows) and what Google stores (TimePeriods, providers.md §1.4).
 */

export const WEEK_DAYS = [
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
  'SUNDAY',
] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** Day hours type of spec 2 §4. */
export const DAY_HOURS = { OPEN: 0, ALL_DAYS: 1, CLOSED: 2 } as const;
export type DayHoursType = (typeof DAY_HOURS)[keyof typeof DAY_HOURS];

/** The time picker's step (spec 2 §9). */
export const HOURS_STEP_MINUTES = 15;

/** Google's TimeOfDay: JSON leaves zero fields out (`{}` is 00:00, `{hours: 24}` closes at midnight). */
export const timeOfDaySchema = z
  .object({
    hours: z.number().int().min(0).max(24).optional(),
    minutes: z.number().int().min(0).max(59).optional(),
  })
  .refine((t) => (t.hours ?? 0) < 24 || (t.minutes ?? 0) === 0, {
    message: storeInfoJa.pastMidnight,
  });
export type TimeOfDay = z.infer<typeof timeOfDaySchema>;

export const timePeriodSchema = z.object({
  openDay: z.enum(WEEK_DAYS),
  closeDay: z.enum(WEEK_DAYS),
  openTime: timeOfDaySchema,
  closeTime: timeOfDaySchema,
});
export type TimePeriod = z.infer<typeof timePeriodSchema>;

/** One row of the hours editor: `open`/`close` as HH:mm (used by OPEN rows only). */
export type DayRow = { day: WeekDay; type: DayHoursType; open: string; close: string };

const minutesOf = (t: TimeOfDay): number => (t.hours ?? 0) * 60 + (t.minutes ?? 0);

export const hhmm = (t: TimeOfDay): string => {
  const m = minutesOf(t);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** `HH:mm` as Google's TimeOfDay (zero fields left out, as Google answers). */
export const timeOf = (s: string): TimeOfDay => {
  const [h = 0, m = 0] = s.split(':').map(Number);
  const t: TimeOfDay = {};
  if (h) t.hours = h;
  if (m) t.minutes = m;
  return t;
};

const nextDay = (d: WeekDay): WeekDay => WEEK_DAYS[(WEEK_DAYS.indexOf(d) + 1) % 7] as WeekDay;

/** Whether a period is a whole day (00:00 to 24:00 of the same day). */
const allDay = (p: TimePeriod): boolean =>
  minutesOf(p.openTime) === 0 && p.closeTime.hours === 24 && p.openDay === p.closeDay;

/**
 * Google's periods as the editor's rows: every day of the week at least once, in week order,
 * a day's intervals in time order; a day without a period is CLOSED (spec 2 §4).
 */
export function rowsOfPeriods(periods: readonly TimePeriod[]): DayRow[] {
  const out: DayRow[] = [];
  for (const day of WEEK_DAYS) {
    const mine = periods
      .filter((p) => p.openDay === day)
      .sort((a, b) => minutesOf(a.openTime) - minutesOf(b.openTime));
    if (mine.length === 0) {
      out.push({ day, type: DAY_HOURS.CLOSED, open: '09:00', close: '18:00' });
      continue;
    }
    if (mine.some(allDay)) {
      out.push({ day, type: DAY_HOURS.ALL_DAYS, open: '00:00', close: '00:00' });
      continue;
    }
    for (const p of mine) {
      const close = p.closeTime.hours === 24 ? '00:00' : hhmm(p.closeTime);
      out.push({ day, type: DAY_HOURS.OPEN, open: hhmm(p.openTime), close });
    }
  }
  return out;
}

/**
 * The editor's rows as Google's periods (spec 2 §4): CLOSED rows left out; ALL_DAYS is 00:00 to
 * 24:00; an interval closing at or before its opening time closes the next day (a bar open
 * 18:00–02:00), and one closing at 00:00 closes at 24:00 of the same day.
 */
export function periodsOfRows(rows: readonly DayRow[]): TimePeriod[] {
  const out: TimePeriod[] = [];
  for (const r of rows) {
    if (r.type === DAY_HOURS.CLOSED) continue;
    if (r.type === DAY_HOURS.ALL_DAYS) {
      if (out.some((p) => p.openDay === r.day && allDay(p))) continue;
      out.push({ openDay: r.day, closeDay: r.day, openTime: {}, closeTime: { hours: 24 } });
      continue;
    }
    const open = timeOf(r.open);
    if (r.close === '00:00') {
      out.push({ openDay: r.day, closeDay: r.day, openTime: open, closeTime: { hours: 24 } });
      continue;
    }
    const close = timeOf(r.close);
    const overnight = minutesOf(close) <= minutesOf(open);
    out.push({
      openDay: r.day,
      closeDay: overnight ? nextDay(r.day) : r.day,
      openTime: open,
      closeTime: close,
    });
  }
  return out;
}

/** Periods compared as Google compares them (zero fields and order do not matter). */
export const samePeriods = (a: readonly TimePeriod[], b: readonly TimePeriod[]): boolean => {
  const key = (p: TimePeriod) =>
    `${p.openDay} ${hhmm(p.openTime)} ${p.closeDay} ${p.closeTime.hours === 24 ? '24:00' : hhmm(p.closeTime)}`;
  const ka = a.map(key).sort();
  const kb = b.map(key).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
};

/**
 * What a typed time becomes in the hours editor (ADR 0069). Accepted: `10:15`, `9:05`, `1015`,
 * `915`, `10`, `10時15分`, full-width digits and colon. Minutes off the 15-minute grid go to the
 * nearest quarter hour (`rounded` says so). A closing time of 24:00 is 00:00 (midnight, as the picker's 00:00);
 * rounding past 23:45 gives 00:00 for a closing time and 23:45 for an opening time. Anything else
 * (25:00, 10:60, letters) is `unreadable`: the field keeps its time.
 */
export type TypedTime =
  | { kind: 'exact'; time: string }
  | { kind: 'rounded'; time: string }
  | { kind: 'unreadable' };

export function readTypedTime(text: string, role: 'open' | 'close'): TypedTime {
  const s = text.normalize('NFKC').replace(/\s+/g, '').replace(/分$/, '').replace(/[時.]/, ':');
  const m = /^(\d{1,2})(?::(\d{1,2}))?$/.exec(s) ?? /^(\d{1,2})(\d{2})$/.exec(s);
  if (!m) return { kind: 'unreadable' };
  const h = Number(m[1]);
  const min = m[2] === undefined || m[2] === '' ? 0 : Number(m[2]);
  if (h > 24 || min > 59 || (h === 24 && min > 0)) return { kind: 'unreadable' };
  const typed = h * 60 + min;
  if (typed === 24 * 60 && role === 'close') return { kind: 'exact', time: '00:00' };
  let at = Math.round(typed / HOURS_STEP_MINUTES) * HOURS_STEP_MINUTES;
  if (at >= 24 * 60) at = role === 'close' ? 0 : 24 * 60 - HOURS_STEP_MINUTES;
  const time = `${String(Math.floor(at / 60)).padStart(2, '0')}:${String(at % 60).padStart(2, '0')}`;
  return at === typed ? { kind: 'exact', time } : { kind: 'rounded', time };
}
