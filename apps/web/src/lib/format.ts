/** Date and time on screen (spec 2 §9): YYYY/MM/DD HH:mm:ss in Asia/Tokyo, whatever the browser's zone. */

const tokyo = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export const tokyoDateTime = (d: Date): string => {
  const p = Object.fromEntries(tokyo.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second}`;
};
