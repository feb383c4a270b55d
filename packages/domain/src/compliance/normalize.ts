/**
 * The text the compliance rules read (ADR 0089): the reply in NFKC (full-width letters, digits
 * and signs become ASCII, half-width katakana become full-width, `№` becomes `No`), with old and
 * variant kanji folded to their common forms and variation selectors dropped. Each character of
 * the result remembers the span of the original it came from, so a finding is reported at its
 * place in the text the user typed.
 */
export type MatchText = {
  /** The normalised text the patterns run over. */
  text: string;
  /** For each UTF-16 unit of `text`: where its source begins in the original… */
  from: number[];
  /** …and where it ends. */
  to: number[];
};

/** Pairs of a variant kanji and its common form (old forms, names' variants). */
const VARIANT_PAIRS =
  '醫医齒歯藥薬絕絶效効瘦痩髙高﨑崎濵浜邊辺邉辺齋斎齊斎澤沢櫻桜廣広嶋島眞真𠮷吉'; // ja-data: kanji pairs

const VARIANTS: ReadonlyMap<string, string> = (() => {
  const chars = Array.from(VARIANT_PAIRS);
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < chars.length; i += 2) map.set(chars[i] as string, chars[i + 1] as string);
  return map;
})();

/** Marks that belong to the character before them (and half-width voiced marks, ﾞ ﾟ). */
const JOINS_PREVIOUS = /^[\p{M}\uFF9E\uFF9F]$/u;
const VARIATION_SELECTORS = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

/** One unit of the original: a code point and the marks that follow it. */
function units(original: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let i = 0;
  for (const ch of original) {
    const last = out[out.length - 1];
    if (last && JOINS_PREVIOUS.test(ch)) last.end = i + ch.length;
    else out.push({ start: i, end: i + ch.length });
    i += ch.length;
  }
  return out;
}

const fold = (s: string): string =>
  Array.from(s.normalize('NFKC').replace(VARIATION_SELECTORS, ''))
    .map((c) => VARIANTS.get(c) ?? c)
    .join('');

/** The reply as the rules read it, with the way back to the original's positions. */
export function normalizeForMatch(original: string): MatchText {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  for (const u of units(original)) {
    const piece = fold(original.slice(u.start, u.end));
    text += piece;
    for (let k = 0; k < piece.length; k++) {
      from.push(u.start);
      to.push(u.end);
    }
  }
  return { text, from, to };
}

/** A match's span in the normalised text, back in the original (`end` exclusive). */
export function originalSpan(m: MatchText, start: number, end: number): [number, number] {
  return [m.from[start] ?? 0, m.to[end - 1] ?? m.from[start] ?? 0];
}

/** The same normalisation for a short text that needs no positions (the reviewer's name). */
export const normalizeText = fold;

const HIRAGANA_FIRST = 0x3041;
const HIRAGANA_LAST = 0x3096;
const KANA_OFFSET = 0x60;

/** The other kana of a hiragana or katakana letter (か ↔ カ), or null. */
function otherKana(c: string): string | null {
  const code = c.charCodeAt(0);
  if (c.length !== 1) return null;
  if (code >= HIRAGANA_FIRST && code <= HIRAGANA_LAST)
    return String.fromCharCode(code + KANA_OFFSET);
  if (code >= HIRAGANA_FIRST + KANA_OFFSET && code <= HIRAGANA_LAST + KANA_OFFSET)
    return String.fromCharCode(code - KANA_OFFSET);
  return null;
}

/**
 * A pattern's source made blind to hiragana and katakana: every kana letter outside a character
 * class becomes a class of both (`シミ` matches しみ, シミ, ｼﾐ), one inside a class gets its pair
 * unless it bounds a range. Classes such as `\p{Script=Katakana}` keep their meaning, so a rule
 * can still ask for katakana where the script matters.
 */
export function kanaInsensitive(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
      continue;
    }
    const other = otherKana(c);
    if (inClass) {
      if (c === ']') inClass = false;
      const ranged = source[i - 1] === '-' || source[i + 1] === '-';
      out += other && !ranged ? c + other : c;
      continue;
    }
    if (c === '[') inClass = true;
    out += other ? `[${c}${other}]` : c;
  }
  return out;
}

/** Characters that end a sentence in the normalised text. */
const SENTENCE_END = /[。!?\n]/u;

/** The sentence of the normalised text around `start`–`end`. */
export function sentenceAround(text: string, start: number, end: number): string {
  let a = start;
  while (a > 0 && !SENTENCE_END.test(text[a - 1] as string)) a--;
  let b = end;
  while (b < text.length && !SENTENCE_END.test(text[b] as string)) b++;
  return text.slice(a, b);
}
