import type { ChannelLimits } from '../channels/limits';

/**
 * twitter-text v3 weighted length (reference/providers.md §4.6): code points in X's light
 * ranges (most Latin script, some punctuation) weigh 1, everything else, CJK included, 2; every
 * URL 23; every emoji, whatever its code points, 2; the text is NFC-normalised first. The
 * sandbox's X emulator counts the same way (apps/sandbox/src/x/x.text.ts, kept separate: the
 * sandbox encodes the provider, not our code).
 */
const LIGHT: readonly (readonly [number, number])[] = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];
const URL_RE = /https?:\/\/[^\s\u3000]+/gi;
const EMOJI_RE = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

export function xWeightedLength(input: string): number {
  let total = 0;
  const text = input.normalize('NFC').replace(URL_RE, () => {
    total += 23;
    return '';
  });
  const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text);
  for (const { segment } of graphemes) {
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

/** A text's length as the channel counts it (`ChannelLimits.textCounting`). */
export const textLength = (text: string, counting: ChannelLimits['textCounting']): number =>
  counting === 'x_weighted' ? xWeightedLength(text) : [...text.normalize('NFC')].length;
