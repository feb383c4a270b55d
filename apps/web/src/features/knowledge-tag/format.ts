const parts = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Spec 2 §9: YYYY/MM/DD HH:mm:ss on screen, in Tokyo time. */
export const formatSeenAt = (isoText: string): string => {
  const p = Object.fromEntries(
    parts.formatToParts(new Date(isoText)).map((x) => [x.type, x.value]),
  ) as Record<string, string>;
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second}`;
};
