import { createHash } from 'node:crypto';

/**
 * twitter-text v3 weighted length: most Latin-script characters weigh 1, everything else
 * (CJK included) 2, every URL 23, every emoji (whatever its code points) 2. Max 280.
 */
const LIGHT: [number, number][] = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];
export const URL_RE = /https?:\/\/[^\s\u3000]+/gi;
const EMOJI_RE = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

export function weightedLength(input: string): number {
  let text = input.normalize('NFC');
  let total = 0;
  text = text.replace(URL_RE, () => {
    total += 23;
    return '';
  });
  const seg = new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { segment } of seg.segment(text)) {
    if (EMOJI_RE.test(segment)) {
      total += 2;
      continue;
    }
    for (const ch of segment) {
      const cp = ch.codePointAt(0) ?? 0;
      total += LIGHT.some(([a, b]) => cp >= a && cp <= b) ? 1 : 2;
    }
  }
  return total;
}

export const MAX_WEIGHTED_LENGTH = 280;

/** X's short link for one link of one post: `https://t.co/` and ten letters, stable per seed. */
export const tcoLink = (seed: string): string =>
  `https://t.co/${createHash('sha256').update(seed).digest('base64url').slice(0, 10)}`;
