/**
 * Five-field cron (minute hour day-of-month month day-of-week) read in Tokyo time. Japan keeps
 * no daylight saving time, so Tokyo is UTC+9 all year and a fixed offset is exact (ADR 0020).
 * Fields take `*`, numbers, lists `1,15`, ranges `1-5` and steps `*\/10`, `8-18/2`; day of week
 * 0–7 with 0 and 7 Sunday. As in Vixie cron, when both day fields are restricted a day matching
 * either one runs.
 */
export const TOKYO_OFFSET_MS = 9 * 60 * 60 * 1000;

export type Cron = {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
};

export class CronError extends Error {}

const field = (text: string, min: number, max: number, name: string): Set<number> => {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new CronError(`cron ${name}: cannot read "${part}"`);
    const step = m[4] === undefined ? 1 : Number(m[4]);
    let lo = min;
    let hi = max;
    if (m[1] !== '*') {
      lo = Number(m[2]);
      hi = m[3] === undefined ? (m[4] === undefined ? lo : max) : Number(m[3]);
    }
    if (step < 1 || lo < min || hi > max || lo > hi)
      throw new CronError(`cron ${name}: "${part}" is outside ${min}-${max}`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
};

export function parseCron(expr: string): Cron {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5)
    throw new CronError(`cron "${expr}": five fields expected (minute hour day month weekday)`);
  const [mi, h, d, mo, wd] = parts as [string, string, string, string, string];
  const weekdays = field(wd, 0, 7, 'day of week');
  if (weekdays.delete(7)) weekdays.add(0);
  return {
    minutes: field(mi, 0, 59, 'minute'),
    hours: field(h, 0, 23, 'hour'),
    days: field(d, 1, 31, 'day of month'),
    months: field(mo, 1, 12, 'month'),
    weekdays,
    daysRestricted: d !== '*',
    weekdaysRestricted: wd !== '*',
  };
}

const dayMatches = (c: Cron, t: Date): boolean => {
  const dom = c.days.has(t.getUTCDate());
  const dow = c.weekdays.has(t.getUTCDay());
  if (c.daysRestricted && c.weekdaysRestricted) return dom || dow;
  return dom && dow;
};

/** The first time strictly after `after` that the expression names, in Tokyo time. */
export function nextCronTime(expr: string | Cron, after: Date): Date {
  const c = typeof expr === 'string' ? parseCron(expr) : expr;
  // Work on a Date whose UTC fields read as Tokyo's wall clock.
  const t = new Date(after.getTime() + TOKYO_OFFSET_MS);
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  // Five years covers every satisfiable expression (29 February falls within four).
  const limit = t.getTime() + 5 * 366 * 24 * 60 * 60 * 1000;
  while (t.getTime() <= limit) {
    if (!c.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0);
      continue;
    }
    if (!dayMatches(c, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0);
      continue;
    }
    if (!c.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0);
      continue;
    }
    if (!c.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1);
      continue;
    }
    return new Date(t.getTime() - TOKYO_OFFSET_MS);
  }
  throw new CronError(`cron: no time matches within five years`);
}
