/** Date and time on screen (spec 2 §9): YYYY/MM/DD HH:mm:ss in Asia/Tokyo, whatever the browser's zone. */

/**
 * Tokyo is UTC+9 all year (no summer time since 1951), so its wall clock is the UTC clock of the
 * instant nine hours on. No `Intl.DateTimeFormat` with a time zone: building one loads the
 * browser's zone data, which was 95 ms of /posts' first render on a phone's CPU (issue 23 item 5).
 */
const TOKYO_OFFSET_MS = 9 * 60 * 60 * 1000;
const two = (n: number) => String(n).padStart(2, '0');

export const tokyoDateTime = (d: Date): string => {
  const t = new Date(d.getTime() + TOKYO_OFFSET_MS);
  return `${t.getUTCFullYear()}/${two(t.getUTCMonth() + 1)}/${two(t.getUTCDate())} ${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())}`;
};
